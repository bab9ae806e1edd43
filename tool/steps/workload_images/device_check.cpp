#include "tool/steps/workload_images/device_check.h"

#include <algorithm>

#include "images/elf/elf_file.h"

namespace gkebuild::workload_images {
namespace fs = std::filesystem;

std::vector<StagedDeviceCode> staged_device_code(const fs::path& context) {
  std::vector<StagedDeviceCode> out;
  for (const char* folder : {"bin", "lib"}) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(context / folder, error)) {
      if (!entry.is_regular_file(error) || entry.is_symlink(error)) continue;
      try {
        elf::find_section(entry.path(), ".nv_fatbin");  // throws for what is not ELF
      } catch (const elf::ElfError&) {
        continue;
      }
      cuda::DeviceCode code = cuda::read_device_code(entry.path());
      if (!code.empty()) out.push_back({fs::path(folder) / entry.path().filename(), std::move(code)});
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
  return out;
}

std::vector<DeviceCodeFinding> device_code_findings(const std::string& image, const std::vector<ImageTarget>& targets,
                                                    const std::vector<StagedDeviceCode>& staged) {
  std::vector<DeviceCodeFinding> out;
  for (const auto& [experiment, accelerator] : targets) {
    for (const auto& file : staged) {
      if (file.code.runs_on(accelerator->compute_major, accelerator->compute_minor)) continue;
      out.push_back({experiment->where,
                     "experiment '" + experiment->name + "' runs on " + accelerator->label + " (compute capability " +
                         accelerator->compute_capability() + "), but " + file.file.string() + " of image '" + image +
                         "' carries " + file.code.describe() + ": it needs an " + accelerator->cuda_arch +
                         " cubin (or PTX at or below compute_" + std::to_string(accelerator->compute_major) +
                         std::to_string(accelerator->compute_minor) + ")"});
    }
  }
  return out;
}

std::vector<DeviceCodeFinding> staged_image_findings(const project::Project& project,
                                                     const std::vector<std::string>& accelerators) {
  std::vector<DeviceCodeFinding> out;
  for (const auto& image : project.images) {
    const fs::path context = project.dir / ".gkebuild" / "context" / image.name;
    std::error_code error;
    if (image.workload.empty() || !fs::is_directory(context / "bin", error)) continue;
    std::vector<ImageTarget> targets;
    for (const auto& experiment : project.experiments) {
      if (experiment.image != image.name) continue;
      const auto run = run_targets(project, {experiment.name, accelerators});
      targets.insert(targets.end(), run.begin(), run.end());
    }
    auto findings = device_code_findings(image.name, targets, staged_device_code(context));
    for (auto& finding : findings) out.push_back(std::move(finding));
  }
  return out;
}

}  // namespace gkebuild::workload_images
