#include "workloads/common/results.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "workloads/common/errors.h"
#include "workloads/common/host_facts.h"

namespace gkebuild::workloads {

std::string utc_timestamp() {
  using namespace std::chrono;
  const auto now = system_clock::now();
  const std::time_t seconds = system_clock::to_time_t(now);
  const auto millis = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(millis));
  return text;
}

std::string default_termination_log() {
  if (const char* path = std::getenv("GKEBUILD_TERMINATION_LOG")) return path;
  std::error_code error;
  return std::filesystem::exists("/dev/termination-log", error) ? "/dev/termination-log" : "";
}

ResultWriter::ResultWriter(std::ostream& out, std::string workload, nlohmann::json device,
                           std::string termination_log)
    : out_(out),
      workload_(std::move(workload)),
      device_(std::move(device)),
      host_(host_facts()),
      termination_log_(std::move(termination_log)) {}

// Rewrites the whole termination log each time: the container may end after any line.
void ResultWriter::keep_for_termination_log(const std::string& line) {
  if (termination_log_.empty()) return;
  const std::size_t note = std::char_traits<char>::length(kResultsTruncated) + 1;
  if (!truncated_ && kept_.size() + line.size() + 1 + note <= kTerminationLogLimit) kept_ += line + "\n";
  else truncated_ = true;
  std::ofstream file(termination_log_, std::ios::trunc);
  file << kept_ << (truncated_ ? std::string(kResultsTruncated) + "\n" : "");
  // A termination log that cannot be written costs a log read, not the result.
}

nlohmann::json ResultWriter::line(const Measurement& m) const {
  nlohmann::json j;
  j["schema"] = kResultSchema;
  j["workload"] = workload_;
  j["device"] = device_;
  j["precision"] = m.precision;
  j["shape"] = m.shape;
  j["metric"] = m.metric;
  j["value"] = m.value;
  j["unit"] = m.unit;
  j["repetitions"] = m.repetitions;
  j["timestamp"] = utc_timestamp();
  j["host"] = host_;
  if (!m.extra.empty()) j["extra"] = m.extra;
  return j;
}

void ResultWriter::write(const Measurement& m) {
  if (!std::isfinite(m.value)) {
    throw RunError("measurement " + m.metric + " is not a finite number; no result written");
  }
  const std::string text = line(m).dump();
  out_ << text << '\n';
  out_.flush();
  keep_for_termination_log(text);
}

}  // namespace gkebuild::workloads
