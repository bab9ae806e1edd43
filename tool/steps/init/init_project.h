// `gkebuild init`: writes a new project that renders, validates and runs with
// `gkebuild submit EXPERIMENT --local` as it stands: gkebuild.yaml, the image's Dockerfile
// (or a CMake project), a small program that prints a result line, and .dockerignore.
// It never overwrites a file: when one of them exists, nothing is written.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gkebuild::init {

struct InitOptions {
  std::string template_name = "python";  // python | cmake-cuda | dockerfile
  std::filesystem::path dir = ".";
  std::string project;  // empty: from the folder's name
  std::string from;     // the Dockerfile's base image; empty: the template's default
  std::string registry = "us-central1-docker.pkg.dev/my-gcp-project/experiments";
};

std::vector<std::string> template_names();
// The base image a template's Dockerfile starts FROM unless --from names another ("" for
// cmake-cuda, whose image is FROM scratch around the built program).
std::string default_base(const std::string& template_name);

// A DNS label made of `folder_name` (lower case, '-' for anything else), "experiment" if none is left.
std::string project_name_of(const std::string& folder_name);

// Writes the files; returns their paths. Throws Error(kBadInput) for an unknown template, a
// bad project name, or files that exist (all named), before anything is written.
std::vector<std::filesystem::path> init_project(const InitOptions& options);

// What the template's experiment is called (for the next steps printed after init).
std::string experiment_of(const std::string& template_name);

}  // namespace gkebuild::init
