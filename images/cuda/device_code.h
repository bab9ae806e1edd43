// Which GPUs an ELF binary or library can run its kernels on: the cubin architectures and
// PTX versions of its fat binaries (.nv_fatbin), and NVIDIA's compatibility rule - a cubin
// for sm_XY runs on a GPU of compute capability X.Z with Z >= Y; PTX for compute_XY is
// JIT-compiled by the driver for any GPU of compute capability >= X.Y.
#pragma once

#include <filesystem>
#include <set>
#include <string>

namespace gkebuild::cuda {

struct DeviceCode {
  std::set<int> cubins;  // sm architectures, 75 for sm_75
  std::set<int> ptx;     // compute architectures of the PTX, 89 for compute_89

  bool empty() const { return cubins.empty() && ptx.empty(); }
  // Whether some kernel image runs on (or JIT-compiles for) compute capability major.minor.
  bool runs_on(int major, int minor) const;
  // "sm_75, sm_89 and compute_89 PTX"; "no device code" when empty.
  std::string describe() const;
};

// The device code of one ELF file; empty when it has no .nv_fatbin section.
// Throws elf::ElfError for a file that is not ELF or a fat binary that does not parse.
DeviceCode read_device_code(const std::filesystem::path& path);

}  // namespace gkebuild::cuda
