#include "tool/steps/prune/report.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>

#include "base/printable.h"
#include "base/rfc3339.h"

namespace gkebuild::prune {
namespace {

std::uintmax_t freed(const std::vector<Decision>& decisions) {
  std::uintmax_t bytes = 0;
  for (const auto& decision : decisions) bytes += decision.remove ? decision.item.bytes : 0;
  return bytes;
}

// A name fits its 33 columns: a project's folder keeps its end, a digest its start.
std::string short_name(const std::string& name) {
  if (name.size() <= 33) return name;
  return name.starts_with("/") ? "..." + name.substr(name.size() - 30) : name.substr(0, 33);
}

}  // namespace

std::string format_age(std::chrono::system_clock::duration age) {
  const long long seconds = std::max(0LL, static_cast<long long>(std::chrono::duration_cast<std::chrono::seconds>(age).count()));
  if (seconds >= 86400) return std::to_string(seconds / 86400) + "d";
  if (seconds >= 3600) return std::to_string(seconds / 3600) + "h";
  if (seconds >= 60) return std::to_string(seconds / 60) + "m";
  return std::to_string(seconds) + "s";
}

std::string format_bytes(std::uintmax_t bytes) {
  static const char* const kUnits[] = {"kB", "MB", "GB", "TB", "PB"};
  if (bytes < 1000) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes) / 1000;
  size_t unit = 0;
  while (value >= 1000 && unit + 1 < std::size(kUnits)) {
    value /= 1000;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  return text;
}

void print_prune_table(const std::vector<Decision>& decisions, const PruneOptions& options, std::ostream& out) {
  out << std::left << std::setw(12) << "KIND" << std::setw(34) << "NAME" << std::setw(10) << "SIZE" << std::setw(10)
      << "USED" << "ACTION\n";
  std::uintmax_t total = 0;
  size_t going = 0;
  for (const auto& [item, remove, reason] : decisions) {
    total += item.bytes;
    going += remove;
    const std::string action = remove ? (options.dry_run ? "would remove: " : "removed: ") : "kept: ";
    out << std::setw(12) << kind_name(item.kind) << std::setw(34) << printable(short_name(item.name)) << std::setw(10)
        << format_bytes(item.bytes) << std::setw(10) << (format_age(options.now - item.last_used) + " ago") << action << printable(reason) << "\n";
  }
  out << (options.dry_run ? "would free " : "freed ") << format_bytes(freed(decisions)) << " of " << format_bytes(total)
      << " (" << going << " of " << decisions.size() << " items)" << (options.dry_run ? "; nothing removed (--dry-run)" : "")
      << "\n";
}

nlohmann::json prune_json(const std::vector<Decision>& decisions, const StoreDirs& dirs, const PruneOptions& options) {
  auto items = nlohmann::json::array();
  std::uintmax_t total = 0;
  for (const auto& [item, remove, reason] : decisions) {
    total += item.bytes;
    auto paths = nlohmann::json::array();
    for (const auto& path : item.paths) paths.push_back(path.string());
    items.push_back({{"kind", kind_name(item.kind)},
                     {"name", item.name},
                     {"paths", paths},
                     {"bytes", item.bytes},
                     {"last_used", format_rfc3339_seconds(item.last_used)},
                     {"in_use", item.in_use},
                     {"removed", remove},
                     {"reason", reason}});
  }
  return {{"store", dirs.cache.string()}, {"runtime", dirs.runtime.string()}, {"dry_run", options.dry_run},
          {"items", items}, {"total_bytes", total}, {"freed_bytes", freed(decisions)}};
}

}  // namespace gkebuild::prune
