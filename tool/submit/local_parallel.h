// How many points of a local run go at once (`submit --local --max-in-flight N`): as many as
// asked, 1 on CPU paths unless asked, one per GPU on a machine with GPUs; the GPUs bound it
// there, since two running Jobs never share a GPU (tool/steps/local_runner/gpu_slots.h).
#pragma once

#include <string>

namespace gkebuild::submit {

struct LocalInFlight {
  int points = 1;    // at most this many Jobs run at once
  std::string note;  // what the user should know (their number bounded by the GPUs), or ""
};

// `asked`: --max-in-flight as given, 0 when not given; `host_gpus`: the GPUs Jobs are given (0 on
// CPU paths); `gpus_per_point`: the most one Job takes (its gpus times its nodes).
LocalInFlight local_in_flight(int asked, int host_gpus, int gpus_per_point);

}  // namespace gkebuild::submit
