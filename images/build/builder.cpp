#include "build/builder.h"

#include <algorithm>
#include <cctype>

#include "base/atomic_file.h"
#include "base/printable.h"
#include "base/rfc3339.h"
#include "build/copy_sources.h"
#include "build/layer_cache.h"
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

// What Docker and buildah give an image whose base sets no PATH (FROM scratch
// among them), so that a Dockerfile built here runs as it does there.
constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

class Builder {
 public:
  Builder(const BuildOptions& options, std::shared_ptr<oci::Layout> store)
      : options_(options), store_(std::move(store)), cache_(*store_) {
    std::string text;
    try {
      text = read_file(options.dockerfile);
    } catch (const std::exception& e) {
      throw DockerfileError(options.dockerfile.string(), 0, 0, "cannot read the Dockerfile");
    }
    dockerfile_ = dockerfile::parse(text, options.dockerfile.string());
  }

  BuildResult run() {
    size_t total = dockerfile_.instructions.size();
    for (size_t i = 0; i < total; ++i) {
      const Instruction& in = dockerfile_.instructions[i];
      step_ = "[" + std::to_string(i + 1) + "/" + std::to_string(total) + "] " + in.name;
      apply(in);
    }
    finish_config();
    return BuildResult{image_, built_, cached_};
  }

 private:
  [[noreturn]] void fail(const Instruction& in, const std::string& message) const {
    // Messages quote the user's words (ENV pairs, ports, base images, COPY sources), so the
    // whole message is made printable here, once for every instruction.
    throw DockerfileError(dockerfile_.file, in.line, in.column, printable(message), dockerfile_.source);
  }

  void progress(const std::string& message) const {
    if (options_.progress) options_.progress(step_ + " " + message);
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

  void apply(const Instruction& in) {
    switch (in.keyword) {
      case Keyword::kFrom: return from(in);
      case Keyword::kArg: return arg(in);
      case Keyword::kEnv: return key_values(in, true);
      case Keyword::kLabel: return key_values(in, false);
      case Keyword::kWorkdir: return workdir(in);
      case Keyword::kUser: config_.user = word(in, in.arguments); return record(in);
      case Keyword::kStopSignal: config_.stop_signal = word(in, in.arguments); return record(in);
      case Keyword::kCopy: return copy(in);
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
      default:
        fail(in, in.name + " is not built by gkebuild image yet");
    }
  }

  void record(const Instruction& in) {
    image_ = image::append_history(image_, history(in));
  }

  oci::History history(const Instruction& in) const {
    return oci::History{format_rfc3339_seconds(options_.source_date_epoch), in.text, "gkebuild", false};
  }

  void from(const Instruction& in);
  void arg(const Instruction& in);
  void key_values(const Instruction& in, bool env);
  void workdir(const Instruction& in);
  void expose(const Instruction& in);
  void copy(const Instruction& in);
  std::vector<std::string> command(const Instruction& in) const;
  layer::BuiltLayer build_layer(const Instruction& in, const CopyLayer& copy);
  void finish_config();

  const BuildOptions& options_;
  std::shared_ptr<oci::Layout> store_;
  LayerCache cache_;
  dockerfile::Dockerfile dockerfile_;
  image::Image image_;
  oci::ContainerConfig config_;
  std::map<std::string, std::string> args_;
  std::map<std::string, std::string> args_before_from_;
  bool from_seen_ = false;
  bool set_cmd_ = false;
  std::string step_;
  int built_ = 0;
  int cached_ = 0;
};

void Builder::from(const Instruction& in) {
  for (const auto& flag : in.flags) {
    if (word(in, flag.value) != "linux/amd64") {
      fail(in, "--platform=" + flag.value + ": gkebuild builds linux/amd64 images only");
    }
  }
  args_before_from_ = args_;
  args_.clear();
  from_seen_ = true;
  auto parts = words(in);
  bool alias = parts.size() == 3 && (parts[1] == "AS" || parts[1] == "as");
  if (parts.size() != 1 && !alias) fail(in, "FROM takes one image: FROM IMAGE [AS NAME]");
  const std::string& ref = parts[0];
  if (ref == "scratch") {
    image_ = image::Image();
  } else if (ref.starts_with("oci:")) {
    std::string rest = ref.substr(4);
    size_t colon = rest.find(':');  // as skopeo: oci:PATH[:REFERENCE], PATH without ':'
    std::string tag;
    if (colon != std::string::npos) {
      tag = rest.substr(colon + 1);
      rest = rest.substr(0, colon);
    }
    try {
      auto layout = std::make_shared<oci::Layout>(oci::Layout::open(rest));
      image_ = image::load_image(layout, tag);
    } catch (const std::exception& e) {
      fail(in, std::string("cannot use base image ") + ref + ": " + e.what());
    }
  } else if (options_.pull) {
    try {
      image_ = options_.pull(ref);
    } catch (const std::exception& e) {
      fail(in, "cannot pull base image " + ref + ": " + e.what());
    }
  } else {
    fail(in, "base image '" + ref + "': pulling base images from registries needs the registry "
             "client, which this gkebuild cannot call yet; use FROM scratch or FROM oci:DIR[:TAG] "
             "(for example after `skopeo copy docker://" + ref + " oci:DIR:TAG`)");
  }
  config_ = image_.config().config;
  if (!env_value(config_.env, "PATH")) config_.env.push_back(std::string("PATH=") + kDefaultPath);
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
    } else if (auto earlier = args_before_from_.find(name); from_seen_ && earlier != args_before_from_.end()) {
      value = earlier->second;
    }
    if (value) args_[name] = *value;
  }
  if (from_seen_) record(in);
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

