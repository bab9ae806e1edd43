// Shell completion (`gkebuild __complete`) comes from the CLI's own definitions and gkebuild's
// tables, never from a hand list: every flag `--help` shows, of gkebuild itself and of every
// command and subcommand, is offered (and none it hides); every value a flag's --help lists
// ({a,b,c}) is offered for it; the validate rules, the catalog's accelerators and render's
// targets come from their tables. --help is CLI11's own account of the definitions, so a flag
// or command added without reaching completion fails here.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/common/run.h"

namespace gkebuild::testing {
namespace {

using Names = std::set<std::string>;

std::string gkebuild(const std::string& arguments) {
  const CommandResult result = run_gkebuild(arguments);
  EXPECT_EQ(result.exit_code, 0) << arguments << "\n" << result.all();
  return result.out;
}

// The candidates `gkebuild __complete` prints for the words (shell text; the last is completed).
Names completed(const std::string& words) {
  std::istringstream lines(gkebuild("__complete -- " + words));
  Names names;
  for (std::string line; std::getline(lines, line);) names.insert(line);
  return names;
}

// The lines of one section of --help ("Options:", "Subcommands:", "Positionals:").
std::vector<std::string> section(const std::string& help, const std::string& title) {
  std::vector<std::string> lines;
  std::istringstream in(help);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != ' ') inside = line == title;
    else if (inside && line.size() > 2 && line[2] != ' ') lines.push_back(line.substr(2));
  }
  return lines;
}

std::string first_word(const std::string& line) { return line.substr(0, line.find(' ')); }

// "-o,--output TEXT:{text,json}" -> {-o, --output}.
Names flags_in(const std::string& help) {
  Names flags;
  for (const auto& line : section(help, "Options:")) {
    std::istringstream names(first_word(line));
    for (std::string name; std::getline(names, name, ',');) flags.insert(name);
  }
  return flags;
}

// "{text,json}" of a line of --help, split; empty when it lists none.
Names choices_in(const std::string& line) {
  static const std::regex listed(":\\{([^}]*)\\}");
  std::smatch match;
  Names names;
  if (!std::regex_search(line, match, listed)) return names;
  std::istringstream list(match[1].str());
  for (std::string name; std::getline(list, name, ',');) names.insert(name);
  return names;
}

// Every command path (as words: "cluster render") --help lists, subcommands included.
std::vector<std::string> command_paths(const std::string& prefix = "") {
  std::vector<std::string> paths;
  for (const auto& line : section(gkebuild(prefix + " --help"), "Subcommands:")) {
    const std::string path = (prefix.empty() ? "" : prefix + " ") + first_word(line);
    paths.push_back(path);
    for (const auto& deeper : command_paths(path)) paths.push_back(deeper);
  }
  return paths;
}

TEST(Completion, OffersTheCommandsHelpListsAndNoHiddenOne) {
  Names listed{"help"};
  for (const auto& line : section(gkebuild("--help"), "Subcommands:")) listed.insert(first_word(line));
  EXPECT_EQ(completed("''"), listed);  // not controller (the controller Job's) nor __complete
}

TEST(Completion, OffersEveryFlagOfGkebuildAndOfEveryCommand) {
  EXPECT_EQ(completed("-"), flags_in(gkebuild("--help")));  // --version, --cache-dir
  const auto paths = command_paths();
  EXPECT_GE(paths.size(), 20u);
  for (const auto& path : paths) {
    const Names flags = flags_in(gkebuild(path + " --help"));
    EXPECT_TRUE(flags.count("--help")) << path;
    EXPECT_EQ(completed(path + " -"), flags) << "gkebuild " << path;
  }
}

TEST(Completion, OffersEveryChoiceAFlagOrArgumentLists) {
  int flags_with_choices = 0;
  for (const auto& path : command_paths()) {
    const std::string help = gkebuild(path + " --help");
    for (const auto& line : section(help, "Options:")) {
      const Names choices = choices_in(line);
      if (choices.empty()) continue;
      ++flags_with_choices;
      const std::string flag = first_word(line).substr(first_word(line).rfind(',') + 1);
      EXPECT_EQ(completed(path + " " + flag + " ''"), choices) << "gkebuild " << path << " " << flag;
    }
    for (const auto& line : section(help, "Positionals:"))
      for (const auto& choice : choices_in(line)) EXPECT_TRUE(completed(path + " ''").count(choice)) << path << ": " << choice;
  }
  EXPECT_GE(flags_with_choices, 10);  // --output of several commands, --fail-on, submit's --logs …
  EXPECT_EQ(completed("completion ''"), (Names{"bash", "zsh", "fish"}));
}

TEST(Completion, OffersTheRulesAndAcceleratorsFromTheirTables) {
  Names rules;
  std::istringstream listed(gkebuild("validate --list-rules"));
  for (std::string line; std::getline(listed, line);)
    if (!line.empty() && line[0] != ' ') rules.insert(first_word(line));
  EXPECT_GE(rules.size(), 25u);
  EXPECT_EQ(completed("validate --disable ''"), rules);
  Names accelerators;
  std::istringstream catalog(gkebuild("accelerators"));
  std::string header;
  std::getline(catalog, header);  // NAME GPU …; the table ends at a blank line
  for (std::string line; std::getline(catalog, line) && !line.empty();) accelerators.insert(first_word(line));
  EXPECT_TRUE(accelerators.count("nvidia-l4"));
  EXPECT_EQ(completed("submit gemm --accelerator ''"), accelerators);
}

TEST(Completion, OffersRendersTargetsAsRenderNamesThem) {
  const std::string project = std::string(GKEBUILD_SOURCE_ROOT) + "/examples/gemm-compare/gkebuild.yaml";
  EXPECT_EQ(completed("render -f " + shell_quoted(project) + " ''"),
            (Names{"namespace", "driver-installer", "storage", "kueue", "compute-classes", "gemm", "experiment/gemm",
                   "pod/gemm", "image/gemm"}));
  EXPECT_EQ(completed("submit -f " + shell_quoted(project) + " ''"), Names{"gemm"});
  EXPECT_EQ(completed("image -f " + shell_quoted(project) + " ''"), Names{"gemm"});
}

// --cache-dir DIR may stand anywhere (main takes it out first); completion reads past it.
TEST(Completion, ReadsPastTheCacheDir) {
  EXPECT_TRUE(completed("--cache-dir /tmp/c sub").count("submit"));
  EXPECT_TRUE(completed("submit --cache-dir=/tmp/c --dry").count("--dry-run"));
  EXPECT_TRUE(completed("--cache-dir /tmp/c validate --disable ''").count("gpu-zero"));
  EXPECT_EQ(completed("submit --cache-dir ''"), Names{});  // a folder: the shell's file names
}

}  // namespace
}  // namespace gkebuild::testing
