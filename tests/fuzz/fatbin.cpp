// CUDA fat binaries (.nv_fatbin sections) as a staged binary or library carries them.
#include "fuzz_target.h"
#include "images/cuda/fatbin.h"

GKEBUILD_FUZZ_TARGET({
  gkebuild::cuda::read_fatbin(
      [&](uint64_t offset, size_t size) {
        return offset >= input.size() ? std::string() : std::string(input.substr(offset, size));
      },
      input.size());
})
