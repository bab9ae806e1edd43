#include "tool/core/yamlfile/document.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include "base/input_file.h"

namespace gkebuild::yamlfile {
namespace {

std::string size_text(std::uintmax_t bytes) {
  return std::to_string(bytes / (1u << 20)) + " MiB (" + std::to_string(bytes) + " bytes)";
}

}  // namespace

std::string read_bounded(const std::filesystem::path& path, std::size_t max_bytes, Pipes pipes) {
  const SourceLocation where{path.string()};
  // Only a regular file: a FIFO in a checkout would stop the command for ever, a device never end.
  std::string refusal;
  const int fd = open_input_file(path, refusal, pipes);
  if (fd < 0 && !refusal.empty()) throw SourceError(where, "cannot read: " + refusal);
  if (fd < 0 && errno == ENOENT) throw SourceError(where, "cannot read: no such file");
  if (fd < 0) throw SourceError(where, std::string("cannot read: ") + std::strerror(errno));
  struct stat status {};
  if (::fstat(fd, &status) == 0 && static_cast<std::uintmax_t>(status.st_size) > max_bytes) {
    ::close(fd);
    throw SourceError(where, "file is " + size_text(static_cast<std::uintmax_t>(status.st_size)) +
                                 "; gkebuild reads input files of at most " + size_text(max_bytes));
  }
  auto text = read_all(fd, max_bytes);
  if (!text) throw SourceError(where, std::string("cannot read: ") + std::strerror(errno));
  if (text->size() > max_bytes)
    throw SourceError(where, "file is larger than " + size_text(max_bytes) +
                                 "; gkebuild reads input files of at most that size");
  return std::move(*text);
}

FileText::FileText(FileText&& other) noexcept
    : text_(std::move(other.text_)), mapped_(std::exchange(other.mapped_, nullptr)), size_(other.size_) {}

FileText::~FileText() {
  if (mapped_) munmap(const_cast<char*>(mapped_), size_ + 1);
}

namespace {

constexpr off_t kMapFrom = off_t{1} << 20;  // below this, reading costs less than mapping

bool worth_mapping(const struct stat& status, std::size_t max_bytes) {
  return S_ISREG(status.st_mode) && status.st_size >= kMapFrom &&
         static_cast<std::uintmax_t>(status.st_size) <= max_bytes &&
         // The NUL is the rest of the last page, which the kernel fills with zeros.
         status.st_size % sysconf(_SC_PAGESIZE) != 0;
}

}  // namespace

FileText read_text(const std::filesystem::path& path, std::size_t max_bytes, Pipes pipes) {
  // Looked at before it is opened: opening a named pipe just to close it again could leave
  // its writer without a reader.
  struct stat status {};
  if (stat(path.c_str(), &status) == 0 && worth_mapping(status, max_bytes)) {
    if (const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
      void* mapped = MAP_FAILED;
      std::size_t size = 0;
      if (fstat(fd, &status) == 0 && worth_mapping(status, max_bytes)) {  // the file that was opened
        size = static_cast<std::size_t>(status.st_size);
        mapped = mmap(nullptr, size + 1, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      }
      close(fd);
      if (mapped != MAP_FAILED) {
        FileText text;
        text.mapped_ = static_cast<const char*>(mapped);
        text.size_ = size;
        return text;
      }
    }
  }
  return FileText(read_bounded(path, max_bytes, pipes));
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
