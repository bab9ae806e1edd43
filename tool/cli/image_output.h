// Where `gkebuild image` writes (-o oci:DIR or docker-archive:FILE) and, with
// --push, how it prints what it pushed (-o text or json): -o may be given once
// for each.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "registry/remote/push.h"

namespace gkebuild::cli {

struct Output {
  std::filesystem::path layout;
  std::string archive;          // docker-archive:FILE, empty when none
  std::string format = "text";  // of what --push prints
};

// Throws SourceError for a value it does not know, two of a kind, a format
// without --push, or docker-archive with --push.
Output parse_output(const std::vector<std::string>& values, bool push, const std::filesystem::path& default_layout);

// One digest reference a line, or the -o json array (with "image" where the
// name is not empty).
void print_pushed(const std::vector<std::pair<std::string, registry::PushResult>>& pushed, const Output& output);

}  // namespace gkebuild::cli