void Builder::workdir(const Instruction& in) {
  std::string dir = word(in, in.arguments);
  fs::path path = dir.starts_with('/') ? fs::path(dir)
                                       : fs::path(config_.working_dir.empty() ? "/" : config_.working_dir) / dir;
  std::string normal = path.lexically_normal().string();
  while (normal.size() > 1 && normal.ends_with('/')) normal.pop_back();
  config_.working_dir = normal;
  record(in);
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

std::vector<std::string> Builder::command(const Instruction& in) const {
  if (in.json) return *in.json;
  return {"/bin/sh", "-c", in.arguments};
}

void Builder::copy(const Instruction& in) {
  auto parts = words(in);
  if (parts.size() < 2) fail(in, "COPY needs at least one source and a destination");
  CopyRequest request;
  request.context = options_.context;
  request.sources.assign(parts.begin(), parts.end() - 1);
  std::string dest = parts.back();
  bool trailing = dest.ends_with('/') || dest == "." || dest.ends_with("/.");
  if (!dest.starts_with('/')) {
    dest = (config_.working_dir.empty() ? std::string("/") : config_.working_dir + "/") + dest;
  }
  dest = fs::path(dest).lexically_normal().string();
  if (trailing && !dest.ends_with('/')) dest += '/';
  request.destination = dest;
  try {
    for (const auto& flag : in.flags) {
      std::string value = word(in, flag.value);
      if (flag.name == "chown") std::tie(request.uid, request.gid) = parse_chown(value);
      if (flag.name == "chmod") request.chmod = parse_chmod(value);
    }
    CopyLayer collected = collect_copy(request);
    if (collected.entries.empty()) {
      progress("nothing to copy");
      return record(in);
    }
    layer::BuiltLayer built = build_layer(in, collected);
    image_ = image::append_layer(image_, image::Layer{built.blob, built.diff_id, store_}, history(in));
  } catch (const CopyError& e) {
    fail(in, e.what());
  }
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

void Builder::finish_config() {
  image_ = image::with_container_config(image_, config_);
  image_ = image::with_created(image_, format_rfc3339_seconds(options_.source_date_epoch));
}

}  // namespace

BuildResult build_image(const BuildOptions& options, std::shared_ptr<oci::Layout> store) {
  return Builder(options, std::move(store)).run();
}

}  // namespace gkebuild::build
