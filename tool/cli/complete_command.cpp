// `gkebuild __complete -- WORD…` (hidden): the candidates for the last WORD of a command line
// being typed (it may be empty), one per line, for the shell scripts of `gkebuild
// completion`. Commands and their flags come from the CLI definitions themselves; experiment,
// image and run names from the project (the nearest gkebuild.yaml, or the one -f/--file
// names). The shell filters by prefix; nothing printed means "complete file names".
#include <iostream>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "base/exit_codes.h"
#include "tool/cli/command.h"
#include "tool/cli/project_flags.h"
#include "tool/core/catalog/catalog.h"
#include "tool/core/kube/object_names.h"
#include "tool/core/project/project.h"
#include "tool/core/runrecord/run_store.h"

namespace gkebuild::cli {
namespace {

using Words = std::vector<std::string>;

// The named command, set up on an app of its own (nullptr for an unknown name).
CLI::App* set_up_alone(CLI::App& app, const std::string& name) {
  static Action unused;
  for (const auto& command : registered_commands())
    if (name == command.name) {
      command.setup(app, unused);
      return app.get_subcommand(name);
    }
  return nullptr;
}

// The subcommand chain the words name ("cluster", "up"), deepest last.
CLI::App* deepest_command(CLI::App* command, const Words& words, std::size_t& next) {
  while (next + 1 < words.size()) {
    CLI::App* child = nullptr;
    for (CLI::App* candidate : command->get_subcommands({}))
      if (candidate->get_name() == words[next]) child = candidate;
    if (child == nullptr) break;
    command = child;
    ++next;
  }
  return command;
}

const CLI::Option* option_named(const CLI::App& command, const std::string& word) {
  for (const CLI::Option* option : command.get_options())
    if (option->check_name(word)) return option;
  return nullptr;
}

// -f/--file FILE among the words, else the project file found upwards.
std::filesystem::path project_in(const Words& words) {
  ProjectFlags flags;
  for (std::size_t i = 0; i + 1 < words.size(); ++i)
    if (words[i] == "--file" || words[i] == "-f") flags.file = words[i + 1];
  return project_file(flags);
}

// Whether `name` is one `gkebuild submit` could have given a run folder: EXPERIMENT (a DNS
// label) -YYYYMMDD-HHMMSS, -2, -3… on a clash. Any other folder under .gkebuild/runs was put
// there by someone else (a checkout may hold `$(touch x)`): it is never offered, as a shell
// would put it on the command line as it is.
bool could_be_run_folder(const std::string& name) {
  static const std::regex stamp(".*-[0-9]{8}-[0-9]{6}(-[0-9]+)?");
  return kube::is_dns_label(name) && std::regex_match(name, stamp);
}

Words project_names(const std::string& command, const Words& words) {
  Words names;
  try {
    if (command == "status" || command == "logs" || command == "delete" || command == "report") {
      for (const auto& run : runrecord::list_runs(project_in(words).parent_path()))
        if (could_be_run_folder(run.filename().string())) names.push_back(run.filename());
      return names;
    }
    const auto project = project::load_project(project_in(words));
    if (command == "submit" || command == "render")
      for (const auto& experiment : project.experiments) names.push_back(experiment.name);
    if (command == "image" || command == "render")
      for (const auto& image : project.images) names.push_back(image.name);
    if (command == "render")
      for (const char* fixed : {"namespace", "driver-installer", "storage", "kueue"}) names.push_back(fixed);
  } catch (const std::exception&) {
    // No project here, or a broken one: nothing to offer but file names.
  }
  return names;
}

Words first_word_candidates() {
  Words names{"help"};
  for (const auto& command : registered_commands())
    if (command.name[0] != '_') names.push_back(command.name);
  return names;
}

Words candidates(const Words& words) {
  if (words.size() <= 1) return first_word_candidates();
  if (words[0] == "help" && words.size() == 2) return first_word_candidates();
  if (words[0] == "completion") return words.size() == 2 ? Words{"bash", "zsh", "fish"} : Words{};
  CLI::App app;
  CLI::App* command = set_up_alone(app, words[0]);
  if (command == nullptr) return {};
  std::size_t next = 1;
  command = deepest_command(command, words, next);
  const std::string& current = words.back();
  const std::string& previous = words[words.size() - 2];
  if (const CLI::Option* option = option_named(*command, previous); option && option->get_type_size() != 0) {
    if (option->check_name("--accelerator")) return catalog::Catalog::builtin().labels();
    return {};  // a value to type, or a file name
  }
  Words names;
  if (!current.empty() && current[0] == '-') {
    for (const CLI::Option* option : command->get_options()) {
      if (option->get_group().empty()) continue;  // hidden
      for (const auto& name : option->get_lnames()) names.push_back("--" + name);
      for (const auto& name : option->get_snames()) names.push_back("-" + name);
    }
    return names;
  }
  for (const CLI::App* child : command->get_subcommands({})) names.push_back(child->get_name());
  if (!names.empty()) return names;
  return project_names(words[0], words);
}

void setup(CLI::App& app, Action& action) {
  auto words = std::make_shared<Words>();
  auto* command = app.add_subcommand("__complete", "Print completion candidates (for the completion scripts)");
  command->group("");
  // After "--": the words may look like flags ("--va" being completed).
  command->add_option("words", *words, "the words after `gkebuild`, the one being completed last");
  command->callback([&action, words] {
    action = [words] {
      Words all = *words;
      if (all.empty()) all.push_back("");
      for (const auto& candidate : candidates(all)) std::cout << candidate << "\n";
      return kExitSuccess;
    };
  });
}

const CommandRegistration registration(200, "__complete", setup);

}  // namespace
}  // namespace gkebuild::cli
