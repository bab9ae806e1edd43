// Facts about the machine a result was measured on, for the "host" field of every result line.
#pragma once

#include <nlohmann/json.hpp>

namespace gkebuild::workloads {

// {"hostname", "os", "cpu_model", "logical_cpus", "available_cpus", "memory_bytes"}
nlohmann::json host_facts();

// The host's CPU model name from /proc/cpuinfo, or the machine architecture.
std::string cpu_model();

}  // namespace gkebuild::workloads
