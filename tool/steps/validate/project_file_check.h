// A gkebuild project file among the manifests (`apiVersion: gkebuild/v1`, a pre-commit hook
// run on every *.yaml sees gkebuild.yaml too): checked with the project loader itself, so
// validate accepts what every command accepts and names what it refuses (unknown keys with a
// "did you mean", wrong types, unknown accelerators) at file:line:col.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tool/core/project/project.h"

#include "tool/steps/validate/finding.h"

namespace gkebuild::validate {

inline constexpr const char* kProjectApiVersion = "gkebuild/v1";

// Checks of a loaded project beyond the loader's own (see ValidateOptions::project_check).
using ProjectCheck = std::function<void(const project::Project&)>;

// The findings of the project file `text` (named `file`): none, or the first error of the
// loader, then of `more` (when given).
std::vector<Finding> check_project_file(const std::string& text, const std::string& file,
                                        const ProjectCheck& more = {});

}  // namespace gkebuild::validate
