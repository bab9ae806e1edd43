// Builds an image from a Dockerfile (the subset in dockerfile/dockerfile.h) and a
// build context, without a container: every COPY becomes one reproducible layer
// (cached in the store layout), every other instruction edits the config.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "image/image.h"
#include "layer/compression.h"
#include "oci/layout.h"

namespace gkebuild::build {

struct BuildOptions {
  std::filesystem::path dockerfile;  // as the user named it (for messages)
  std::filesystem::path context;
  std::map<std::string, std::string> build_args;  // --build-arg NAME=VALUE
  layer::CompressionOptions compression;
  int64_t source_date_epoch = 0;  // layer mtimes, config and history "created"
  // One line per step for a person watching; may be empty.
  std::function<void(const std::string&)> progress;
  // Fetches a registry base image into a layout; empty when no registry client is linked.
  std::function<image::Image(const std::string& reference)> pull;
};

struct BuildResult {
  image::Image image;
  int layers_built = 0;
  int layers_cached = 0;
};

// Layer blobs are written into `store` (its cache is used and updated). Throws
// dockerfile::DockerfileError (file:line) for bad input.
BuildResult build_image(const BuildOptions& options, std::shared_ptr<oci::Layout> store);

}  // namespace gkebuild::build
