// A gkebuild project file among the manifests (`apiVersion: gkebuild/v1`, a pre-commit hook
// run on every *.yaml sees gkebuild.yaml too): checked with the project loader itself, so
// validate accepts what every command accepts and names what it refuses (unknown keys with a
// "did you mean", wrong types, unknown accelerators) at file:line:col.
#pragma once

#include <string>
#include <vector>

#include "tool/steps/validate/finding.h"

namespace gkebuild::validate {

inline constexpr const char* kProjectApiVersion = "gkebuild/v1";

// The findings of the project file `text` (named `file`): none, or the loader's first error.
std::vector<Finding> check_project_file(const std::string& text, const std::string& file);

}  // namespace gkebuild::validate
