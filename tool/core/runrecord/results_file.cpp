// results.jsonl: reading tolerates bad lines (each skipped with its reason), appending is
// one write per line so concurrent log followers never interleave.
#include "base/error.h"
#include "tool/core/runrecord/results_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <system_error>

#include "base/atomic_file.h"
#include "base/confined_path.h"
#include "tool/core/runrecord/json_error.h"
#include "tool/core/runrecord/run_store.h"

namespace gkebuild::runrecord {
namespace {

using nlohmann::json;

constexpr std::string_view kResultsFile = "results.jsonl";

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// The length of NaN, Infinity or -Infinity at `at`, or 0.
std::size_t non_finite_token_at(std::string_view text, std::size_t at) {
  std::size_t sign = at < text.size() && text[at] == '-' ? 1 : 0;
  for (std::string_view token : {"NaN", "Infinity"})
    if (text.substr(at + sign).starts_with(token)) return sign + token.size();
  return 0;
}

// Python's json module writes NaN and Infinity, which are not JSON: name them for what they
// are. True when the line parses once those tokens (outside strings) read null.
bool parses_without_non_finite_tokens(std::string_view line) {
  std::string replaced;
  bool in_string = false, found = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (in_string) {
      replaced += c;
      if (c == '\\' && i + 1 < line.size()) replaced += line[++i];
      else if (c == '"') in_string = false;
    } else if (std::size_t length = non_finite_token_at(line, i)) {
      replaced += "null";
      i += length - 1;
      found = true;
    } else {
      in_string = c == '"';
      replaced += c;
    }
  }
  return found && json::accept(replaced);
}

// Why `object` is not a usable result line, or "" when it is.
std::string problem_with(const json& object) {
  if (!object.is_object()) return "not a JSON object";
  auto schema = object.find("schema");
  if (schema == object.end()) return "missing field 'schema'";
  if (!schema->is_string() || *schema != kResultSchema)
    return "schema " + schema->dump() + ", not \"" + std::string(kResultSchema) + "\"";
  for (const char* key : {"job", "workload", "metric", "unit"}) {
    auto field = object.find(key);
    if (field == object.end()) return "missing field '" + std::string(key) + "'";
    if (!field->is_string()) return "field '" + std::string(key) + "' is not a string";
  }
  auto value = object.find("value");
  if (value == object.end()) return "missing field 'value'";
  if (!value->is_number()) return "field 'value' is not a number: " + value->dump();
  if (!std::isfinite(value->get<double>())) return "non-finite value";
  if (auto precision = object.find("precision"); precision != object.end() && !precision->is_string())
    return "field 'precision' is not a string";
  if (auto shape = object.find("shape"); shape != object.end() && !shape->is_object())
    return "field 'shape' is not an object";
  return "";
}

ResultLine result_from(json object, SourceLocation where) {
  ResultLine result;
  result.where = std::move(where);
  result.job = object["job"];
  result.workload = object["workload"];
  result.precision = object.value("precision", "");
  if (object.contains("shape")) result.shape = object["shape"];
  result.metric = object["metric"];
  result.value = object["value"].get<double>();
  result.unit = object["unit"];
  result.line = std::move(object);
  return result;
}

void parse_line(const std::string& line, SourceLocation where, Results& results) {
  json object;
  try {
    object = json::parse(line);
  } catch (const json::parse_error& error) {
    std::string reason = parses_without_non_finite_tokens(line)
                             ? "non-finite value (NaN or Infinity)"
                             : "corrupt JSON at column " +
                                   std::to_string(error.byte > 0 ? error.byte : 1) + ": " +
                                   json_parse_reason(error);
    results.skipped.push_back({std::move(where), std::move(reason)});
    return;
  } catch (const json::out_of_range&) {
    // 1e999: nlohmann refuses numbers beyond double, which a reader would see as infinity.
    results.skipped.push_back({std::move(where), "non-finite value (a number beyond double range)"});
    return;
  }
  if (auto problem = problem_with(object); !problem.empty()) {
    results.skipped.push_back({std::move(where), std::move(problem)});
    return;
  }
  results.lines.push_back(result_from(std::move(object), std::move(where)));
}

}  // namespace

Results parse_results(std::string_view text, const std::string& file) {
  Results results;
  results.file_found = true;
  int number = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++number;
    if (blank(line)) continue;
    if (line.ends_with('\r')) line.remove_suffix(1);
    parse_line(std::string(line), {file, number, 0}, results);
  }
  return results;
}

Results read_results(const std::filesystem::path& run_dir) {
  const auto text = read_confined_file(run_dir, kResultsFile, kMaxRecordBytes);
  if (!text) return {};
  return parse_results(*text, (run_dir / kResultsFile).string());
}

void append_result_line(const std::filesystem::path& run_dir, std::string_view job, const json& result) {
  if (!result.is_object()) throw Error(ErrorKind::kBadInput, "a result line must be a JSON object");
  json line = result;
  line["job"] = job;
  std::string bytes = line.dump() + "\n";
  auto path = run_dir / kResultsFile;
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);  // as run.json
  if (fd < 0) throw system_failure(errno, "cannot open " + path.string());
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int saved = errno;
      ::close(fd);
      throw system_failure(saved, "cannot append to " + path.string());
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0)
    throw system_failure(errno, "cannot append to " + path.string());
}

}  // namespace gkebuild::runrecord
