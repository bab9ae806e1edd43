// A flag whose text is one of a few names, each standing for a value of an enum (submit's
// --logs and --network). CLI11 checks the name as it checks any set, so a wrong one gets the
// same message and exit code as every other flag; --help lists the names and the default's;
// and the name becomes the enum here, so no library reads the flag's text.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <utility>
#include <vector>

namespace gkebuild::cli {

// Flag text -> value, in the order --help lists them.
template <class Enum>
using Choices = std::vector<std::pair<std::string, Enum>>;

// Binds `flag` to `target`; the value `target` holds now is the default --help shows.
template <class Enum>
CLI::Option* add_choice_option(CLI::App& command, const std::string& flag, Enum& target, const Choices<Enum>& choices,
                               const std::string& description) {
  std::vector<std::string> names;
  std::string default_name;
  for (const auto& [name, value] : choices) {
    names.push_back(name);
    if (value == target) default_name = name;
  }
  // Runs only for a name IsMember accepted.
  auto store = [&target, choices](const std::string& text) {
    for (const auto& [name, value] : choices)
      if (name == text) target = value;
  };
  return command.add_option_function<std::string>(flag, store, description)
      ->check(CLI::IsMember(names))
      ->default_str(default_name);
}

}  // namespace gkebuild::cli
