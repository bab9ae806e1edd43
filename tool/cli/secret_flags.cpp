#include "tool/cli/secret_flags.h"

#include <filesystem>
#include <stdexcept>

#include "base/source_error.h"
#include "images/dockerfile_build/build_secrets.h"

namespace gkebuild::cli {

std::map<std::string, std::string> read_secret_flags(const std::vector<std::string>& specs, const std::string& command) {
  std::map<std::string, std::string> secrets;
  for (const auto& spec : specs) {
    build::SecretSource source;
    try {
      source = build::parse_secret_source(spec);
    } catch (const InputError& e) {
      throw SourceError(SourceLocation{command}, e.what());
    }
    secrets[source.id] = build::read_secret(source, std::filesystem::current_path());
  }
  return secrets;
}

}  // namespace gkebuild::cli
