#include "images/dockerfile_build/stage_builder.h"

#include <unistd.h>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/printable.h"
#include "base/rfc3339.h"
#include "base/secret_mask.h"
#include "images/dockerfile_build/build_secrets.h"
#include "images/dockerfile_build/image_users.h"
#include "images/dockerfile_build/run_command.h"
#include "images/dockerfile/dockerfile_error.h"
#include "images/image/layout_source.h"

namespace gkebuild::build {
namespace fs = std::filesystem;
using dockerfile::DockerfileError;
using dockerfile::Keyword;

namespace {

std::optional<std::string> env_value(const std::vector<std::string>& env, std::string_view name) {
  for (const auto& entry : env) {
    if (entry.size() > name.size() && entry.starts_with(name) && entry[name.size()] == '=') {
      return entry.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

void set_env(std::vector<std::string>& env, const std::string& name, const std::string& value) {
  for (auto& entry : env) {
    if (entry.starts_with(name + "=")) {
      entry = name + "=" + value;
      return;
    }
  }
  env.push_back(name + "=" + value);
}

// A step's message may end with the last lines the command wrote: each line is made
// printable, the line breaks stay.
std::string printable_lines(std::string_view text) {
  std::string out;
  for (size_t start = 0; start <= text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    out += printable(text.substr(start, end - start));
    if (end < text.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

// What Docker and buildah give an image whose base sets no PATH (FROM scratch
// among them), so that a Dockerfile built here runs as it does there.
constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

}  // namespace

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  fs::remove_all(path, ignored);
}

image::Image StageBuilder::build(size_t index, std::unique_lock<std::mutex>& lock) {
  lock_ = &lock;
  const Stage& stage = shared_.plan.stages()[index];
  size_t total = shared_.dockerfile.instructions.size();
  for (size_t i = stage.begin; i < stage.end; ++i) {
    const Instruction& in = shared_.dockerfile.instructions[i];
    step_ = "[" + std::to_string(i + 1) + "/" + std::to_string(total) + "] " + in.name;
    try {
      apply(in);
    } catch (const LayerReadError& e) {  // a base layer read for WORKDIR, USER names, COPY's parents...
      fail(in, e.what());
    }
  }
  return finished_image();
}

void StageBuilder::fail_at(const Instruction& in, int column, const std::string& message) const {
  // Messages quote the user's words (ENV pairs, ports, base images, COPY sources), so the
  // whole message is made printable here, once for every instruction.
  throw DockerfileError(shared_.dockerfile.file, in.line, column, printable(message), shared_.dockerfile.source);
}

void StageBuilder::progress(const std::string& message) const {
  std::lock_guard print(shared_.print);
  if (options_.progress) options_.progress(step_ + " " + message);
}
void StageBuilder::warn(const std::string& message) const {
  std::lock_guard print(shared_.print);
  if (options_.warning) options_.warning(message);
}

std::optional<std::string> StageBuilder::lookup(std::string_view name) const {
  if (auto v = env_value(config_.env, name)) return v;
  auto it = args_.find(std::string(name));
  if (it != args_.end()) return it->second;
  return std::nullopt;
}

dockerfile::Lookup StageBuilder::lookup_fn() const {
  return [this](std::string_view name) { return lookup(name); };
}

std::vector<std::string> StageBuilder::words(const Instruction& in) const {
  try {
    if (in.json) {
      std::vector<std::string> out;
      for (const auto& w : *in.json) out.push_back(dockerfile::expand_word(w, lookup_fn(), shared_.dockerfile.escape));
      return out;
    }
    return dockerfile::split_words(in.arguments, lookup_fn(), shared_.dockerfile.escape);
  } catch (const InputError& e) {
    fail(in, e.what());
  }
}

std::string StageBuilder::word(const Instruction& in, const std::string& text) const {
  try {
    return dockerfile::expand_word(text, lookup_fn(), shared_.dockerfile.escape);
  } catch (const InputError& e) {
    fail(in, e.what());
  }
}

void StageBuilder::apply(const Instruction& in) {
  switch (in.keyword) {
    case Keyword::kFrom: return from(in);
    case Keyword::kArg: return arg(in);
    case Keyword::kEnv: return key_values(in, true);
    case Keyword::kLabel: return key_values(in, false);
    case Keyword::kWorkdir: return workdir(in);
    case Keyword::kUser: config_.user = word(in, in.arguments); return record(in);
    case Keyword::kStopSignal: config_.stop_signal = word(in, in.arguments); return record(in);
    case Keyword::kCopy: return copy(in, false);
    case Keyword::kAdd: return copy(in, true);
    case Keyword::kRun: return run_step(in);
    case Keyword::kEntrypoint:
      config_.entrypoint = command(in);
      if (!set_cmd_) config_.cmd.reset();  // as Docker: a new ENTRYPOINT drops the base's CMD
      return record(in);
    case Keyword::kCmd:
      config_.cmd = command(in);
      set_cmd_ = true;
      return record(in);
    case Keyword::kExpose: return expose(in);
    case Keyword::kVolume:
      for (auto& v : words(in)) config_.volumes.insert(v);
      return record(in);
    case Keyword::kShell: return shell(in);
    case Keyword::kHealthcheck: return healthcheck(in);
    case Keyword::kOnbuild: return onbuild(in);
    case Keyword::kMaintainer: author_ = in.arguments; return record(in);
  }
}

void StageBuilder::record(const Instruction& in) { image_ = image::append_history(image_, history(in)); }

oci::History StageBuilder::history(const Instruction& in) const {
  return oci::History{format_rfc3339_seconds(options_.source_date_epoch), in.text, "gkebuild", false};
}

ImageFiles StageBuilder::files(const image::Image& image) {
  return ImageFiles(image, shared_.scratch.next("files"), shared_.listings, store_->cache_dir() / "listing");
}

image::Image StageBuilder::finished_image() const {
  image::Image out = image::with_container_config(image_, config_);
  out = image::with_created(out, format_rfc3339_seconds(options_.source_date_epoch));
  if (author_.empty()) return out;
  oci::ImageConfig config = out.config();
  config.other["author"] = author_;
  return image::Image(config, out.layers());
}

image::Image StageBuilder::load_image(const Instruction& in, const std::string& ref, const char* what) {
  if (ref == "scratch") return image::Image();
  if (ref.starts_with("oci:")) {
    std::string rest = ref.substr(4);
    size_t colon = rest.find(':');  // as skopeo: oci:PATH[:REFERENCE], PATH without ':'
    std::string tag;
    if (colon != std::string::npos) {
      tag = rest.substr(colon + 1);
      rest = rest.substr(0, colon);
    }
    try {
      auto layout = std::make_shared<oci::Layout>(oci::Layout::open(rest));
      return image::load_image(layout, tag);
    } catch (const std::exception& e) {
      fail(in, std::string("cannot use ") + what + " " + ref + ": " + e.what());
    }
  }
  if (!options_.pull) {
    fail(in, std::string(what) + " '" + ref + "': pulling images from registries needs the registry client, which "
             "this gkebuild cannot call; use scratch or oci:DIR[:TAG] (for example after `skopeo copy docker://" +
             ref + " oci:DIR:TAG`)");
  }
  try {
    return options_.pull(ref);
  } catch (const std::exception& e) {
    const std::string message = std::string("cannot pull ") + what + " " + ref + ": " + e.what();
    const auto* error = dynamic_cast<const Error*>(&e);
    if (error == nullptr || error->kind() != ErrorKind::kFailed) fail(in, message);
    // The registry refused or could not be reached: a failed operation (exit 1), not bad input,
    // and the way to build without that registry.
    throw DockerfileError(shared_.dockerfile.file, in.line, in.column,
                          printable(message + "; reach the registry (the network, a proxy), use a mirror of it, or "
                                              "build FROM oci:DIR[:TAG], a copy made where it is reachable: gkebuild "
                                              "pull " + ref + " -o oci:DIR (or skopeo copy); gkebuild init --from "
                                              "oci:DIR[:TAG] writes a project on such a copy"),
                          shared_.dockerfile.source, ErrorKind::kFailed);
  }
}

void StageBuilder::from(const Instruction& in) {
  for (const auto& flag : in.flags) {
    std::string platform = word(in, flag.value);
    if (platform != "linux/amd64") {
      fail_at(in, flag.column, "--platform=" + platform + ": gkebuild builds linux/amd64 images only");
    }
  }
  std::string ref = shared_.plan.from_reference(in);
  if (auto stage = shared_.plan.stage_named(ref, shared_.plan.stage_of(index_of(in)))) {
    image_ = shared_.results.at(*stage);
  } else {
    image_ = load_image(in, ref, "base image");
  }
  config_ = image_.config().config;
  if (!env_value(config_.env, "PATH")) config_.env.push_back(std::string("PATH=") + kDefaultPath);
  if (config_.other.contains("Shell")) shell_ = config_.other["Shell"].get<std::vector<std::string>>();
  progress(ref);
  record(in);
}

void StageBuilder::arg(const Instruction& in) {
  for (const auto& w : words(in)) {
    size_t eq = w.find('=');
    std::string name = w.substr(0, eq);
    if (name.empty()) fail(in, "ARG needs a name: ARG NAME[=default]");
    std::optional<std::string> value;
    if (auto given = options_.build_args.find(name); given != options_.build_args.end()) {
      value = given->second;
    } else if (eq != std::string::npos) {
      value = w.substr(eq + 1);
    } else if (auto global = shared_.plan.global_args().find(name); global != shared_.plan.global_args().end()) {
      value = global->second;
    }
    if (value) args_[name] = *value;
  }
  record(in);
}

void StageBuilder::key_values(const Instruction& in, bool env) {
  auto parts = words(in);
  std::vector<std::pair<std::string, std::string>> pairs;
  if (env && !parts.empty() && parts[0].find('=') == std::string::npos) {
    // Legacy "ENV NAME value with spaces".
    std::string rest = in.arguments.substr(std::min(in.arguments.size(), in.arguments.find_first_of(" \t")));
    rest.erase(0, rest.find_first_not_of(" \t"));
    if (rest.empty()) fail(in, "ENV " + parts[0] + " needs a value: ENV NAME=VALUE");
    pairs.emplace_back(parts[0], word(in, rest));
  } else {
    for (const auto& p : parts) {
      size_t eq = p.find('=');
      if (eq == std::string::npos || eq == 0) {
        fail(in, in.name + " expects NAME=VALUE pairs, got '" + p + "'");
      }
      pairs.emplace_back(p.substr(0, eq), p.substr(eq + 1));
    }
  }
  for (const auto& [name, value] : pairs) {
    if (env) {
      set_env(config_.env, name, value);
    } else {
      config_.labels[name] = value;
    }
  }
  record(in);
}

std::pair<uint32_t, uint32_t> StageBuilder::owner(const Instruction& in, const std::string& spec) {
  auto image = files(image_);
  bool names = spec.find_first_not_of("0123456789:") != std::string::npos;
  try {
    // Numbers alone need no passwd, except a lone user's primary group.
    return resolve_owner(spec, image.read("etc/passwd"), names ? image.read("etc/group") : std::nullopt);
  } catch (const InputError& e) {
    fail(in, spec + ": " + e.what());
  } catch (const std::runtime_error& e) {
    fail(in, std::string("cannot read the image's users: ") + e.what());
  }
}

// As buildah: the folder and every missing parent are created at once, owned by the USER.
void StageBuilder::workdir(const Instruction& in) {
  std::string dir = word(in, in.arguments);
  fs::path path = dir.starts_with('/') ? fs::path(dir)
                                       : fs::path(config_.working_dir.empty() ? "/" : config_.working_dir) / dir;
  std::string normal = path.lexically_normal().string();
  while (normal.size() > 1 && normal.ends_with('/')) normal.pop_back();
  config_.working_dir = normal;
  auto image = files(image_);
  CopyLayer layer;
  std::optional<std::pair<uint32_t, uint32_t>> ids;
  std::string built;
  for (const auto& part : fs::path(image.resolve(normal, true)).relative_path()) {
    built += (built.empty() ? "" : "/") + part.string();
    if (image.find(built)) continue;
    if (!ids) ids = config_.user.empty() ? std::pair<uint32_t, uint32_t>{0, 0} : owner(in, config_.user);
    layer.entries.push_back(layer::Entry{built, layer::EntryType::kDirectory, 0755, ids->first, ids->second});
    layer.list_fingerprint += built + ":" + std::to_string(ids->first) + ":" + std::to_string(ids->second) + "\n";
  }
  if (layer.entries.empty()) return record(in);
  layer.stat_fingerprint = layer.list_fingerprint;
  append(in, std::move(layer));
}

// A secret the build has is handed to this RUN; one it lacks is left out, unless required.
void StageBuilder::add_secret_mount(const Instruction& in, const dockerfile::Flag& flag, const std::string& value,
                                    RunRequest& request) const {
  RunRequest::SecretMount mount = parse_secret_mount(value);
  const auto given = options_.secrets.find(mount.id);
  if (given == options_.secrets.end()) {
    if (mount.required)
      fail_at(in, flag.column, "RUN --mount=type=secret,id=" + printable(mount.id) + " is required, and the build has "
                               "no secret '" + printable(mount.id) + "' (gkebuild image --secret id=" +
                               printable(mount.id) + ",src=FILE or env=VAR, or the image's secrets: in gkebuild.yaml)");
    return;
  }
  mount.value = given->second;
  request.secret_mounts.push_back(std::move(mount));
}

void StageBuilder::run_step(const Instruction& in) {
  RunRequest request;
  request.image = image_;
  RunScript script = run_script(in, shell_);
  request.argv = script.argv;
  request.stdin_data = script.stdin_data;
  request.env = config_.env;
  for (const auto& [name, value] : args_)
    if (!env_value(request.env, name)) request.env.push_back(name + "=" + value);
  request.user = config_.user;
  request.working_dir = config_.working_dir.empty() ? "/" : config_.working_dir;
  for (const auto& flag : in.flags) {
    std::string value = word(in, flag.value);
    try {
      if (flag.name == "mount" && mount_type(value) == "secret") add_secret_mount(in, flag, value, request);
      else if (flag.name == "mount") request.cache_mounts.push_back(parse_cache_mount(value));
      if (flag.name == "network") check_network(value);
    } catch (const InputError& e) {
      fail_at(in, flag.column, e.what());
    }
  }
  std::vector<std::string> secret_values;
  for (const auto& m : request.secret_mounts) secret_values.push_back(m.value);
  const SecretMask mask(secret_values);
  request.output = [this, mask](std::string_view line) { progress(mask.apply(line)); };
  // As BuildKit: the parent chain, the command, and the environment it runs with.
  std::string material = "run\n";
  for (const auto& layer : image_.layers()) material += layer.diff_id.str() + "\n";
  material += in.text + "\n";
  for (const auto& h : in.heredocs) material += h.name + "\n" + h.body;
  for (const auto& e : request.env) material += e + "\n";
  material += request.user + "\n" + request.working_dir + "\n";
  for (const auto& m : request.cache_mounts) material += m.target + "\n" + m.id + "\n";
  // The mount, never the value: a changed secret does not rerun the step (as BuildKit).
  for (const auto& m : request.secret_mounts)
    material += "secret " + m.id + "\n" + m.target + "\n" + m.env + "\n" + std::to_string(m.mode) + " " +
                std::to_string(m.uid) + " " + std::to_string(m.gid) + "\n";
  const auto& c = options_.compression;
  material += std::string(layer::name_of(c.kind)) + " " + std::to_string(layer::effective_level(c)) + " " +
              std::to_string(options_.source_date_epoch);
  std::string key = cache_key(material);
  std::optional<layer::BuiltLayer> built = shared_.cache.find_run(key);
  if (built) {
    ++shared_.cached;
    progress("cached " + built->blob.digest.str().substr(0, 19));
  } else {
    RunChanges changes;
    try {
      changes = unlocked([&] { return options_.run(request); });
    } catch (const Error& e) {
      // The step's kind stays (a command that fails is a failed build, exit 1, not bad input);
      // the message gains the Dockerfile's line.
      throw DockerfileError(shared_.dockerfile.file, in.line, in.column,
                            printable_lines(mask.apply(e.what())), shared_.dockerfile.source,
                            e.kind());
    } catch (const std::exception& e) {
      throw DockerfileError(shared_.dockerfile.file, in.line, in.column,
                            "RUN failed: " + printable_lines(mask.apply(e.what())),
                            shared_.dockerfile.source, ErrorKind::kFailed);
    }
    built = unlocked([&] { return layer::write_layer(*store_, changes.entries, {c, options_.source_date_epoch}); });
    remember_listing(built->diff_id, changes.entries);
    shared_.cache.remember_run(key, *built);
    ++shared_.built;
    progress("built " + built->blob.digest.str().substr(0, 19));
  }
  image_ = image::append_layer(image_, image::Layer{built->blob, built->diff_id, store_}, history(in));
}

// Metadata only: where a file's bytes came from (a context file, a RUN's scratch folder) may
// be gone or changed by the time someone reads it, so contents are always read from the blob.
void StageBuilder::remember_listing(const oci::Digest& diff_id, const std::vector<layer::Entry>& entries) {
  auto& map = shared_.listings[diff_id.str()];
  for (const auto& e : entries) {
    layer::Entry listed = e;
    listed.source.clear();
    listed.listed_as.reset();
    map[e.path] = std::move(listed);
  }
}

void StageBuilder::append(const Instruction& in, CopyLayer layer) {
  layer::BuiltLayer built = build_layer(in, layer);
  remember_listing(built.diff_id, layer.entries);
  image_ = image::append_layer(image_, image::Layer{built.blob, built.diff_id, store_}, history(in));
}

layer::BuiltLayer StageBuilder::build_layer(const Instruction& in, const CopyLayer& copy) {
  const auto& c = options_.compression;
  std::string settings = std::string(layer::name_of(c.kind)) + " " +
                         std::to_string(layer::effective_level(c)) + " " +
                         std::to_string(options_.source_date_epoch) + "\n";
  std::string stat_key = cache_key(settings + in.text + "\n" + copy.stat_fingerprint);
  std::string list_key = cache_key(settings + in.text + "\n" + copy.list_fingerprint);
  if (auto hit = shared_.cache.find_by_stat(stat_key)) {
    ++shared_.cached;
    progress("cached " + hit->blob.digest.str().substr(0, 19));
    return *hit;
  }
  if (shared_.cache.list_seen(list_key)) {
    // Same files, new times: hash the contents once before deciding to compress.
    oci::Digest diff_id = unlocked([&] { return layer::diff_id_of(copy.entries, options_.source_date_epoch); });
    if (auto hit = shared_.cache.find_by_content(cache_key(settings + diff_id.str()))) {
      shared_.cache.remember_stat(stat_key, *hit);
      ++shared_.cached;
      progress("cached by content " + hit->blob.digest.str().substr(0, 19));
      return *hit;
    }
  }
  progress("packing " + std::to_string(copy.entries.size()) + " entries");
  layer::BuiltLayer built =
      unlocked([&] { return layer::write_layer(*store_, copy.entries, {c, options_.source_date_epoch}); });
  shared_.cache.remember(stat_key, list_key, cache_key(settings + built.diff_id.str()), built);
  ++shared_.built;
  progress("built " + built.blob.digest.str().substr(0, 19));
  return built;
}

}  // namespace gkebuild::build
