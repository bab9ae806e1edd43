// The options every workload has, apart from how they are parsed (common/program.h).
#pragma once

#include <string>

namespace gkebuild::workloads {

struct CommonOptions {
  std::string device = "auto";  // auto, cpu, cuda or cuda:N
  int threads = 0;              // CPU threads; 0 = what the container may use
};

}  // namespace gkebuild::workloads
