#include "yamlfile/document.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace gkebuild::yamlfile {
namespace {

std::string size_text(std::uintmax_t bytes) {
  return std::to_string(bytes / (1u << 20)) + " MiB (" + std::to_string(bytes) + " bytes)";
}

}  // namespace

std::string read_bounded(const std::filesystem::path& path, std::size_t max_bytes) {
  const SourceLocation where{path.string()};
  std::error_code error;
  auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status))
    throw SourceError(where, "cannot read: no such file");
  if (std::filesystem::is_directory(status)) throw SourceError(where, "cannot read: is a directory");
  auto size = std::filesystem::file_size(path, error);
  if (!error && size > max_bytes)
    throw SourceError(where, "file is " + size_text(size) + "; gkebuild reads input files of at most " +
                                 size_text(max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SourceError(where, std::string("cannot read: ") + std::strerror(errno));
  // Read in chunks: the file may be a pipe, or grow after the size check, and allocating the
  // limit up front would cost every run (start-up) the zeroing of megabytes it never uses.
  std::string text;
  // The size that was stat'ed goes straight into the string; more (a growing file, a pipe)
  // follows in chunks.
  std::size_t filled = 0;
  std::size_t want = error ? 0 : static_cast<std::size_t>(size);
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  while (true) {
    if (want == 0) want = kChunk;
    text.resize(filled + want);
    in.read(text.data() + filled, static_cast<std::streamsize>(want));
    filled += static_cast<std::size_t>(in.gcount());
    if (filled > max_bytes)
      throw SourceError(where, "file is larger than " + size_text(max_bytes) +
                                   "; gkebuild reads input files of at most that size");
    if (!in) break;
    want = 0;
  }
  text.resize(filled);
  if (in.bad()) throw SourceError(where, "cannot read: I/O error");
  return text;
}

Document Document::parse(std::string text, std::string file_name) {
  Document document;
  document.file_ = std::move(file_name);
  document.text_ = std::move(text);
  try {
    document.root_ = YAML::Load(document.text_);
  } catch (const YAML::Exception& e) {
    SourceLocation where{document.file_, e.mark.line + 1, e.mark.column + 1};
    if (e.mark.is_null()) where.line = where.column = 0;
    throw SourceError(where, "invalid YAML: " + e.msg, document.text_);
  }
  return document;
}

Document Document::load(const std::filesystem::path& path, std::size_t max_bytes) {
  return parse(read_bounded(path, max_bytes), path.string());
}

SourceLocation Document::where(const YAML::Node& node) const {
  SourceLocation location{file_};
  const YAML::Mark mark = node.Mark();
  if (!mark.is_null()) {
    location.line = mark.line + 1;
    location.column = mark.column + 1;
  }
  return location;
}

void Document::fail(const YAML::Node& at, const std::string& message) const {
  throw SourceError(where(at), message, text_);
}

}  // namespace gkebuild::yamlfile
