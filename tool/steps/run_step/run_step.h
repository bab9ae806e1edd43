// The step behind a Dockerfile's RUN (build::BuildOptions::run), daemonless: the command runs
// under runc (or crun) in a container whose root file system is an overlay mount over the
// image's layers (tool/steps/run_step/layer_folders.h), with the host's network so that package
// installs work, and what it changed in the overlay's upper folder becomes the layer's entries
// (tool/steps/run_step/upper_changes.h). Needs root, a runtime on PATH and overlayfs.
#pragma once

#include <filesystem>
#include <functional>

#include "images/dockerfile_build/builder.h"

namespace gkebuild::run_step {

// Where RUN steps keep what they make: gkebuild's own folders (base/private_dirs.h), never a
// project's or a layout's, so that no checkout can plant the runtime's state (whose hooks runc
// would run on the host), an abandoned container or an unpacked layer.
struct RunStepDirs {
  std::filesystem::path state;         // the runtime's --root (one per runtime binary)
  std::filesystem::path runs;          // each RUN's bundle: overlay mount, upper and work folders
  std::filesystem::path layers;        // holds layers/ and chains/: unpacked layers, by checked blob digest
  std::filesystem::path cache_mounts;  // --mount=type=cache folders, of this project only
};

// The machine's folders for RUN steps: state in runtime_dir()/build, bundles in
// machine_cache_dir()/build/runs, layers and chains in machine_cache_dir()/unpacked (shared by
// every project and by local runs: each layer is checked against its digest as it is unpacked), cache mounts in machine_cache_dir()/cache-mounts/KEY, KEY the
// folder_key of `scope` (the project folder, or the layout a plain `gkebuild image` writes).
RunStepDirs run_step_dirs(const std::filesystem::path& scope);

// Runs one RUN. Throws gkebuild::Error (kFailed): "RUN exited with status N", or why it could
// not run (not root, no runtime, no overlay mount, an unknown user, a container that did not
// start).
build::RunChanges run_in_container(const build::RunRequest& request, const RunStepDirs& dirs);

// run_in_container as a BuildOptions::run, with run_step_dirs(scope) made at the first RUN (a
// Dockerfile without RUN makes none).
std::function<build::RunChanges(const build::RunRequest&)> run_step(std::filesystem::path scope);

}  // namespace gkebuild::run_step
