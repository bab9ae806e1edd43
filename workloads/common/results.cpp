#include "common/results.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "common/errors.h"
#include "common/host_facts.h"

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

ResultWriter::ResultWriter(std::ostream& out, std::string workload, nlohmann::json device)
    : out_(out), workload_(std::move(workload)), device_(std::move(device)), host_(host_facts()) {}

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
  out_ << line(m).dump() << '\n';
  out_.flush();
}

}  // namespace gkebuild::workloads
