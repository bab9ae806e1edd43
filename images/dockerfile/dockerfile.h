// The Dockerfile subset gkebuild builds itself: one stage, FROM scratch | oci:DIR[:TAG] |
// a registry reference, then ARG ENV LABEL WORKDIR USER COPY ENTRYPOINT CMD EXPOSE
// VOLUME STOPSIGNAL. Anything that needs a running container (RUN, …) is refused
// with the line it is on.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gkebuild::dockerfile {

enum class Keyword {
  kFrom, kArg, kEnv, kLabel, kWorkdir, kUser, kCopy, kEntrypoint, kCmd, kExpose, kVolume,
  kStopSignal
};

struct Flag {
  std::string name;   // "chown" for --chown=…
  std::string value;
  int column = 0;     // where "--" is, for messages
};

struct Instruction {
  Keyword keyword;
  std::string name;        // as written, upper-cased: "COPY"
  std::string arguments;   // text after the keyword and flags, continuations joined
  std::vector<Flag> flags;
  // The JSON array form (["a","b"]) when the arguments are one.
  std::optional<std::vector<std::string>> json;
  int line = 0;            // where the instruction starts
  int column = 0;          // where its arguments start
  std::string text;        // the whole instruction, for history's created_by
};

struct Dockerfile {
  std::string file;  // as named by the user, for messages
  std::string source;
  char escape = '\\';
  std::vector<Instruction> instructions;
};

// Throws DockerfileError naming file:line for malformed or refused instructions.
Dockerfile parse(std::string_view source, std::string file);

}  // namespace gkebuild::dockerfile
