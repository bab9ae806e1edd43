// A parsed YAML file that remembers its name and text, so that any node in it
// can be turned into a "file:line:col" error with the source line and a caret.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "base/input_file.h"
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
// `pipes` (base/input_file.h): Pipes::kRead for a file the user names on the command line
// (`--values <(…)`), which may be a pipe; everything else is read only as a regular file.
std::string read_bounded(const std::filesystem::path& path, std::size_t max_bytes = kMaxFileBytes,
                         Pipes pipes = Pipes::kRefuse);

// A whole input file for a parser that scans until a NUL: a NUL always follows its last byte.
// A large regular file is mapped from the page cache instead of read: reading copies it into
// a buffer the kernel must zero first, and on a 3.5 MB values file the copy and the zeroing
// were a tenth of the whole render. (A file truncated by another process while mapped would
// fault; values files are not written while gkebuild reads them.)
class FileText {
 public:
  explicit FileText(std::string text) : text_(std::move(text)) {}
  FileText(FileText&& other) noexcept;
  FileText& operator=(FileText&&) = delete;
  ~FileText();

  std::string_view view() const { return mapped_ ? std::string_view(mapped_, size_) : std::string_view(text_); }

 private:
  friend FileText read_text(const std::filesystem::path& path, std::size_t max_bytes, Pipes pipes);
  FileText() = default;

  std::string text_;
  const char* mapped_ = nullptr;  // when mapped: the mapping, of size_ bytes and a NUL
  std::size_t size_ = 0;
};

// read_bounded's checks and errors; a regular file of at least a megabyte is mapped.
FileText read_text(const std::filesystem::path& path, std::size_t max_bytes = kMaxFileBytes,
                   Pipes pipes = Pipes::kRefuse);

}  // namespace gkebuild::yamlfile
