// results.jsonl in a run folder: one workload result line (schema gkebuild.workload.v1,
// workloads/README.md) per line, with "job" added naming the Job whose pod printed it.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/source_error.h"

namespace gkebuild::runrecord {

inline constexpr std::string_view kResultSchema = "gkebuild.workload.v1";

struct ResultLine {
  SourceLocation where;  // file and line it came from
  std::string job;
  std::string workload;
  std::string precision;  // "" where none applies
  nlohmann::json shape = nlohmann::json::object();
  std::string metric;
  double value = 0;  // always finite
  std::string unit;
  nlohmann::json line;  // the whole object, for fields this struct does not name
};

struct SkippedLine {
  SourceLocation where;  // file:line
  std::string reason;    // "corrupt JSON: …", "missing field 'unit'", "schema 'x'", …
};

struct Results {
  bool file_found = false;  // false: the run has no results.jsonl (yet)
  std::vector<ResultLine> lines;
  std::vector<SkippedLine> skipped;
};

// Reads DIR/results.jsonl. Lines that cannot be used are skipped, each with its reason;
// blank lines are ignored. Throws std::system_error only when the file exists but cannot be read.
Results read_results(const std::filesystem::path& run_dir);

// The same for text already in memory; `file` names it in locations.
Results parse_results(std::string_view text, const std::string& file);

// Appends `result` with "job": `job` added as one line, in a single write, so lines from
// concurrent followers never interleave. `result` must be a JSON object.
void append_result_line(const std::filesystem::path& run_dir, std::string_view job,
                        const nlohmann::json& result);

}  // namespace gkebuild::runrecord
