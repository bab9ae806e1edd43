// What gkebuild's machine-wide store holds (base/private_dirs.h): image blobs (by the projects
// whose tags reach them; images/oci/machine_store.h), unpacked layers and chains,
// cache mounts by project key, the bundles of local runs and RUN steps, and what an interrupted
// unpack or prune left; each with its size, its last use and whether a running run uses it.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace gkebuild::prune {

enum class ItemKind { kBlob, kLayer, kChain, kCacheMount, kLocalRun, kBuildRun, kProject, kUnfinished };

// "blob", "layer", "chain", "cache-mount", "local-run", "build-run", "project", "unfinished".
std::string kind_name(ItemKind kind);

struct StoreItem {
  ItemKind kind = ItemKind::kLayer;
  std::string name;  // layer and chain: the digest's hex; cache mount: KEY/ID; runs: their folder's name
  std::vector<std::filesystem::path> paths;  // a local run: its bundles and its runtime state
  std::uintmax_t bytes = 0;                  // disk used (allocated blocks), mounted file systems not counted
  std::chrono::system_clock::time_point last_used;  // the folder's mtime: gkebuild touches it at each use
  std::string in_use;  // why a running run needs it ("" when none does)
  bool leftover = false;  // a dead run's bundles, an interrupted unpack: of use to nobody
  // A blob: the projects whose tags reach it (empty: dangling, an image version no tag names).
  // A project: its folder.
  std::vector<std::string> projects;
};

struct StoreDirs {
  std::filesystem::path cache;    // machine_cache_dir()
  std::filesystem::path runtime;  // runtime_dir()
};

// Whether the gkebuild that ran the local run whose runtime state is `state_dir` (runtime_dir()/runs/KEY-RUN)
// still runs it (tool/submit's proof, runner.json).
using RunnerAlive = std::function<bool(const std::filesystem::path& state_dir)>;

// The store's items, sorted by kind then name. `mountinfo` is /proc/self/mountinfo's text: a
// folder that is a lower, upper or work folder or the mount point of an overlay mount (or holds
// one) is in use, as is a cache mount that a running RUN step's container binds and anything of
// a run whose process is alive. Unreadable entries count as empty.
std::vector<StoreItem> list_store(const StoreDirs& dirs, const RunnerAlive& alive, const std::string& mountinfo);

// The folders that overlay mounts in `mountinfo` use (lowerdir, upperdir, workdir and the mount
// point), as the kernel writes them (octal escapes undone).
std::vector<std::filesystem::path> overlay_folders(const std::string& mountinfo);

// The text of /proc/self/mountinfo ("" when it cannot be read).
std::string read_mountinfo();

}  // namespace gkebuild::prune
