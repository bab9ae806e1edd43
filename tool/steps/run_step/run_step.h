// The step behind a Dockerfile's RUN (build::BuildOptions::run), daemonless: the command runs
// under runc (or crun) in a container whose root file system is an overlay mount over the
// image's layers (tool/steps/run_step/layer_folders.h), with the host's network so that package
// installs work, and what it changed in the overlay's upper folder becomes the layer's entries
// (tool/steps/run_step/upper_changes.h). Needs root, a runtime on PATH and overlayfs.
#pragma once

#include <filesystem>
#include <functional>

#include "images/build/builder.h"

namespace gkebuild::run_step {

// Runs one RUN. Under `cache_dir`: layers/ and chains/ (the unpacked image, shared by every
// RUN), runs/ (each RUN's overlay, removed when the result's holder is released), run-cache/
// (--mount=type=cache folders, kept between builds) and state/ (the runtime's). Throws
// gkebuild::Error (kFailed): "RUN exited with status N", or why it could not run (not root, no
// runtime, no overlay mount, an unknown user, a container that did not start).
build::RunChanges run_in_container(const build::RunRequest& request, const std::filesystem::path& cache_dir);

// run_in_container as a BuildOptions::run.
std::function<build::RunChanges(const build::RunRequest&)> run_step(std::filesystem::path cache_dir);

// The cache folder for RUN steps that build into the OCI layout at `layout_root`.
std::filesystem::path run_cache_beside(const std::filesystem::path& layout_root);

}  // namespace gkebuild::run_step
