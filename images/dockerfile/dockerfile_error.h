// An error that points at a line (and column) of a Dockerfile or another input.
// images/ is below tool/, so the CLI turns this into its own diagnostic type.
#pragma once

#include <stdexcept>
#include <string>

namespace gkebuild::dockerfile {

class DockerfileError : public std::runtime_error {
 public:
  DockerfileError(std::string file, int line, int column, std::string message);
  const std::string& file() const { return file_; }
  int line() const { return line_; }      // 1-based; 0 when the error is about the whole file
  int column() const { return column_; }  // 1-based; 0 when unknown
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  int column_;
  std::string message_;
};

}  // namespace gkebuild::dockerfile
