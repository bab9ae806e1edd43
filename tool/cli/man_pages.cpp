#include "tool/cli/man_pages.h"

#include <cctype>
#include <cstdio>

namespace gkebuild::cli {
namespace {

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string header(const std::string& name, const std::string& version) {
  return ".TH " + roff_escaped(upper(name)) + " 1 \"\" \"gkebuild " + roff_escaped(version) +
         "\" \"gkebuild manual\"\n";
}

// "-o, --output TEXT": the option's spellings and, unless a flag, its value's name.
std::string option_terms(const CLI::Option& option) {
  std::string terms;
  for (const auto& name : option.get_snames()) terms += (terms.empty() ? "" : ", ") + ("\\fB\\-" + roff_escaped(name) + "\\fR");
  for (const auto& name : option.get_lnames())
    terms += (terms.empty() ? "" : ", ") + ("\\fB\\-\\-" + roff_escaped(name) + "\\fR");
  if (option.get_type_size() != 0) terms += " \\fI" + roff_escaped(option.get_type_name()) + "\\fR";
  return terms;
}

std::string options_section(const CLI::App& command) {
  std::string positional, flags;
  for (const CLI::Option* option : command.get_options()) {
    if (option->get_group().empty()) continue;  // hidden
    if (option->nonpositional()) {
      flags += ".TP\n" + option_terms(*option) + "\n" + roff_escaped(option->get_description()) + "\n";
    } else {
      positional += ".TP\n\\fI" + roff_escaped(option->get_name()) + "\\fR" +
                    (option->get_required() ? "" : " (optional)") + "\n" + roff_escaped(option->get_description()) + "\n";
    }
  }
  std::string text;
  if (!positional.empty()) text += ".SH ARGUMENTS\n" + positional;
  if (!flags.empty()) text += ".SH OPTIONS\n" + flags;
  return text;
}

std::string synopsis(const CLI::App& command, const std::string& path) {
  std::string text = ".SH SYNOPSIS\n\\fB" + roff_escaped(path) + "\\fR";
  if (!command.get_subcommands({}).empty()) text += " \\fICOMMAND\\fR";
  text += " [\\fIOPTIONS\\fR]";
  for (const CLI::Option* option : command.get_options())
    if (!option->nonpositional() && !option->get_group().empty())
      text += option->get_required() ? " \\fI" + roff_escaped(upper(option->get_name())) + "\\fR"
                                     : " [\\fI" + roff_escaped(upper(option->get_name())) + "\\fR]";
  return text + "\n";
}

}  // namespace

std::string roff_escaped(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (line_start && (c == '.' || c == '\'')) out += "\\&";  // not a request
    line_start = c == '\n';
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      // UTF-8 ("…", "→", "×") as roff's \[uXXXX], so the page needs no preconv.
      const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
      unsigned code = c & (0x3F >> extra);
      for (int k = 0; k < extra && i + 1 < text.size(); ++k) code = (code << 6) | (static_cast<unsigned char>(text[++i]) & 0x3F);
      char escape[16];
      std::snprintf(escape, sizeof escape, "\\[u%04X]", code);
      out += escape;
    }
  }
  return out;
}

std::string command_man_page(const CLI::App& command, const std::string& version) {
  const std::string name = "gkebuild-" + command.get_name();
  std::string page = header(name, version);
  page += ".SH NAME\n" + roff_escaped(name) + " \\- " + roff_escaped(command.get_description()) + "\n";
  page += synopsis(command, "gkebuild " + command.get_name());
  page += ".SH DESCRIPTION\n" + roff_escaped(command.get_description()) + ".\n";
  page += options_section(command);
  const auto children = command.get_subcommands({});
  if (!children.empty()) {
    page += ".SH COMMANDS\n";
    for (const CLI::App* child : children) {
      page += ".SS \"" + roff_escaped("gkebuild " + command.get_name() + " " + child->get_name()) + "\"\n" +
              roff_escaped(child->get_description()) + "\n";
      for (const CLI::Option* option : child->get_options())
        if (!option->get_group().empty() && option->nonpositional())
          page += ".TP\n" + option_terms(*option) + "\n" + roff_escaped(option->get_description()) + "\n";
    }
  }
  page += ".SH EXIT STATUS\n0 success, 1 findings or a failed operation, 2 bad input or usage, 130 interrupted.\n";
  page += ".SH SEE ALSO\n\\fBgkebuild\\fR(1)\n";
  return page;
}

std::string main_man_page(const CLI::App& app, const std::string& version) {
  std::string page = header("gkebuild", version);
  page += ".SH NAME\ngkebuild \\- " + roff_escaped(app.get_description()) + "\n";
  page += ".SH SYNOPSIS\n\\fBgkebuild\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n";
  page += ".SH DESCRIPTION\n" + roff_escaped(app.get_description()) +
          ". Each command has its own page, \\fBgkebuild\\-\\fICOMMAND\\fR(1), and its own \\fB\\-\\-help\\fR; "
          "\\fBgkebuild help\\fR \\fICOMMAND\\fR is the same.\n";
  page += ".SH COMMANDS\n";
  std::string see_also;
  for (const CLI::App* command : app.get_subcommands({})) {
    if (command->get_group().empty()) continue;  // hidden
    page += ".TP\n\\fBgkebuild " + roff_escaped(command->get_name()) + "\\fR\n" +
            roff_escaped(command->get_description()) + "; see \\fBgkebuild\\-" + roff_escaped(command->get_name()) +
            "\\fR(1)\n";
    see_also += (see_also.empty() ? "" : ",\n") + ("\\fBgkebuild\\-" + roff_escaped(command->get_name()) + "\\fR(1)");
  }
  page += ".SH OPTIONS\n.TP\n\\fB\\-\\-help\\fR, \\fB\\-h\\fR\nPrint the commands and exit.\n"
          ".TP\n\\fB\\-\\-version\\fR\nPrint the version, git commit and build type.\n";
  page += ".SH EXIT STATUS\n0 success, 1 findings or a failed operation, 2 bad input or usage, 130 interrupted.\n";
  page += ".SH ENVIRONMENT\n.TP\n\\fBNO_COLOR\\fR\ngkebuild prints no colour in any case; "
          "progress and status redraws go to stderr only when it is a terminal.\n";
  page += ".SH SEE ALSO\n" + see_also + "\n";
  return page;
}

}  // namespace gkebuild::cli
