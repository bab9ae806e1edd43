// The Dockerfile as BuildKit's parser reads it: every instruction with its line,
// flags (each with its column), the JSON or shell form of its arguments, and the
// heredocs (`RUN <<EOF`, `COPY <<EOF /dest`) that follow it. What an instruction
// means is the builder's business; the parser only refuses what it cannot read
// (unknown instructions and flags, malformed heredocs) with file:line:col.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gkebuild::dockerfile {

enum class Keyword {
  kFrom, kArg, kEnv, kLabel, kWorkdir, kUser, kCopy, kEntrypoint, kCmd, kExpose, kVolume,
  kStopSignal, kRun, kAdd, kShell, kHealthcheck, kOnbuild, kMaintainer
};

struct Flag {
  std::string name;   // "chown" for --chown=…
  std::string value;  // empty for a bare flag (--link)
  bool has_value = false;
  int column = 0;     // where "--" is, for messages
};

// `<<EOF` … `EOF`: the body is every line in between, each with its newline.
struct Heredoc {
  std::string name;         // the delimiter: "EOF"
  std::string body;
  bool expand = true;       // the delimiter was not quoted: $VARS are expanded (COPY/ADD)
  bool strip_tabs = false;  // `<<-EOF`: leading tabs are removed from each line
};

struct Instruction {
  Keyword keyword;
  std::string name;        // as written, upper-cased: "COPY"
  std::string arguments;   // text after the keyword and flags, continuations joined
  std::vector<Flag> flags;
  // The JSON array form (["a","b"]) when the arguments are one.
  std::optional<std::vector<std::string>> json;
  std::vector<Heredoc> heredocs;  // in the order their markers appear
  int line = 0;            // where the instruction starts
  int column = 0;          // where its arguments start
  std::string text;        // the whole instruction, for history's created_by

  const Flag* flag(std::string_view flag_name) const {
    for (const auto& f : flags)
      if (f.name == flag_name) return &f;
    return nullptr;
  }
};

struct Dockerfile {
  std::string file;  // as named by the user, for messages
  std::string source;
  char escape = '\\';
  std::vector<Instruction> instructions;
};

// Throws DockerfileError naming file:line:col for malformed or refused instructions.
Dockerfile parse(std::string_view source, std::string file);

// The heredoc marker a word is (`<<EOF`, `<<-"EOF"`, `3<<'X'`), if it is one.
std::optional<Heredoc> heredoc_marker(std::string_view word);

// The body with `<<-`'s leading tabs removed from each line.
std::string heredoc_text(const Heredoc& heredoc);

}  // namespace gkebuild::dockerfile
