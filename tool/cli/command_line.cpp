#include "tool/cli/command_line.h"

#include "base/printable.h"
#include "base/source_error.h"
#include "base/suggest.h"
#include "tool/cli/version_text.h"

namespace gkebuild::cli {

void add_root_options(CLI::App& app) {
  app.set_version_flag("--version", version_text, "Print the version, git commit and build type");
  app.add_option("--cache-dir", "the machine-wide store (blobs, unpacked layers, build cache) for this command; "
                                 "default $XDG_CACHE_HOME/gkebuild, /var/cache/gkebuild as root; also GKEBUILD_CACHE_DIR")
      ->type_name("DIR");  // taken out of the arguments before parsing, wherever it stands (take_cache_dir)
}

std::vector<std::string> command_line_arguments(int argc, char** argv) {
  std::vector<std::string> arguments(argv, argv + argc);
  if (arguments.size() > 1 && arguments[1] == "help") {
    arguments.erase(arguments.begin() + 1);
    arguments.push_back("--help");
  }
  return arguments;
}

std::optional<std::string> unknown_command_message(const std::vector<std::string>& arguments,
                                                   const std::vector<std::string>& command_names) {
  if (arguments.size() < 2 || arguments[1].empty() || arguments[1].front() == '-') return std::nullopt;
  const std::string& name = arguments[1];
  for (const auto& known : command_names)
    if (name == known) return std::nullopt;
  return "gkebuild: error: unknown command '" + printable(name) + "'" + did_you_mean(name, command_names) +
         "\nRun 'gkebuild --help' for the commands.";
}

namespace {

// Every spelling of every option of `command`: "--values", "-o", …
std::vector<std::string> flag_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const auto& name : option->get_lnames()) names.push_back("--" + name);
    for (const auto& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

}  // namespace

std::string unknown_flags_message(const CLI::App& command, const std::vector<std::string>& arguments) {
  const auto known = flag_names(command);
  std::string message;
  for (std::size_t i = 2; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument == "--") break;
    if (argument.size() < 2 || argument.front() != '-') continue;
    // --name=value and -ovalue: the flag is the part before the value.
    std::string flag = argument.substr(0, argument.find('='));
    if (!flag.starts_with("--")) flag = flag.substr(0, 2);
    if (std::find(known.begin(), known.end(), flag) != known.end()) continue;
    message += "gkebuild " + command.get_name() + ": error: unknown flag '" + printable(flag) + "'" +
               did_you_mean(flag, known) + "\n";
  }
  if (!message.empty()) message += "Run 'gkebuild " + command.get_name() + " --help' for its flags.";
  return message;
}

std::optional<std::string> take_cache_dir(std::vector<std::string>& arguments) {
  std::optional<std::string> dir;
  for (size_t i = 1; i < arguments.size();) {
    const std::string& argument = arguments[i];
    if (argument == "--") break;
    if (argument == "--cache-dir" || argument.starts_with("--cache-dir=")) {
      const bool joined = argument != "--cache-dir";
      if (!joined && i + 1 == arguments.size())
        throw SourceError(SourceLocation{"gkebuild"}, "--cache-dir needs a folder: where gkebuild keeps blobs and unpacked layers");
      dir = joined ? argument.substr(12) : arguments[i + 1];
      if (dir->empty()) throw SourceError(SourceLocation{"gkebuild"}, "--cache-dir needs a folder, got an empty one");
      arguments.erase(arguments.begin() + static_cast<long>(i), arguments.begin() + static_cast<long>(i + (joined ? 1 : 2)));
      continue;
    }
    ++i;
  }
  return dir;
}

}  // namespace gkebuild::cli
