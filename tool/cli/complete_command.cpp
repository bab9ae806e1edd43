// `gkebuild __complete -- WORD…` (hidden): the candidates for the last WORD of a command line
// being typed (it may be empty), one per line, for the shell scripts of `gkebuild
// completion`. Commands, their flags and the choices of a flag come from the CLI definitions
// themselves; experiment, image, render target and run names from the project (the nearest
// gkebuild.yaml, or the one -f/--file names); accelerators and rule ids from gkebuild's own tables.
// The shell filters by prefix; nothing printed means "complete file names".
#include <algorithm>
#include <iostream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "base/exit_codes.h"
#include "base/error.h"
#include "tool/cli/command.h"
#include "tool/cli/command_line.h"
#include "tool/cli/project_flags.h"
#include "tool/core/catalog/catalog.h"
#include "tool/core/kube/object_names.h"
#include "tool/core/project/project.h"
#include "tool/core/runrecord/run_store.h"
#include "tool/steps/render/targets.h"
#include "tool/steps/validate/rules.h"

namespace gkebuild::cli {
namespace {

using Words = std::vector<std::string>;

// Commands are set up here only to be read: what they would run is never run.
Action unused_action;

// The named command, set up on an app of its own (nullptr for an unknown name).
CLI::App* set_up_alone(CLI::App& app, const std::string& name) {
  for (const auto& command : registered_commands())
    if (name == command.name) {
      command.setup(app, unused_action);
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

CLI::Option* option_named(CLI::App& command, const std::string& word) {
  for (CLI::Option* option : command.get_options())
    if (option->nonpositional() && option->check_name(word)) return option;
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

Words run_folders(const Words& words) {
  Words names;
  for (const auto& run : runrecord::list_runs(project_in(words).parent_path()))
    if (could_be_run_folder(run.filename().string())) names.push_back(run.filename());
  return names;
}

Words experiments(const Words& words) { return project::load_project(project_in(words)).experiment_names(); }
Words images(const Words& words) { return project::load_project(project_in(words)).image_names(); }
Words render_targets(const Words& words) { return render::target_names(project::load_project(project_in(words))); }
Words accelerators(const Words&) { return catalog::Catalog::builtin().labels(); }
Words rules(const Words&) { return validate::rule_ids(); }

// The values an argument or flag takes, by the name the command gives it (its positional's name,
// or its long flag): the project's names, or gkebuild's own tables (the catalog, the rules).
struct ValueSource {
  const char* name;
  Words (*values)(const Words& words);
};
constexpr ValueSource kValueSources[] = {
    {"run", run_folders},       {"runs", run_folders},         {"experiment", experiments},
    {"images", images},         {"targets", render_targets},   {"--accelerator", accelerators},
    {"--disable", rules},
};

// The names a CLI::IsMember check accepts (--output's formats, `completion`'s shells): read
// from its description ("{a,b,c}"), each kept only if the check itself accepts it.
Words choices(CLI::Option& option) {
  Words names;
  for (int index = 0;; ++index) {
    const CLI::Validator* check = nullptr;
    try {
      check = option.get_validator(index);
    } catch (const CLI::OptionNotFound&) {
      return names;  // CLI11 names no count of an option's checks
    }
    const std::string set = check->get_description();
    if (set.size() < 2 || set.front() != '{' || set.back() != '}') continue;
    std::stringstream list(set.substr(1, set.size() - 2));
    for (std::string name; std::getline(list, name, ',');)
      if (std::string copy = name; (*check)(copy).empty()) names.push_back(name);
  }
}

// The candidates for a value of `option`: its source by name, else its choices.
Words values_of(CLI::Option& option, const Words& words) {
  const std::string name = !option.nonpositional()       ? option.get_name()
                           : option.get_lnames().empty() ? ""
                                                         : "--" + option.get_lnames().front();
  for (const ValueSource& source : kValueSources) {
    if (name != source.name) continue;
    try {
      return source.values(words);
    } catch (const std::exception&) {
      return {};  // no project here, or a broken one: nothing to offer but file names
    }
  }
  return choices(option);
}

// The commands --help lists (not the hidden ones: __complete, controller), and help.
Words first_word_candidates() {
  CLI::App app;
  for (const auto& command : registered_commands()) command.setup(app, unused_action);
  Words names{"help"};
  for (const CLI::App* command : app.get_subcommands({}))
    if (!command->get_group().empty()) names.push_back(command->get_name());
  return names;
}

// Every long and short spelling of the command's flags that --help shows.
Words flags_of(const CLI::App& command) {
  Words names;
  for (const CLI::Option* option : command.get_options()) {
    if (option->get_group().empty()) continue;  // hidden
    for (const auto& name : option->get_lnames()) names.push_back("--" + name);
    for (const auto& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

// The words with every `--cache-dir DIR` taken out, as main takes them out before parsing.
Words without_cache_dir(const Words& words) {
  Words arguments{"gkebuild"};
  arguments.insert(arguments.end(), words.begin(), words.end());
  try {
    take_cache_dir(arguments);
  } catch (const Error&) {
    // --cache-dir '' : left for the command line to refuse
  }
  return {arguments.begin() + 1, arguments.end()};
}

Words candidates(Words words) {
  const std::string typed = words.back();
  words.pop_back();
  if (!words.empty() && words.back() == "--cache-dir") return {};  // a folder
  words = without_cache_dir(words);
  words.push_back(typed);
  if (words.size() <= 1) {
    if (typed.empty() || typed[0] != '-') return first_word_candidates();
    CLI::App root;
    add_root_options(root);
    return flags_of(root);
  }
  if (words[0] == "help" && words.size() == 2) return first_word_candidates();
  CLI::App app;
  CLI::App* command = set_up_alone(app, words[0]);
  if (command == nullptr) return {};
  std::size_t next = 1;
  command = deepest_command(command, words, next);
  const std::string& current = words.back();
  const std::string& previous = words[words.size() - 2];
  if (CLI::Option* option = option_named(*command, previous); option && option->get_type_size() != 0)
    return values_of(*option, words);  // nothing: a value to type, or a file name
  if (!current.empty() && current[0] == '-') return flags_of(*command);
  Words names;
  for (const CLI::App* child : command->get_subcommands({})) names.push_back(child->get_name());
  if (!names.empty()) return names;
  for (CLI::Option* option : command->get_options())
    if (!option->get_group().empty() && !option->nonpositional())
      for (auto& name : values_of(*option, words))
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  return names;
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
      Words shown;
      for (const auto& candidate : candidates(all))
        if (std::find(shown.begin(), shown.end(), candidate) == shown.end()) shown.push_back(candidate);
      for (const auto& candidate : shown) std::cout << candidate << "\n";
      return kExitSuccess;
    };
  });
}

const CommandRegistration registration(200, "__complete", setup);

}  // namespace
}  // namespace gkebuild::cli
