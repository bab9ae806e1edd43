// Secret values kept out of what gkebuild shows and keeps: a program (a RUN, a Job) that
// prints a secret it was given has that value replaced by "***" in the lines gkebuild
// prints, logs and puts in error messages, as CI systems mask their secrets.
#pragma once

#include <string>
#include <vector>

namespace gkebuild {

// `text` with every occurrence of every non-empty value replaced by "***".
std::string mask_secrets(std::string text, const std::vector<std::string>& values);

}  // namespace gkebuild
