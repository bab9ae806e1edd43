// An error that points at a line (and column) of a Dockerfile: a positioned
// SourceError, so the CLI prints it with the offending line and a caret.
#pragma once

#include <string>
#include <string_view>

#include "base/source_error.h"

namespace gkebuild::dockerfile {

class DockerfileError : public SourceError {
 public:
  // `source` is the Dockerfile's text, for the caret; empty when it could not be read.
  // kind kFailed: an instruction that was well formed but failed when it ran (RUN).
  DockerfileError(std::string file, int line, int column, std::string message, std::string_view source = {},
                  ErrorKind kind = ErrorKind::kBadInput)
      : SourceError(SourceLocation{std::move(file), line, column}, std::move(message), source, kind) {}
  const std::string& file() const { return where().file; }
  int line() const { return where().line; }      // 1-based; 0 when the error is about the whole file
  int column() const { return where().column; }  // 1-based; 0 when unknown
};

}  // namespace gkebuild::dockerfile
