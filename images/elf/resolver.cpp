#include "images/elf/resolver.h"

#include <elf.h>

#include <deque>
#include <optional>
#include <set>

#include "images/elf/ld_cache.h"

namespace gkebuild::elf {
namespace fs = std::filesystem;

namespace {

// Replaces $ORIGIN / ${ORIGIN} (the needing object's folder), $LIB and $PLATFORM.
std::string expand_tokens(std::string dir, const fs::path& origin) {
  auto replace = [&](const std::string& token, const std::string& value) {
    for (size_t at = dir.find(token); at != std::string::npos; at = dir.find(token, at + value.size())) {
      dir.replace(at, token.size(), value);
    }
  };
  replace("${ORIGIN}", origin.string());
  replace("$ORIGIN", origin.string());
  replace("${LIB}", "lib64");
  replace("$LIB", "lib64");
  replace("${PLATFORM}", "x86_64");
  replace("$PLATFORM", "x86_64");
  return dir;
}

struct Pending {
  std::string name;
  fs::path needed_by;
  std::vector<std::string> inherited_rpath;  // RPATHs of it and its loaders, expanded
  std::vector<std::string> runpath;          // DT_RUNPATH of the needing object, expanded
  bool optional = false;                     // skipped, not an error, when not found
};

// What the NVIDIA driver's libcuda.so.1 names in DT_NEEDED besides libc and the loader (read
// from driver 580.159.04's on an H100 machine).
constexpr const char* kCudaDriverNeeds[] = {"libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1"};

class Resolver {
 public:
  explicit Resolver(const ResolveOptions& options)
      : options_(options), cache_(read_ld_cache(options.ld_cache)) {}

  Dependencies run(const fs::path& binary) {
    ElfInfo info = read_elf(binary);
    machine_ = info.machine;
    Dependencies out;
    out.interpreter = info.interpreter;
    note_device_code(binary);
    enqueue(info, fs::absolute(binary).lexically_normal(), {});
    drain(out);
    if (uses_cuda_driver_ && !out.interpreter.empty()) {
      // libcuda comes from the node, but it is loaded by the image's glibc and needs these of
      // it, which a program linked against glibc 2.34 or later does not itself name (a scratch
      // image without them fails with "CUDA driver version is insufficient"). Not there on a
      // libc without them (musl): skipped, as the driver cannot be loaded by that libc anyway.
      for (const char* name : kCudaDriverNeeds) {
        queue_.push_back(Pending{name, "libcuda.so.1 (the node's driver)", {}, {}, true});
      }
      drain(out);
    }
    return out;
  }

 private:
  void drain(Dependencies& out) {
    while (!queue_.empty()) {
      Pending next = std::move(queue_.front());
      queue_.pop_front();
      if (seen_.contains(next.name)) continue;
      if (is_node_provided(next.name)) {
        seen_.insert(next.name);
        uses_cuda_driver_ = true;
        out.node_provided.push_back(next.name);
        continue;
      }
      auto found = find(next);
      if (!found) {
        if (next.optional) continue;
        throw ElfError("cannot find " + next.name + ", needed by " + next.needed_by.string() +
                       " (searched its RPATH/RUNPATH, /etc/ld.so.cache and the default folders)");
      }
      seen_.insert(next.name);
      if (next.name.starts_with("libcudart.so")) uses_cuda_driver_ = true;
      note_device_code(*found);
      out.libraries.push_back({next.name, *found, next.needed_by.string()});
      enqueue(read_elf(*found), *found, next.inherited_rpath);
    }
  }

  // Device code (a CUDA fat binary) means the CUDA runtime, linked statically or not, will
  // load the driver's libcuda.so.1 at run time.
  void note_device_code(const fs::path& object) {
    if (!uses_cuda_driver_ && find_section(object, ".nv_fatbin")) uses_cuda_driver_ = true;
  }

  void enqueue(const ElfInfo& info, const fs::path& object, std::vector<std::string> rpath) {
    fs::path origin = object.parent_path();
    // DT_RPATH is used only by objects without DT_RUNPATH, and is inherited by what they load.
    if (info.runpath.empty()) {
      std::vector<std::string> own;
      for (const auto& d : info.rpath) own.push_back(expand_tokens(d, origin));
      rpath.insert(rpath.begin(), own.begin(), own.end());
    } else {
      rpath.clear();
    }
    std::vector<std::string> runpath;
    for (const auto& d : info.runpath) runpath.push_back(expand_tokens(d, origin));
    for (const auto& name : info.needed) queue_.push_back(Pending{name, object, rpath, runpath});
  }

  bool usable(const fs::path& candidate) const {
    std::error_code error;
    if (!fs::is_regular_file(candidate, error)) return false;
    try {
      return read_elf(candidate).machine == machine_;
    } catch (const ElfError&) {
      return false;
    }
  }

  std::optional<fs::path> in_dirs(const std::string& name, const std::vector<std::string>& dirs) const {
    for (const auto& d : dirs) {
      fs::path candidate = fs::path(d) / name;
      if (usable(candidate)) return candidate;
    }
    return std::nullopt;
  }

  std::optional<fs::path> find(const Pending& p) const {
    if (p.name.find('/') != std::string::npos) {
      return usable(p.name) ? std::optional<fs::path>(p.name) : std::nullopt;
    }
    if (auto f = in_dirs(p.name, p.inherited_rpath)) return f;
    if (auto f = in_dirs(p.name, p.runpath)) return f;
    if (auto it = cache_.find(p.name); it != cache_.end() && usable(it->second)) return it->second;
    std::vector<std::string> defaults;
    for (const auto& d : options_.default_dirs) defaults.push_back(d.string());
    return in_dirs(p.name, defaults);
  }

  const ResolveOptions& options_;
  std::map<std::string, fs::path> cache_;
  uint16_t machine_ = EM_X86_64;
  std::deque<Pending> queue_;
  std::set<std::string> seen_;
  bool uses_cuda_driver_ = false;
};

}  // namespace

bool is_node_provided(const std::string& name) {
  return name.starts_with("libcuda.so") || name.starts_with("libnvidia-");
}

Dependencies resolve_dependencies(const fs::path& binary, const ResolveOptions& options) {
  return Resolver(options).run(binary);
}

}  // namespace gkebuild::elf
