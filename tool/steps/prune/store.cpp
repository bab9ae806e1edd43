#include "tool/steps/prune/store.h"

#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/confined_path.h"
#include "base/private_dirs.h"
#include "tool/steps/prune/blob_users.h"

namespace gkebuild::prune {
namespace fs = std::filesystem;
namespace {

// Disk used beneath `top` (allocated blocks, each hard link counted), not entering another file
// system: a bundle's mounted root would count its lower layers again.
std::uintmax_t disk_used(const fs::path& top) {
  struct stat top_stat {};
  if (::lstat(top.c_str(), &top_stat) != 0) return 0;
  std::uintmax_t bytes = static_cast<std::uintmax_t>(top_stat.st_blocks) * 512;
  std::error_code error;
  fs::recursive_directory_iterator walk(top, fs::directory_options::skip_permission_denied, error);
  for (; !error && walk != fs::recursive_directory_iterator(); walk.increment(error)) {
    struct stat entry {};
    if (::lstat(walk->path().c_str(), &entry) != 0) continue;
    if (entry.st_dev != top_stat.st_dev) {
      walk.disable_recursion_pending();
      continue;
    }
    bytes += static_cast<std::uintmax_t>(entry.st_blocks) * 512;
  }
  return bytes;
}

std::chrono::system_clock::time_point modified(const fs::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return {};
  return std::chrono::system_clock::time_point(std::chrono::seconds(info.st_mtim.tv_sec)) +
         std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::nanoseconds(info.st_mtim.tv_nsec));
}

bool pid_alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH); }

// The pid in an interrupted unpack's name, .tmp-NAME-PID-CALL (tool/steps/local_runner/folder_once.cpp).
long unpack_pid(const std::string& name) {
  const auto call = name.rfind('-');
  if (call == std::string::npos || call == 0) return 0;
  const auto pid = name.rfind('-', call - 1);
  return pid == std::string::npos ? 0 : std::strtol(name.c_str() + pid + 1, nullptr, 10);
}

// The pid in a RUN step's bundle name, gkebuild-run-PID-N (tool/steps/run_step).
long run_step_pid(const std::string& name) {
  constexpr std::string_view prefix = "gkebuild-run-";
  return name.starts_with(prefix) ? std::strtol(name.c_str() + prefix.size(), nullptr, 10) : 0;
}

std::vector<fs::directory_entry> folders_in(const fs::path& dir) {
  std::vector<fs::directory_entry> out;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error))
    if (!entry.is_symlink(error) && entry.is_directory(error)) out.push_back(entry);
  return out;
}

StoreItem item_for(ItemKind kind, std::string name, std::vector<fs::path> paths) {
  StoreItem item{kind, std::move(name), std::move(paths)};
  for (const auto& path : item.paths) {
    item.bytes += disk_used(path);
    item.last_used = std::max(item.last_used, modified(path));
  }
  return item;
}

// Interrupted unpacks (.tmp-…) and removals (.prune-…) among `dir`'s folders.
bool add_unfinished(const fs::directory_entry& entry, std::vector<StoreItem>& items) {
  const std::string name = entry.path().filename().string();
  if (!name.starts_with(".tmp-") && !name.starts_with(".prune-")) return false;
  auto item = item_for(ItemKind::kUnfinished, name, {entry.path()});
  if (name.starts_with(".tmp-") && pid_alive(unpack_pid(name))) item.in_use = "its unpack is running";
  item.leftover = item.in_use.empty();
  items.push_back(std::move(item));
  return true;
}

