#include "workloads/common/host_facts.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include "workloads/common/thread_count.h"

namespace gkebuild::workloads {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
    }
  }
  utsname name{};
  return uname(&name) == 0 ? name.machine : "unknown";
}

nlohmann::json host_facts() {
  nlohmann::json host;
  char hostname[256] = {};
  if (gethostname(hostname, sizeof(hostname) - 1) == 0) host["hostname"] = hostname;
  utsname name{};
  if (uname(&name) == 0) host["os"] = std::string(name.sysname) + " " + name.release + " " + name.machine;
  host["cpu_model"] = cpu_model();
  host["logical_cpus"] = std::thread::hardware_concurrency();
  host["available_cpus"] = available_cpus();
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) host["memory_bytes"] = static_cast<std::int64_t>(pages) * page_size;
  return host;
}

}  // namespace gkebuild::workloads
