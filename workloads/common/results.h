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

// Kubernetes reports what a container leaves in its termination log (4096 bytes at most) in
// the pod's status, which gkebuild submit watches anyway: result lines there need no log read.
inline constexpr std::size_t kTerminationLogLimit = 4096;
// The last line of a termination log whose results did not all fit: the rest are in the log.
inline constexpr const char* kResultsTruncated = "gkebuild: more results in the log";
// $GKEBUILD_TERMINATION_LOG, else /dev/termination-log where it exists (the kubelet mounts it
// in every container), else "": no termination log.
std::string default_termination_log();

class ResultWriter {
 public:
  // `device` is the device object of common/device.h's device_json(). Each result line also goes
  // to `termination_log` (when not empty): whole lines while they fit, then kResultsTruncated.
  ResultWriter(std::ostream& out, std::string workload, nlohmann::json device,
               std::string termination_log = default_termination_log());

  // Writes one line and flushes it, so a log follower sees results as they come.
  // Throws RunError for a value that is not a finite number (never print a wrong figure).
  void write(const Measurement& measurement);

  nlohmann::json line(const Measurement& measurement) const;

 private:
  std::ostream& out_;
  std::string workload_;
  nlohmann::json device_;
  nlohmann::json host_;
  std::string termination_log_;
  std::string kept_;  // the result lines in the termination log so far
  bool truncated_ = false;

  void keep_for_termination_log(const std::string& line);
};

// Now in UTC as RFC 3339 with milliseconds, e.g. 2026-11-21T23:59:07.123Z.
std::string utc_timestamp();

}  // namespace gkebuild::workloads
