// Building one target of a user's CMake project the way ko builds a Go program: configured
// once into its own build folder (Ninja, Release, ccache as the compiler launcher when it is
// on PATH), then built incrementally by `cmake --build`; the target's file is found through
// CMake's file API (codemodel-v2), so OUTPUT_NAME and output folders need no guessing.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace gkebuild::workload_images {

struct TargetBuild {
  std::filesystem::path source;  // holds CMakeLists.txt
  std::filesystem::path build;   // the build folder, created when missing
  std::string target;            // an executable target
  // CMAKE_CUDA_ARCHITECTURES to pass; empty: none passed. A project that sets the
  // variable (or the target property) itself keeps its own: callers check the result.
  std::string cuda_architectures;
  std::function<void(const std::string&)> note;  // progress for the user; may be empty
};

// Configures (when the folder is new or the arguments changed) and builds the target,
// holding a lock on the build folder so that concurrent gkebuilds take turns;
// returns the built file. Throws Error(kBadInput) naming what failed, with the tail of
// CMake's output: no CMakeLists.txt, no such target, a compile error, or a project that
// needs CUDA where no nvcc is found (see find_nvcc).
std::filesystem::path build_cmake_target(const TargetBuild& build);

// nvcc as gkebuild hands it to CMake: $CUDACXX when set; else `nvcc` on PATH; else
// $CUDA_PATH/bin/nvcc, with CUDA_PATH defaulting to /usr/local/cuda.
std::optional<std::filesystem::path> find_nvcc();

}  // namespace gkebuild::workload_images
