// `gkebuild version`: the version, the git commit and the build type, as `kubectl version
// --client` prints its own; -o json for scripts.
#include <iostream>

#include <nlohmann/json.hpp>

#include "base/exit_codes.h"
#include "base/version.h"
#include "tool/cli/command.h"
#include "tool/cli/git_commit.h"
#include "tool/cli/output_flags.h"
#include "tool/cli/version_text.h"

namespace gkebuild::cli {

#ifndef GKEBUILD_BUILD_TYPE
#define GKEBUILD_BUILD_TYPE "none"
#endif

std::string version_text() {
  return std::string("gkebuild ") + kVersion + "\ngit commit: " + kGitCommit + "\nbuild type: " + GKEBUILD_BUILD_TYPE;
}

namespace {

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<OutputFlags>(OutputFlags{"text"});
  auto* command = app.add_subcommand("version", "Print the gkebuild version, git commit and build type");
  add_output_flags(*command, *flags, {"text", "json"}, "text, or json", false);
  command->callback([&action, flags] {
    action = [flags] {
      if (flags->format == "json")
        std::cout << nlohmann::ordered_json{{"version", kVersion}, {"gitCommit", kGitCommit}, {"buildType", GKEBUILD_BUILD_TYPE}}
                         .dump(2)
                  << "\n";
      else
        std::cout << version_text() << "\n";
      return kExitSuccess;
    };
  });
}

const CommandRegistration registration(100, "version", setup);

}  // namespace
}  // namespace gkebuild::cli
