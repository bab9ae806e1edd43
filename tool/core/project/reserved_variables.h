// The template variables gkebuild sets itself in an experiment's command, args and env (render's
// args_context). The one list of them: the project parser refuses them as sweep, search and
// --set names (a variable of the same name would be hidden), render's variable check does not
// ask that they be read, render sets each, and docs/project-file.md lists them
// (scripts/check_docs.py compares that list with this one).
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace gkebuild::project {

// In the order the docs list them. `seed` may be a sweep axis: sweep.seed is the seed the Jobs see.
inline constexpr std::array<std::string_view, 6> kReservedVariables{"seed",        "values",  "experiment",
                                                                    "accelerator", "project", "run_id"};

inline bool is_reserved_variable(std::string_view name) {
  return std::find(kReservedVariables.begin(), kReservedVariables.end(), name) != kReservedVariables.end();
}

}  // namespace gkebuild::project