// The blob store: each blob with the projects whose tags reach it, each project layout that
// writes there (its record gone stale when the layout is), blobs an interrupted write left.
void add_blobs(const StoreDirs& dirs, std::vector<StoreItem>& items) {
  const fs::path store = dirs.cache / "oci";
  const BlobUsers users = blob_users(store);
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(store / "blobs" / "sha256", error)) {
    if (entry.is_symlink(error) || !entry.is_regular_file(error)) continue;
    auto item = item_for(ItemKind::kBlob, entry.path().filename().string(), {entry.path()});
    if (auto it = users.by_blob.find(item.name); it != users.by_blob.end()) item.projects = it->second;
    items.push_back(std::move(item));
  }
  for (const auto& entry : fs::directory_iterator(store / "tmp", error)) {
    // blob-PID.<6 random characters, mkstemp's> (images/oci/layout.cpp), build-PID-N (a build's scratch, images/dockerfile_build/builder.cpp)
    const std::string name = entry.path().filename().string();
    auto item = item_for(ItemKind::kUnfinished, name, {entry.path()});
    const auto dash = name.find('-');
    if (dash != std::string::npos && pid_alive(std::strtol(name.c_str() + dash + 1, nullptr, 10)))
      item.in_use = "the gkebuild writing it still runs";
    item.leftover = item.in_use.empty();
    items.push_back(std::move(item));
  }
  const size_t blobs_end = items.size();
  for (const auto& layout : users.projects) {
    auto item = item_for(ItemKind::kProject, layout.parent_path().parent_path().string(), {});
    item.last_used = modified(store / "projects" / folder_key(layout));
    for (size_t i = 0; i < blobs_end; ++i)  // the disk its tags hold in the store (a shared blob counts in each)
      if (std::find(items[i].projects.begin(), items[i].projects.end(), item.name) != items[i].projects.end())
        item.bytes += items[i].bytes;
    items.push_back(std::move(item));
  }
  for (const auto& record : users.stale_records) {
    auto item = item_for(ItemKind::kProject, record.filename().string(), {record});
    item.leftover = true;
    items.push_back(std::move(item));
  }
}

void add_layers(const StoreDirs& dirs, std::vector<StoreItem>& items) {
  for (const auto& [sub, kind] : {std::pair{"layers", ItemKind::kLayer}, std::pair{"chains", ItemKind::kChain}}) {
    for (const auto& entry : folders_in(dirs.cache / "unpacked" / sub))
      if (!add_unfinished(entry, items)) items.push_back(item_for(kind, entry.path().filename().string(), {entry.path()}));
  }
}

// The cache mount folders the containers of running RUN steps bind (their config.json).
std::vector<fs::path> bound_cache_mounts(const fs::path& runs) {
  std::vector<fs::path> out;
  for (const auto& run : folders_in(runs)) {
    if (!pid_alive(run_step_pid(run.path().filename().string()))) continue;
    const auto text = read_confined_file(run.path(), "config.json", 16u << 20);
    const auto spec = nlohmann::json::parse(text.value_or(""), nullptr, false);
    if (!spec.is_object() || !spec.contains("mounts") || !spec["mounts"].is_array()) continue;
    for (const auto& mount : spec["mounts"])
      if (mount.is_object() && mount.value("source", "") != "") out.emplace_back(mount.value("source", ""));
  }
  return out;
}

void add_cache_mounts(const StoreDirs& dirs, std::vector<StoreItem>& items) {
  const auto bound = bound_cache_mounts(dirs.cache / "build" / "runs");
  for (const auto& key : folders_in(dirs.cache / "cache-mounts")) {
    for (const auto& mount : folders_in(key.path())) {
      if (add_unfinished(mount, items)) continue;
      auto item = item_for(ItemKind::kCacheMount,
                           key.path().filename().string() + "/" + mount.path().filename().string(), {mount.path()});
      if (std::find(bound.begin(), bound.end(), mount.path()) != bound.end()) item.in_use = "a running RUN step binds it";
      items.push_back(std::move(item));
    }
  }
}

