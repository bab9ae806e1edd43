#include "tool/steps/workload_images/cuda_architectures.h"

#include <set>

namespace gkebuild::workload_images {

namespace {

void add_targets(const project::Experiment& experiment, const std::vector<std::string>& labels,
                 std::vector<ImageTarget>& out) {
  for (const auto& label : labels)
    out.push_back({&experiment, &catalog::Catalog::builtin().get(label, experiment.where)});
}

}  // namespace

std::vector<ImageTarget> image_targets(const project::Project& project, const project::Image& image) {
  std::vector<ImageTarget> out;
  for (const auto& experiment : project.experiments)
    if (experiment.image == image.name) add_targets(experiment, experiment.accelerators, out);
  return out;
}

std::vector<ImageTarget> run_targets(const project::Project& project, const SubmittedRun& run) {
  std::vector<ImageTarget> out;
  if (const auto* experiment = project.find_experiment(run.experiment))
    add_targets(*experiment, run.accelerators.empty() ? experiment->accelerators : run.accelerators, out);
  return out;
}

std::string cmake_cuda_architectures(const std::vector<ImageTarget>& targets) {
  std::set<int> archs;
  for (const auto& target : targets)
    archs.insert(target.accelerator->compute_major * 10 + target.accelerator->compute_minor);
  std::string out;
  for (int arch : archs) {
    if (!out.empty()) out += ";";
    // CMake: "NN-real" is the cubin alone, a plain "NN" the cubin and its PTX.
    out += std::to_string(arch) + (arch == *archs.rbegin() ? "" : "-real");
  }
  return out;
}

}  // namespace gkebuild::workload_images
