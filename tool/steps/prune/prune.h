// `gkebuild prune`: which of the store's items go, and their removal. Every prune removes the
// leftovers (bundles of runs whose gkebuild is gone, interrupted unpacks and blob writes, records
// of project layouts that are gone) and blobs no project's tag reaches; --older-than also blobs,
// layers, chains and cache mounts not used for that long, --all all of them. Nothing a running
// run uses goes, nor a layer used in the last minute (a gkebuild may be between unpacking it and
// mounting it). A folder goes by rename to a hidden name first, so that a concurrent gkebuild,
// which takes a layer folder that exists under its final name as whole (make_folder_once), never
// sees half of one.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "tool/steps/prune/store.h"

namespace gkebuild::prune {

struct PruneOptions {
  bool all = false;
  std::optional<std::chrono::seconds> older_than;
  bool dry_run = false;  // decide and report, remove nothing
  std::chrono::system_clock::time_point now = std::chrono::system_clock::now();
};

struct Decision {
  StoreItem item;
  bool remove = false;  // removed (or, in a dry run, would be)
  std::string reason;   // why it goes or stays
};

// A layer used this recently is kept whatever the options.
inline constexpr std::chrono::seconds kRecentUse{60};
// A blob no project's tag reaches goes at every prune once unused this long: a build writes its
// blobs before it tags them, and a long build must not lose them in between.
inline constexpr std::chrono::seconds kDanglingAge{3600};

// The decision for each item, in the items' order; removes those that go unless dry_run. A
// removal that fails (a folder another process holds) is reported in its reason and counted as
// kept.
std::vector<Decision> prune_store(const std::vector<StoreItem>& items, const PruneOptions& options);

}  // namespace gkebuild::prune
