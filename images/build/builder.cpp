#include "build/builder.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <set>
#include <sstream>

#include "base/atomic_file.h"
#include "base/printable.h"
#include "base/rfc3339.h"
#include "build/copy_sources.h"
#include "build/dockerignore.h"
#include "build/image_files.h"
#include "build/image_users.h"
#include "build/layer_cache.h"
#include "build/remote_source.h"
#include "base/http_client.h"
#include "build/run_command.h"
#include "dockerfile/dockerfile.h"
#include "dockerfile/dockerfile_error.h"
#include "dockerfile/words.h"
#include "image/layout_source.h"
#include "layer/layer_writer.h"

namespace gkebuild::build {
namespace fs = std::filesystem;
using dockerfile::DockerfileError;
using dockerfile::Instruction;
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

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_index(const std::string& s) {
  return !s.empty() && s.size() < 6 && s.find_first_not_of("0123456789") == std::string::npos;
}

// What Docker and buildah give an image whose base sets no PATH (FROM scratch
// among them), so that a Dockerfile built here runs as it does there.
constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// A stage: its FROM and the instructions up to the next FROM.
struct Stage {
  size_t begin = 0, end = 0;  // instruction indices
  std::string name;           // lower-cased AS name; empty when none
};

// Removes the build's scratch folder (extracted archives and stage files) however it ends.
struct ScratchDir {
  fs::path path;
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

fs::path scratch_path(const oci::Layout& store) {
  static std::atomic<int> counter{0};
  return store.scratch_dir() / ("build-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
}

class Builder {
 public:
  Builder(const BuildOptions& options, std::shared_ptr<oci::Layout> store)
      : options_(options), store_(std::move(store)), cache_(*store_), scratch_{scratch_path(*store_)} {
    std::string text;
    try {
      text = read_file(options.dockerfile);
    } catch (const std::exception& e) {
      throw DockerfileError(options.dockerfile.string(), 0, 0, "cannot read the Dockerfile");
    }
    dockerfile_ = dockerfile::parse(text, options.dockerfile.string());
    ignore_ = Dockerignore::load(options.context);
  }

  BuildResult run() {
    split_stages();
    read_global_args();
    size_t target = target_stage();
    std::set<size_t> needed;
    need(target, needed);
    refuse_run_without_runtime(needed);
    for (size_t s : needed) {
      build_stage(s);
      results_[s] = finished_image();
    }
    return BuildResult{results_.at(target), built_, cached_};
  }

 private:
  [[noreturn]] void fail(const Instruction& in, const std::string& message) const { fail_at(in, in.column, message); }
  [[noreturn]] void fail_at(const Instruction& in, int column, const std::string& message) const {
    // Messages quote the user's words (ENV pairs, ports, base images, COPY sources), so the
    // whole message is made printable here, once for every instruction.
    throw DockerfileError(dockerfile_.file, in.line, column, printable(message), dockerfile_.source);
  }

  void progress(const std::string& message) const {
    if (options_.progress) options_.progress(step_ + " " + message);
  }
  void warn(const std::string& message) const {
    if (options_.warning) options_.warning(message);
  }

  std::optional<std::string> lookup(std::string_view name) const {
    if (auto v = env_value(config_.env, name)) return v;
    auto it = args_.find(std::string(name));
    if (it != args_.end()) return it->second;
    return std::nullopt;
  }

  dockerfile::Lookup lookup_fn() const {
    return [this](std::string_view name) { return lookup(name); };
  }

  std::vector<std::string> words(const Instruction& in) const {
    try {
      if (in.json) {
        std::vector<std::string> out;
        for (const auto& w : *in.json) out.push_back(dockerfile::expand_word(w, lookup_fn(), dockerfile_.escape));
        return out;
      }
      return dockerfile::split_words(in.arguments, lookup_fn(), dockerfile_.escape);
    } catch (const std::invalid_argument& e) {
      fail(in, e.what());
    }
  }

  std::string word(const Instruction& in, const std::string& text) const {
    try {
      return dockerfile::expand_word(text, lookup_fn(), dockerfile_.escape);
    } catch (const std::invalid_argument& e) {
      fail(in, e.what());
    }
  }

  void split_stages();
  void read_global_args();
  size_t target_stage() const;
  std::optional<size_t> stage_named(const std::string& name, size_t before) const;
  std::string from_reference(const Instruction& in) const;
  std::optional<std::string> copy_from(const Instruction& in) const;
  void need(size_t stage, std::set<size_t>& needed) const;
  void refuse_run_without_runtime(const std::set<size_t>& needed) const;
  void build_stage(size_t stage);
  image::Image finished_image() const;

  void apply(const Instruction& in) {
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

  void record(const Instruction& in) {
    image_ = image::append_history(image_, history(in));
  }

  oci::History history(const Instruction& in) const {
    return oci::History{format_rfc3339_seconds(options_.source_date_epoch), in.text, "gkebuild", false};
  }

  image::Image load_image(const Instruction& in, const std::string& ref, const char* what);
  void from(const Instruction& in);
  void arg(const Instruction& in);
  void key_values(const Instruction& in, bool env);
  void workdir(const Instruction& in);
  void expose(const Instruction& in);
  void shell(const Instruction& in);
  void healthcheck(const Instruction& in);
  void onbuild(const Instruction& in);
  void docker_only(const Instruction& in, const std::string& key, nlohmann::json value);
  void copy(const Instruction& in, bool add);
  void add_heredocs(const Instruction& in, const std::string& dest, CopyLayer& layer);
  void add_remote(const Instruction& in, CopyRequest& request, CopyLayer& layer);
  void add_folders(const CopyRequest& request, const fs::path& folder, CopyLayer& layer);
  void add_archives(const Instruction& in, std::vector<std::string>& sources, const std::string& dest,
                    const CopyRequest& request, CopyLayer& layer);
  CopyRequest copy_request(const Instruction& in, bool add, std::vector<std::string> parts);
  void run_step(const Instruction& in);
  std::pair<uint32_t, uint32_t> owner(const Instruction& in, const std::string& spec);
  std::vector<std::string> command(const Instruction& in) const;
  void append(const Instruction& in, CopyLayer layer);
  layer::BuiltLayer build_layer(const Instruction& in, const CopyLayer& copy);
  ImageFiles files(const image::Image& image) {
    return ImageFiles(image, scratch_.path / "files", listings_, store_->cache_dir() / "listing");
  }
  void remember_listing(const oci::Digest& diff_id, const std::vector<layer::Entry>& entries);

  const BuildOptions& options_;
  std::shared_ptr<oci::Layout> store_;
  LayerCache cache_;
  ScratchDir scratch_;
  int scratch_count_ = 0;
  dockerfile::Dockerfile dockerfile_;
  Dockerignore ignore_;
  std::vector<Stage> stages_;
  std::map<size_t, image::Image> results_;
  LayerListings listings_;
  std::map<std::string, std::string> global_args_;  // ARGs before the first FROM
  // Per stage:
  image::Image image_;
  oci::ContainerConfig config_;
  std::map<std::string, std::string> args_;
  std::vector<std::string> shell_{"/bin/sh", "-c"};
  std::string author_;
  bool set_cmd_ = false;
  std::string step_;
  int built_ = 0;
  int cached_ = 0;
};

void Builder::split_stages() {
  const auto& ins = dockerfile_.instructions;
  for (size_t i = 0; i < ins.size(); ++i) {
    if (ins[i].keyword != Keyword::kFrom) continue;
    if (!stages_.empty()) stages_.back().end = i;
    Stage stage{i, ins.size(), ""};
    std::vector<std::string> parts;
    try {
      parts = dockerfile::split_words(ins[i].arguments, [](std::string_view) { return std::nullopt; }, dockerfile_.escape);
    } catch (const std::invalid_argument& e) {
      fail(ins[i], e.what());
    }
    bool alias = parts.size() == 3 && lower(parts[1]) == "as";
    if (parts.size() != 1 && !alias) fail(ins[i], "FROM takes one image: FROM IMAGE [AS NAME]");
    if (alias) {
      stage.name = lower(parts[2]);
      if (stage_named(stage.name, stages_.size())) fail(ins[i], "a second stage named '" + parts[2] + "'");
    }
    stages_.push_back(stage);
  }
}

// ARGs before the first FROM: build arguments for the FROM lines, and defaults that a stage's
// own `ARG NAME` (without a value) brings into scope.
void Builder::read_global_args() {
  for (const auto& in : dockerfile_.instructions) {
    if (in.keyword == Keyword::kFrom) break;
    arg(in);
  }
  global_args_ = args_;
  args_.clear();
}

std::optional<size_t> Builder::stage_named(const std::string& name, size_t before) const {
  for (size_t s = 0; s < before && s < stages_.size(); ++s)
    if (!stages_[s].name.empty() && stages_[s].name == lower(name)) return s;
  return std::nullopt;
}

size_t Builder::target_stage() const {
  if (options_.target.empty()) return stages_.size() - 1;
  if (auto s = stage_named(options_.target, stages_.size())) return *s;
  std::string names;
  for (const auto& s : stages_)
    if (!s.name.empty()) names += (names.empty() ? "" : ", ") + s.name;
  throw DockerfileError(dockerfile_.file, 0, 0,
                        "--target " + printable(options_.target) + ": no stage of that name (the stages are: " +
                            (names.empty() ? "none named" : names) + ")");
}

// FROM's image, expanded with the ARGs before the first FROM only, as BuildKit does.
std::string Builder::from_reference(const Instruction& in) const {
  auto global = [this](std::string_view name) -> std::optional<std::string> {
    auto it = global_args_.find(std::string(name));
    return it == global_args_.end() ? std::nullopt : std::optional(it->second);
  };
  try {
    return dockerfile::split_words(in.arguments, global, dockerfile_.escape).at(0);
  } catch (const std::invalid_argument& e) {
    fail(in, e.what());
  }
}

std::optional<std::string> Builder::copy_from(const Instruction& in) const {
  const auto* flag = in.flag("from");
  if (flag == nullptr) return std::nullopt;
  auto global = [this](std::string_view name) -> std::optional<std::string> {
    auto it = global_args_.find(std::string(name));
    return it == global_args_.end() ? std::nullopt : std::optional(it->second);
  };
  try {
    return dockerfile::expand_word(flag->value, global, dockerfile_.escape);
  } catch (const std::invalid_argument& e) {
    fail_at(in, flag->column, e.what());
  }
}

// The stages `stage` needs: the one it is FROM, and those its COPY --from names.
void Builder::need(size_t stage, std::set<size_t>& needed) const {
  if (!needed.insert(stage).second) return;
  const auto& ins = dockerfile_.instructions;
  if (auto s = stage_named(from_reference(ins[stages_[stage].begin]), stage)) need(*s, needed);
  for (size_t i = stages_[stage].begin + 1; i < stages_[stage].end; ++i) {
    auto from = copy_from(ins[i]);
    if (!from) continue;
    const auto* flag = ins[i].flag("from");
    if (auto s = stage_named(*from, stage)) {
      need(*s, needed);
    } else if (is_index(*from)) {
      size_t index = std::stoul(*from);
      if (index >= stage) fail_at(ins[i], flag->column, "COPY --from=" + *from + ": no earlier stage has that index");
      need(index, needed);
    } else if (stage_named(*from, stages_.size())) {
      fail_at(ins[i], flag->column, "COPY --from=" + *from + ": that stage comes later in the Dockerfile");
    }
  }
}

void Builder::refuse_run_without_runtime(const std::set<size_t>& needed) const {
  if (options_.run) return;
  for (size_t s : needed) {
    for (size_t i = stages_[s].begin; i < stages_[s].end; ++i) {
      const auto& in = dockerfile_.instructions[i];
      if (in.keyword != Keyword::kRun) continue;
      throw DockerfileError(dockerfile_.file, in.line, 1,
                            "RUN needs a container runtime: this gkebuild has no step that runs containers "
                            "(runc as root); build this Dockerfile with `buildah bud`, or produce the files "
                            "beforehand and COPY them",
                            dockerfile_.source);
    }
  }
}

void Builder::build_stage(size_t stage) {
  image_ = image::Image();
  config_ = {};
  args_.clear();
  shell_ = {"/bin/sh", "-c"};
  author_.clear();
  set_cmd_ = false;
  const Stage& s = stages_[stage];
  size_t total = dockerfile_.instructions.size();
  for (size_t i = s.begin; i < s.end; ++i) {
    const Instruction& in = dockerfile_.instructions[i];
    step_ = "[" + std::to_string(i + 1) + "/" + std::to_string(total) + "] " + in.name;
    apply(in);
  }
}

image::Image Builder::finished_image() const {
  image::Image out = image::with_container_config(image_, config_);
  out = image::with_created(out, format_rfc3339_seconds(options_.source_date_epoch));
  if (author_.empty()) return out;
  oci::ImageConfig config = out.config();
  config.other["author"] = author_;
  return image::Image(config, out.layers());
}

image::Image Builder::load_image(const Instruction& in, const std::string& ref, const char* what) {
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
    fail(in, std::string("cannot pull ") + what + " " + ref + ": " + e.what());
  }
}

void Builder::from(const Instruction& in) {
  for (const auto& flag : in.flags) {
    std::string platform = word(in, flag.value);
    if (platform != "linux/amd64") {
      fail_at(in, flag.column, "--platform=" + platform + ": gkebuild builds linux/amd64 images only");
    }
  }
  std::string ref = from_reference(in);
  size_t here = static_cast<size_t>(&in - dockerfile_.instructions.data());
  size_t index = 0;
  while (index + 1 < stages_.size() && stages_[index + 1].begin <= here) ++index;
  if (auto stage = stage_named(ref, index)) {
    image_ = results_.at(*stage);
  } else {
    image_ = load_image(in, ref, "base image");
  }
  config_ = image_.config().config;
  if (!env_value(config_.env, "PATH")) config_.env.push_back(std::string("PATH=") + kDefaultPath);
  if (config_.other.contains("Shell")) shell_ = config_.other["Shell"].get<std::vector<std::string>>();
  progress(ref);
  record(in);
}

void Builder::arg(const Instruction& in) {
  for (const auto& w : words(in)) {
    size_t eq = w.find('=');
    std::string name = w.substr(0, eq);
    if (name.empty()) fail(in, "ARG needs a name: ARG NAME[=default]");
    std::optional<std::string> value;
    if (auto given = options_.build_args.find(name); given != options_.build_args.end()) {
      value = given->second;
    } else if (eq != std::string::npos) {
      value = w.substr(eq + 1);
    } else if (auto global = global_args_.find(name); global != global_args_.end()) {
      value = global->second;
    }
    if (value) args_[name] = *value;
  }
  if (!stages_.empty() && in.line > dockerfile_.instructions[stages_.front().begin].line) record(in);
}

void Builder::key_values(const Instruction& in, bool env) {
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

std::pair<uint32_t, uint32_t> Builder::owner(const Instruction& in, const std::string& spec) {
  auto image = files(image_);
  bool names = spec.find_first_not_of("0123456789:") != std::string::npos;
  try {
    // Numbers alone need no passwd, except a lone user's primary group.
    return resolve_owner(spec, image.read("etc/passwd"), names ? image.read("etc/group") : std::nullopt);
  } catch (const std::invalid_argument& e) {
    fail(in, spec + ": " + e.what());
  } catch (const std::runtime_error& e) {
    fail(in, std::string("cannot read the image's users: ") + e.what());
  }
}

// As buildah: the folder and every missing parent are created at once, owned by the USER.
void Builder::workdir(const Instruction& in) {
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
  for (const auto& part : fs::path(normal).relative_path()) {
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

void Builder::expose(const Instruction& in) {
  for (auto port : words(in)) {
    if (port.find('/') == std::string::npos) port += "/tcp";
    std::string number = port.substr(0, port.find('/'));
    std::string proto = port.substr(port.find('/') + 1);
    bool digits = !number.empty() && std::all_of(number.begin(), number.end(), ::isdigit);
    if (!digits || (proto != "tcp" && proto != "udp" && proto != "sctp")) {
      fail(in, "EXPOSE expects PORT[/tcp|udp|sctp], got '" + port + "'");
    }
    config_.exposed_ports.insert(port);
  }
  record(in);
}

void Builder::docker_only(const Instruction& in, const std::string& key, nlohmann::json value) {
  if (options_.docker_format) {
    config_.other[key] = std::move(value);
  } else {
    config_.other.erase(key);
    warn(dockerfile_.file + ":" + std::to_string(in.line) + ": " + in.name +
         " is not part of the OCI image format and is left out of the image; build with --format docker "
         "to keep it");
  }
  record(in);
}

void Builder::shell(const Instruction& in) {
  if (!in.json || in.json->empty()) fail(in, "SHELL takes a JSON array: SHELL [\"/bin/bash\", \"-c\"]");
  shell_ = *in.json;
  docker_only(in, "Shell", shell_);
}

void Builder::healthcheck(const Instruction& in) {
  auto parts = words(in);
  nlohmann::json check = nlohmann::json::object();
  std::string kind = parts.empty() ? "" : parts[0];
  std::transform(kind.begin(), kind.end(), kind.begin(), ::toupper);
  if (kind == "NONE") {
    check["Test"] = {"NONE"};
  } else if (kind == "CMD") {
    std::string rest = in.arguments.substr(3);
    rest.erase(0, rest.find_first_not_of(" \t"));
    auto exec = dockerfile::parse("FROM scratch\nCMD " + rest, "").instructions[1].json;
    if (exec) {
      check["Test"] = nlohmann::json::array({"CMD"});
      for (const auto& a : *exec) check["Test"].push_back(a);
    } else {
      check["Test"] = {"CMD-SHELL", rest};
    }
  } else {
    fail(in, "HEALTHCHECK takes CMD COMMAND or NONE");
  }
  for (const auto& flag : in.flags) {
    static const std::map<std::string, std::string> keys{
        {"interval", "Interval"}, {"timeout", "Timeout"}, {"start-period", "StartPeriod"},
        {"start-interval", "StartInterval"}, {"retries", "Retries"}};
    try {
      if (flag.name == "retries") {
        check["Retries"] = std::stoi(flag.value);
      } else {
        check[keys.at(flag.name)] = parse_duration(flag.value);
      }
    } catch (const std::exception&) {
      fail_at(in, flag.column, "--" + flag.name + "=" + flag.value + ": expected " +
                                   (flag.name == "retries" ? "a number" : "a duration such as 30s or 1m30s"));
    }
  }
  docker_only(in, "Healthcheck", check);
}

void Builder::onbuild(const Instruction& in) {
  auto triggers = config_.other.value("OnBuild", nlohmann::json::array());
  triggers.push_back(in.arguments);
  docker_only(in, "OnBuild", triggers);
}

std::vector<std::string> Builder::command(const Instruction& in) const {
  if (in.json) return *in.json;
  std::vector<std::string> argv = shell_;
  argv.push_back(in.arguments);
  return argv;
}

CopyRequest Builder::copy_request(const Instruction& in, bool add, std::vector<std::string> parts) {
  CopyRequest request;
  request.context = options_.context;
  request.ignore = &ignore_;
  request.sources.assign(parts.begin(), parts.end() - 1);
  std::string dest = parts.back();
  bool trailing = dest.ends_with('/') || dest == "." || dest.ends_with("/.");
  if (!dest.starts_with('/')) {
    dest = (config_.working_dir.empty() ? std::string("/") : config_.working_dir + "/") + dest;
  }
  dest = fs::path(dest).lexically_normal().string();
  if (trailing && !dest.ends_with('/')) dest += '/';
  request.destination = dest;
  for (const auto& flag : in.flags) {
    std::string value = word(in, flag.value);
    if (flag.name == "chown") std::tie(request.uid, request.gid) = owner(in, value);
    if (flag.name == "chmod") {
      try {
        request.chmod = parse_chmod(value);
      } catch (const CopyError& e) {
        fail_at(in, flag.column, e.what());
      }
    }
    if (flag.name == "link" && flag.has_value && value != "true" && value != "false") {
      fail_at(in, flag.column, "--link takes true or false, not '" + value + "'");
    }
    if (flag.name == "checksum" && add &&
        std::none_of(request.sources.begin(), request.sources.end(), is_remote_source)) {
      fail_at(in, flag.column, "ADD --checksum is only for sources given by URL");
    }
  }
  auto image = std::make_shared<ImageFiles>(files(image_));
  request.existing = [image](const std::string& path) { return image->find(path); };
  return request;
}

void Builder::copy(const Instruction& in, bool add) {
  auto parts = words(in);
  if (parts.size() < (in.heredocs.empty() ? 2u : 1u)) {
    fail(in, in.name + " needs at least one source and a destination");
  }
  CopyRequest request = copy_request(in, add, parts);
  // Heredoc markers are sources that are not files of the context.
  std::erase_if(request.sources, [&](const std::string& s) {
    return std::any_of(in.heredocs.begin(), in.heredocs.end(), [&](const auto& h) {
      auto marker = dockerfile::heredoc_marker(s);
      return marker && marker->name == h.name;
    });
  });
  try {
    CopyLayer collected;
    auto from = copy_from(in);
    if (from) {
      if (add) fail(in, "ADD does not take --from");
      size_t here = static_cast<size_t>(&in - dockerfile_.instructions.data());
      size_t current = 0;
      while (current + 1 < stages_.size() && stages_[current + 1].begin <= here) ++current;
      image::Image source;
      if (auto s = stage_named(*from, current)) {
        source = results_.at(*s);
      } else if (is_index(*from)) {
        source = results_.at(std::stoul(*from));
      } else {
        source = load_image(in, *from, "COPY --from image");
      }
      // The source image's files, extracted with their modes and owners, are the context.
      auto tree = std::make_shared<std::map<std::string, layer::Entry>>(files(source).all());
      fs::path root = scratch_.path / ("from-" + std::to_string(scratch_count_++));
      fs::create_directories(root);
      for (const auto& [path, e] : *tree) {
        if (e.type == layer::EntryType::kDirectory) fs::create_directories(root / path);
        if (e.type == layer::EntryType::kSymlink) fs::create_symlink(e.link_target, root / path);
        if (e.type == layer::EntryType::kFile && !e.source.empty()) fs::create_hard_link(e.source, root / path);
      }
      request.context = root;
      request.ignore = nullptr;  // .dockerignore is about the build context only
      for (auto& s : request.sources) s.erase(0, s.find_first_not_of('/'));
      for (auto& s : request.sources) if (s.empty()) s = ".";
      request.source_metadata = [tree](const std::string& path) -> std::optional<layer::Entry> {
        auto it = tree->find(path);
        return it == tree->end() ? std::nullopt : std::optional(it->second);
      };
    }
    if (add) add_remote(in, request, collected);
    if (add) add_archives(in, request.sources, request.destination, request, collected);
    if (!request.sources.empty()) {
      CopyLayer files = collect_copy(request);
      for (auto& e : files.entries) collected.entries.push_back(std::move(e));
      collected.list_fingerprint += files.list_fingerprint;
      collected.stat_fingerprint += files.stat_fingerprint;
    }
    add_heredocs(in, request.destination, collected);
    if (collected.entries.empty()) {
      progress("nothing to copy");
      return record(in);
    }
    append(in, std::move(collected));
  } catch (const CopyError& e) {
    fail(in, e.what());
  }
}

// COPY <<EOF /dest: each heredoc becomes a file named after its delimiter (in a folder
// destination) or the destination itself; unquoted delimiters expand variables.
void Builder::add_heredocs(const Instruction& in, const std::string& dest, CopyLayer& layer) {
  if (in.heredocs.empty()) return;
  bool into_folder = dest.ends_with('/');
  if (in.heredocs.size() > 1 && !into_folder) {
    fail(in, in.name + " with more than one source needs a destination ending in '/' (got '" + dest + "')");
  }
  fs::path folder = scratch_.path / ("heredoc-" + std::to_string(scratch_count_++));
  fs::create_directories(folder);
  for (size_t i = 0; i < in.heredocs.size(); ++i) {
    const auto& h = in.heredocs[i];
    std::string text = dockerfile::heredoc_text(h);
    if (h.expand) text = word(in, text);
    fs::path source = folder / std::to_string(i);
    write_file_atomically(source, text);
    std::string path = fs::path(into_folder ? dest + h.name : dest).relative_path().lexically_normal().string();
    layer::Entry e{path, layer::EntryType::kFile, 0644};
    e.size = static_cast<int64_t>(text.size());
    e.source = source;
    layer.entries.push_back(e);
    layer.list_fingerprint += path + "\n" + text + "\n";
    layer.stat_fingerprint += path + "\n" + text + "\n";
  }
}

// `folder` and the folders above it, where the layer does not hold them yet: those the image
// has keep their mode and owner, new ones are 0755 and owned as the copied files are.
void Builder::add_folders(const CopyRequest& request, const fs::path& folder, CopyLayer& layer) {
  for (fs::path p = folder; !p.empty() && p != "."; p = p.parent_path()) {
    bool held = std::any_of(layer.entries.begin(), layer.entries.end(),
                            [&](const layer::Entry& e) { return e.path == p.string(); });
    if (held) continue;
    auto there = request.existing ? request.existing(p.string()) : std::nullopt;
    if (there && there->type != layer::EntryType::kDirectory) continue;  // a symlink to a folder stays one
    layer::Entry dir{p.string(), layer::EntryType::kDirectory, 0755, request.uid.value_or(0), request.gid.value_or(0)};
    if (there) dir.mode = there->mode, dir.uid = there->uid, dir.gid = there->gid;
    layer.entries.push_back(dir);
  }
}

// ADD URL: only with --checksum, which makes the download reproducible; the file is not
// unpacked and gets mode 0600, as BuildKit does.
void Builder::add_remote(const Instruction& in, CopyRequest& request, CopyLayer& layer) {
  const auto* checksum = in.flag("checksum");
  for (const auto& source : request.sources) {
    if (!is_remote_source(source)) continue;
    if (checksum == nullptr) {
      fail(in, "ADD " + source + ": gkebuild downloads a URL only with --checksum=sha256:… (so that the build "
               "does not depend on what the server answers today); add it, or fetch the file beforehand and COPY it");
    }
    if (request.sources.size() > 1) fail(in, "ADD --checksum takes a single source");
    fs::path file = fetch_verified(source, word(in, checksum->value), store_->cache_dir() / "remote");
    std::string name = fs::path(without_query(source)).filename().string();
    std::string dest = request.destination.ends_with('/') ? request.destination + name : request.destination;
    std::string path = fs::path(dest).relative_path().lexically_normal().string();
    layer::Entry e{path, layer::EntryType::kFile, 0600, request.uid.value_or(0), request.gid.value_or(0)};
    if (request.chmod) e.mode = *request.chmod;
    e.size = static_cast<int64_t>(fs::file_size(file));
    e.source = file;
    layer.entries.push_back(e);
    add_folders(request, fs::path(path).parent_path(), layer);
    layer.list_fingerprint += "remote " + source + " " + checksum->value + "\n";
    layer.stat_fingerprint += "remote " + source + " " + checksum->value + "\n";
    request.sources.clear();
  }
}

// ADD of a local tar (any compression): its entries are unpacked at the destination with the
// archive's modes and owners, as BuildKit does; other sources are copied as COPY copies them.
void Builder::add_archives(const Instruction& in, std::vector<std::string>& sources, const std::string& dest,
                           const CopyRequest& request, CopyLayer& layer) {
  std::vector<std::string> kept;
  for (const auto& source : sources) {
    CopyRequest probe = request;
    probe.sources = {source};
    probe.destination = "/probe";
    CopyLayer found = collect_copy(probe);  // the checks COPY makes: confinement, .dockerignore
    if (found.entries.size() != 1 || found.entries[0].type != layer::EntryType::kFile) {
      kept.push_back(source);
      continue;
    }
    fs::path folder = scratch_.path / ("add-" + std::to_string(scratch_count_++));
    std::vector<layer::Entry> entries;
    bool archive = false;
    try {
      archive = read_tar(found.entries[0].source, folder, [](const std::string&) { return true; }, entries);
    } catch (const std::runtime_error& e) {
      fail(in, "ADD " + source + ": " + e.what());
    }
    if (!archive) {
      kept.push_back(source);
      continue;
    }
    std::string base = fs::path(dest).relative_path().lexically_normal().string();
    if (base == ".") base.clear();
    for (auto& e : entries) {
      e.path = base.empty() ? e.path : base + "/" + e.path;
      if (request.uid) e.uid = *request.uid, e.gid = *request.gid;
      layer.entries.push_back(e);
    }
    add_folders(request, base, layer);
    layer.list_fingerprint += "archive " + source + " " + found.list_fingerprint;
    layer.stat_fingerprint += "archive " + source + " " + found.stat_fingerprint;
  }
  sources = kept;
}

void Builder::run_step(const Instruction& in) {
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
      if (flag.name == "mount") request.cache_mounts.push_back(parse_cache_mount(value));
      if (flag.name == "network") check_network(value);
    } catch (const std::invalid_argument& e) {
      fail_at(in, flag.column, e.what());
    }
  }
  request.output = [this](std::string_view line) { progress(std::string(line)); };
  // As BuildKit: the parent chain, the command, and the environment it runs with.
  std::string material = "run\n";
  for (const auto& layer : image_.layers()) material += layer.diff_id.str() + "\n";
  material += in.text + "\n";
  for (const auto& h : in.heredocs) material += h.name + "\n" + h.body;
  for (const auto& e : request.env) material += e + "\n";
  material += request.user + "\n" + request.working_dir + "\n";
  for (const auto& m : request.cache_mounts) material += m.target + "\n" + m.id + "\n";
  const auto& c = options_.compression;
  material += std::string(layer::name_of(c.kind)) + " " + std::to_string(layer::effective_level(c)) + " " +
              std::to_string(options_.source_date_epoch);
  std::string key = cache_key(material);
  std::optional<layer::BuiltLayer> built = cache_.find_run(key);
  if (built) {
    ++cached_;
    progress("cached " + built->blob.digest.str().substr(0, 19));
  } else {
    RunChanges changes;
    try {
      changes = options_.run(request);
    } catch (const std::exception& e) {
      fail(in, std::string("RUN failed: ") + e.what());
    }
    built = layer::write_layer(*store_, changes.entries, {c, options_.source_date_epoch});
    remember_listing(built->diff_id, changes.entries);
    cache_.remember_run(key, *built);
    ++built_;
    progress("built " + built->blob.digest.str().substr(0, 19));
  }
  image_ = image::append_layer(image_, image::Layer{built->blob, built->diff_id, store_}, history(in));
}

void Builder::remember_listing(const oci::Digest& diff_id, const std::vector<layer::Entry>& entries) {
  auto& map = listings_[diff_id.str()];
  for (const auto& e : entries) map[e.path] = e;
}

void Builder::append(const Instruction& in, CopyLayer layer) {
  layer::BuiltLayer built = build_layer(in, layer);
  remember_listing(built.diff_id, layer.entries);
  image_ = image::append_layer(image_, image::Layer{built.blob, built.diff_id, store_}, history(in));
}

layer::BuiltLayer Builder::build_layer(const Instruction& in, const CopyLayer& copy) {
  const auto& c = options_.compression;
  std::string settings = std::string(layer::name_of(c.kind)) + " " +
                         std::to_string(layer::effective_level(c)) + " " +
                         std::to_string(options_.source_date_epoch) + "\n";
  std::string stat_key = cache_key(settings + in.text + "\n" + copy.stat_fingerprint);
  std::string list_key = cache_key(settings + in.text + "\n" + copy.list_fingerprint);
  if (auto hit = cache_.find_by_stat(stat_key)) {
    ++cached_;
    progress("cached " + hit->blob.digest.str().substr(0, 19));
    return *hit;
  }
  if (cache_.list_seen(list_key)) {
    // Same files, new times: hash the contents once before deciding to compress.
    oci::Digest diff_id = layer::diff_id_of(copy.entries, options_.source_date_epoch);
    if (auto hit = cache_.find_by_content(cache_key(settings + diff_id.str()))) {
      cache_.remember_stat(stat_key, *hit);
      ++cached_;
      progress("cached by content " + hit->blob.digest.str().substr(0, 19));
      return *hit;
    }
  }
  progress("packing " + std::to_string(copy.entries.size()) + " entries");
  layer::BuiltLayer built =
      layer::write_layer(*store_, copy.entries, {c, options_.source_date_epoch});
  cache_.remember(stat_key, list_key, cache_key(settings + built.diff_id.str()), built);
  ++built_;
  progress("built " + built.blob.digest.str().substr(0, 19));
  return built;
}

}  // namespace

BuildResult build_image(const BuildOptions& options, std::shared_ptr<oci::Layout> store) {
  return Builder(options, std::move(store)).run();
}

}  // namespace gkebuild::build
