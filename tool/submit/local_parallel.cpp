#include "tool/submit/local_parallel.h"

#include <algorithm>

namespace gkebuild::submit {

LocalInFlight local_in_flight(int asked, int host_gpus, int gpus_per_point) {
  if (host_gpus <= 0 || gpus_per_point <= 0) return {asked > 0 ? asked : 1, ""};
  const int by_gpus = std::max(1, host_gpus / gpus_per_point);
  const std::string gpus = std::to_string(host_gpus) + (host_gpus == 1 ? " GPU" : " GPUs");
  std::string note;
  if (gpus_per_point > host_gpus)
    note = "each point asks for " + std::to_string(gpus_per_point) + " GPUs and this machine has " + gpus +
           ": each runs on all of them, one point at a time";
  else if (asked > by_gpus)
    note = "--max-in-flight " + std::to_string(asked) + ": this machine has " + gpus + " and a point takes " +
           std::to_string(gpus_per_point) + ", so at most " + std::to_string(by_gpus) + " run at once";
  return {asked > 0 ? std::min(asked, by_gpus) : by_gpus, note};
}

}  // namespace gkebuild::submit
