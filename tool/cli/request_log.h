// -v on the commands that talk to a cluster (submit, status, logs, delete, cluster check):
// each Kubernetes API request on stderr, as `-v` logs each registry request of image and push.
#pragma once

#include <iostream>
#include <string>

#include "base/printable.h"
#include "tool/core/kube/client.h"

namespace gkebuild::cli {

inline void log_cluster_requests() {
  // One write a line: watches and log streams run on the event loop's thread.
  kube::set_request_log([](const std::string& line) { std::cerr << ("gkebuild: " + printable(line) + "\n"); });
}

}  // namespace gkebuild::cli
