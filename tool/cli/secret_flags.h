// --secret id=ID,src=FILE|env=VAR of `gkebuild image` and `gkebuild submit`: the build secrets
// given on the command line. They are also the user's consent to an image's `secrets:` entry
// that names a variable (a project file cannot take one from the environment by itself).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gkebuild::cli {

// Parses each spec and reads its value now (a file relative to the working folder, or a
// variable), keyed by id; a later id replaces an earlier one. A malformed spec is a
// SourceError located at `command`; a missing file or variable is bad input naming the id.
std::map<std::string, std::string> read_secret_flags(const std::vector<std::string>& specs, const std::string& command);

}  // namespace gkebuild::cli
