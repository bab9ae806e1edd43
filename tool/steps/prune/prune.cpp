#include "tool/steps/prune/prune.h"

#include <unistd.h>

#include <atomic>
#include <system_error>

#include "tool/steps/prune/report.h"

namespace gkebuild::prune {
namespace fs = std::filesystem;
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

Decision decide(const StoreItem& item, const PruneOptions& options) {
  const auto age = options.now - item.last_used;
  if (!item.in_use.empty()) return {item, false, "in use: " + item.in_use};
  if (item.kind == ItemKind::kProject && !item.leftover)
    return {item, false, "a project whose tags hold this much of the store"};
  if (age < kRecentUse) return {item, false, "used " + format_age(age) + " ago: a gkebuild may be about to use it"};
  if (item.leftover) return {item, true, "left over: nothing uses it"};
  const bool dangling = item.kind == ItemKind::kBlob && item.projects.empty();
  if (dangling && age >= kDanglingAge) return {item, true, "no project's tag reaches it (an older image version)"};
  const std::string tagged = item.kind == ItemKind::kBlob && !dangling ? "; tagged in " + joined(item.projects) : "";
  if (options.all) return {item, true, "not in use (--all)" + tagged};
  if (options.older_than && age >= *options.older_than) return {item, true, "not used for " + format_age(age) + tagged};
  if (options.older_than) return {item, false, "used " + format_age(age) + " ago" + tagged};
  if (dangling) return {item, false, "no project's tag reaches it; kept for " + format_age(kDanglingAge) + " after its last use"};
  return {item, false, "no --all nor --older-than" + tagged};
  if (options.all) return {item, true, "not in use (--all)"};
  if (options.older_than && age >= *options.older_than) return {item, true, "not used for " + format_age(age)};
  if (options.older_than) return {item, false, "used " + format_age(age) + " ago"};
  return {item, false, "no --all nor --older-than"};
}

// Renames `path` to a hidden sibling, then deletes that: whoever looks for the folder by its name
// sees it whole or not at all. Returns "" or why it failed.
std::string remove_folder(const fs::path& path) {
  static std::atomic<unsigned> calls = 0;
  const std::string name = path.filename().string();
  fs::path doomed = path;
  std::error_code error;
  if (!name.starts_with(".prune-")) {
    doomed = path.parent_path() / (".prune-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(++calls));
    fs::rename(path, doomed, error);
    if (error) return "cannot move " + path.string() + " aside: " + error.message();
  }
  fs::remove_all(doomed, error);
  return error ? "cannot delete " + doomed.string() + ": " + error.message() : "";
}

}  // namespace

std::vector<Decision> prune_store(const std::vector<StoreItem>& items, const PruneOptions& options) {
  std::vector<Decision> decisions;
  for (const auto& item : items) {
    Decision decision = decide(item, options);
    if (decision.remove && !options.dry_run) {
      for (const auto& path : item.paths) {
        const std::string failed = remove_folder(path);
        if (failed.empty()) continue;
        decision.remove = false;
        decision.reason = failed;
        break;
      }
    }
    decisions.push_back(std::move(decision));
  }
  return decisions;
}

}  // namespace gkebuild::prune
