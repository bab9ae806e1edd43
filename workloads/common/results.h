// The one result format of every workload: JSON lines on stdout, one measurement a line
// (workloads/README.md describes each field; `gkebuild report` reads them).
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace gkebuild::workloads {

inline constexpr const char* kResultSchema = "gkebuild.workload.v1";

struct Measurement {
  std::string metric;      // e.g. "throughput", "time", "max_error", "test_accuracy"
  double value = 0;
  std::string unit;        // e.g. "TFLOP/s", "ms", "1", "samples/s"
  std::string precision;   // fp32, tf32, fp16, bf16
  nlohmann::json shape = nlohmann::json::object();  // named sizes, e.g. {"m":…, "n":…, "k":…}
  int repetitions = 1;
  nlohmann::json extra = nlohmann::json::object();  // spread, algorithm, epoch…
};

class ResultWriter {
 public:
  // `device` is the device object of common/device.h's device_json().
  ResultWriter(std::ostream& out, std::string workload, nlohmann::json device);

  // Writes one line and flushes it, so a log follower sees results as they come.
  // Throws RunError for a value that is not a finite number (never print a wrong figure).
  void write(const Measurement& measurement);

  nlohmann::json line(const Measurement& measurement) const;

 private:
  std::ostream& out_;
  std::string workload_;
  nlohmann::json device_;
  nlohmann::json host_;
};

// Now in UTC as RFC 3339 with milliseconds, e.g. 2026-11-21T23:59:07.123Z.
std::string utc_timestamp();

}  // namespace gkebuild::workloads
