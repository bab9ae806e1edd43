// Can the image run where its experiments send it? The device code of every staged binary
// and library (bin/ and lib/ of the build context) against the compute capability of each
// accelerator: a GPU with no cubin of its major version at or below its minor, and no PTX
// at or below its compute capability, fails at the first kernel launch with "no kernel
// image is available" - after its node pool has scaled up and pulled the image.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "base/source_error.h"
#include "images/cuda/device_code.h"
#include "tool/steps/workload_images/cuda_architectures.h"

namespace gkebuild::workload_images {

struct StagedDeviceCode {
  std::filesystem::path file;  // relative to the context: bin/saxpy, lib/libcublas.so.13
  cuda::DeviceCode code;       // never empty
};

// The files under CONTEXT/bin and CONTEXT/lib that carry device code. Throws elf::ElfError
// for a fat binary that does not parse; files that are not ELF are skipped.
std::vector<StagedDeviceCode> staged_device_code(const std::filesystem::path& context);

struct DeviceCodeFinding {
  SourceLocation where;  // the experiment in gkebuild.yaml
  std::string message;   // names the experiment, the accelerator, the file and what it lacks
};

// One finding per (experiment, accelerator, file) that cannot run.
std::vector<DeviceCodeFinding> device_code_findings(const std::string& image, const std::vector<ImageTarget>& targets,
                                                    const std::vector<StagedDeviceCode>& staged);

// For `gkebuild render`: the findings of every image whose build context gkebuild staged
// last (.gkebuild/context/IMAGE), against its experiments' accelerators, or against
// `accelerators` when given (render's --accelerator replaces each experiment's list).
// Images never staged are skipped: their binary is not known.
std::vector<DeviceCodeFinding> staged_image_findings(const project::Project& project,
                                                     const std::vector<std::string>& accelerators = {});

}  // namespace gkebuild::workload_images
