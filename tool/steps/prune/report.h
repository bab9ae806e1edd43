// What `gkebuild prune` prints: a table of the store's items with what happened to each and the
// bytes freed, or the same as JSON.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tool/steps/prune/prune.h"

namespace gkebuild::prune {

// "40s", "12m", "5h", "3d": an age in its largest whole unit.
std::string format_age(std::chrono::system_clock::duration age);

// "0 B", "512 B", "1.5 kB", "812.0 MB", "1.2 GB" (decimal units, as du --si).
std::string format_bytes(std::uintmax_t bytes);

// One line per item (kind, name, size, last use, what happened and why), then the total.
void print_prune_table(const std::vector<Decision>& decisions, const PruneOptions& options, std::ostream& out);

// {"store", "runtime", "dry_run", "items": [{kind, name, paths, bytes, last_used, in_use, removed, reason}],
//  "total_bytes", "freed_bytes"}; in a dry run "removed" says what would go.
nlohmann::json prune_json(const std::vector<Decision>& decisions, const StoreDirs& dirs, const PruneOptions& options);

}  // namespace gkebuild::prune
