#include "dockerfile/dockerfile_error.h"

namespace gkebuild::dockerfile {
namespace {

std::string format(const std::string& file, int line, int column, const std::string& message) {
  std::string where = file;
  if (line > 0) where += ":" + std::to_string(line);
  if (line > 0 && column > 0) where += ":" + std::to_string(column);
  return where + ": " + message;
}

}  // namespace

DockerfileError::DockerfileError(std::string file, int line, int column, std::string message)
    : std::runtime_error(format(file, line, column, message)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      message_(std::move(message)) {}

}  // namespace gkebuild::dockerfile
