// The accelerators an image is sent to, and the CUDA architectures to build its workload
// for: the union of their compute capabilities, each as machine code (cubin), plus PTX for
// the newest so that later GPUs can JIT-compile it.
#pragma once

#include <string>
#include <vector>

#include "tool/core/catalog/catalog.h"
#include "tool/core/project/project.h"

namespace gkebuild::workload_images {

struct ImageTarget {
  const project::Experiment* experiment;
  const catalog::Accelerator* accelerator;
};

// Every (experiment, accelerator) pair of the experiments that run `image`.
std::vector<ImageTarget> image_targets(const project::Project& project, const project::Image& image);

// What one submit runs: an experiment on its own accelerators or on those of --accelerator.
struct SubmittedRun {
  std::string experiment;
  std::vector<std::string> accelerators;  // empty: the experiment's own
};
std::vector<ImageTarget> run_targets(const project::Project& project, const SubmittedRun& run);

// CMAKE_CUDA_ARCHITECTURES for these targets: "75-real;89" for T4 + L4 (sm_75 and sm_89
// cubins, compute_89 PTX); "" when there are none.
std::string cmake_cuda_architectures(const std::vector<ImageTarget>& targets);

}  // namespace gkebuild::workload_images