void add_runs(const StoreDirs& dirs, const RunnerAlive& alive, std::vector<StoreItem>& items) {
  std::vector<std::string> names;
  for (const auto* parent : {&dirs.cache, &dirs.runtime}) {
    const fs::path folder = *parent / (parent == &dirs.cache ? "containers" : "runs");
    for (const auto& entry : folders_in(folder)) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  for (const auto& name : names) {
    std::vector<fs::path> paths;
    for (const fs::path& path : {dirs.cache / "containers" / name, dirs.runtime / "runs" / name})
      if (fs::is_directory(fs::symlink_status(path))) paths.push_back(path);
    auto item = item_for(ItemKind::kLocalRun, name, paths);
    if (alive(dirs.runtime / "runs" / name)) item.in_use = "its gkebuild still runs it";
    item.leftover = item.in_use.empty();
    items.push_back(std::move(item));
  }
  for (const auto& run : folders_in(dirs.cache / "build" / "runs")) {
    if (add_unfinished(run, items)) continue;
    auto item = item_for(ItemKind::kBuildRun, run.path().filename().string(), {run.path()});
    if (pid_alive(run_step_pid(item.name))) item.in_use = "its gkebuild still runs it";
    item.leftover = item.in_use.empty();
    items.push_back(std::move(item));
  }
}

bool within(const fs::path& path, const fs::path& folder) {
  const std::string p = path.string(), f = folder.string();
  return p == f || (p.size() > f.size() && p.starts_with(f) && p[f.size()] == '/');
}

// Marks the items an overlay mount uses.
void mark_mounted(const std::string& mountinfo, std::vector<StoreItem>& items) {
  const auto used = overlay_folders(mountinfo);
  for (auto& item : items) {
    if (!item.in_use.empty()) continue;
    for (const auto& path : item.paths) {
      std::error_code error;
      const fs::path real = fs::weakly_canonical(path, error);
      for (const auto& folder : used)
        if (within(folder, error ? path : real)) item.in_use = "a mounted overlay uses it (" + folder.string() + ")";
    }
    if (!item.in_use.empty()) item.leftover = false;
  }
}

// mountinfo writes space, tab, newline and backslash as \ooo.
std::string unescape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
      out += static_cast<char>(std::strtol(text.substr(i + 1, 3).c_str(), nullptr, 8));
      i += 3;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

std::string kind_name(ItemKind kind) {
  switch (kind) {
    case ItemKind::kBlob: return "blob";
    case ItemKind::kProject: return "project";
    case ItemKind::kLayer: return "layer";
    case ItemKind::kChain: return "chain";
    case ItemKind::kCacheMount: return "cache-mount";
    case ItemKind::kLocalRun: return "local-run";
    case ItemKind::kBuildRun: return "build-run";
    case ItemKind::kUnfinished: return "unfinished";
  }
  return "unknown";
}

std::vector<fs::path> overlay_folders(const std::string& mountinfo) {
  std::vector<fs::path> out;
  std::istringstream lines(mountinfo);
  for (std::string line; std::getline(lines, line);) {
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream before(line.substr(0, dash)), after(line.substr(dash + 3));
    std::string id, parent, device, root, mount_point, fstype, source, options;
    before >> id >> parent >> device >> root >> mount_point;
    after >> fstype >> source >> options;
    if (fstype != "overlay") continue;
    out.emplace_back(unescape(mount_point));
    std::istringstream option_list(options);
    for (std::string option; std::getline(option_list, option, ',');) {
      const auto equals = option.find('=');
      if (equals == std::string::npos) continue;
      const std::string key = option.substr(0, equals), value = option.substr(equals + 1);
      if (key != "lowerdir" && key != "upperdir" && key != "workdir" && key != "lowerdir+") continue;
      std::istringstream folders(value);
      for (std::string folder; std::getline(folders, folder, ':');)
        if (!folder.empty()) out.emplace_back(unescape(folder));
    }
  }
  return out;
}

std::string read_mountinfo() {
  std::ifstream in("/proc/self/mountinfo");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<StoreItem> list_store(const StoreDirs& dirs, const RunnerAlive& alive, const std::string& mountinfo) {
  std::vector<StoreItem> items;
  add_blobs(dirs, items);
  add_layers(dirs, items);
  add_cache_mounts(dirs, items);
  add_runs(dirs, alive, items);
  mark_mounted(mountinfo, items);
  std::stable_sort(items.begin(), items.end(), [](const StoreItem& a, const StoreItem& b) {
    return a.kind != b.kind ? a.kind < b.kind : a.name < b.name;
  });
  return items;
}

}  // namespace gkebuild::prune
