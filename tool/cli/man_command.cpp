// `gkebuild __man DIR` (hidden): writes the manual pages (man_pages.h) into DIR; the build
// runs it, so the pages `cmake --install` and the .deb carry are the binary's own.
#include <filesystem>
#include <iostream>
#include <memory>

#include "base/atomic_file.h"
#include "base/exit_codes.h"
#include "base/version.h"
#include "tool/cli/command.h"
#include "tool/cli/man_pages.h"
#include "tool/cli/version_text.h"

namespace gkebuild::cli {
namespace {

int write_pages(const std::filesystem::path& dir) {
  CLI::App app{kGkebuildDescription};
  Action unused;
  for (const auto& command : registered_commands())
    if (command.name[0] != '_') command.setup(app, unused);
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "gkebuild.1", main_man_page(app, kVersion));
  for (const CLI::App* command : app.get_subcommands({}))
    write_file_atomically(dir / ("gkebuild-" + command->get_name() + ".1"), command_man_page(*command, kVersion));
  return kExitSuccess;
}

void setup(CLI::App& app, Action& action) {
  auto dir = std::make_shared<std::string>();
  auto* command = app.add_subcommand("__man", "Write the manual pages into DIR (for the build)");
  command->group("");
  command->add_option("dir", *dir, "the folder to write gkebuild.1 and gkebuild-COMMAND.1 into")->required();
  command->callback([&action, dir] { action = [dir] { return write_pages(*dir); }; });
}

const CommandRegistration registration(201, "__man", setup);

}  // namespace
}  // namespace gkebuild::cli
