// A parsed YAML file that remembers its name and text, so that any node in it
// can be turned into a "file:line:col" error with the source line and a caret.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <filesystem>
#include <string>

#include "base/source_error.h"

namespace gkebuild::yamlfile {

// Project, values and catalog files are read whole; anything larger than this is
// refused before it is read (a values file is configuration, not data).
inline constexpr std::size_t kMaxFileBytes = 16u << 20;  // 16 MiB

class Document {
 public:
  // Parses `text`; a YAML syntax error throws SourceError at its position.
  // An empty text is a document whose root is null.
  static Document parse(std::string text, std::string file_name);
  // Reads and parses `path`; a missing, unreadable or too large file throws SourceError.
  static Document load(const std::filesystem::path& path, std::size_t max_bytes = kMaxFileBytes);

  const YAML::Node& root() const { return root_; }
  const std::string& file() const { return file_; }
  const std::string& text() const { return text_; }

  // Where `node` starts in this file (line and column 0 when yaml-cpp has no mark).
  SourceLocation where(const YAML::Node& node) const;
  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const;

 private:
  std::string file_;
  std::string text_;
  YAML::Node root_;
};

// Reads a whole text file of at most `max_bytes`, as SourceError on failure.
std::string read_bounded(const std::filesystem::path& path, std::size_t max_bytes = kMaxFileBytes);

}  // namespace gkebuild::yamlfile
