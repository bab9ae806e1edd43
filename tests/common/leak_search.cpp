#include "tests/common/leak_search.h"

#include <archive.h>
#include <archive_entry.h>

#include <fstream>
#include <iterator>

#include "tests/common/run.h"

namespace gkebuild::testing {
namespace fs = std::filesystem;
namespace {

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LeakSearchError("leak search: cannot read " + path.string());
  std::string bytes(std::istreambuf_iterator<char>(in), {});
  if (in.bad()) throw LeakSearchError("leak search: cannot read " + path.string());
  return bytes;
}

bool compressed(const std::string& bytes) {
  const bool gzip = bytes.size() > 2 && bytes[0] == '\x1f' && bytes[1] == '\x8b';
  const bool zstd = bytes.size() > 4 && bytes.compare(0, 4, "\x28\xb5\x2f\xfd") == 0;
  return gzip || zstd;
}

// The bytes of a gzip or zstd stream (a layer blob), through libarchive's raw reader.
std::string decompressed(const std::string& bytes, const fs::path& path) {
  archive* reader = archive_read_new();
  archive_read_support_filter_all(reader);
  archive_read_support_format_raw(reader);
  archive_entry* entry = nullptr;
  std::string out;
  la_ssize_t got = 0;
  if (archive_read_open_memory(reader, bytes.data(), bytes.size()) == ARCHIVE_OK &&
      archive_read_next_header(reader, &entry) == ARCHIVE_OK) {
    char buffer[1 << 16];
    while ((got = archive_read_data(reader, buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<size_t>(got));
  } else {
    got = -1;
  }
  archive_read_free(reader);
  if (got < 0) throw LeakSearchError("leak search: cannot decompress " + path.string());
  return out;
}

template <typename Visit>
void each_file(const fs::path& root, Visit visit) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(root, ec)))
    throw LeakSearchError("leak search: " + root.string() + " is not a folder it can read");
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::file_status status = it->symlink_status(ec);
    if (ec) break;
    if (fs::is_regular_file(status)) visit(it->path());
  }
  if (ec) throw LeakSearchError("leak search: cannot list a folder under " + root.string() + ": " + ec.message());
}

}  // namespace

std::vector<std::string> text_holding(const std::string& what, const std::string& text,
                                      const std::vector<std::string>& needles) {
  std::vector<std::string> found;
  for (const auto& needle : needles)
    if (!needle.empty() && text.find(needle) != std::string::npos) found.push_back(what + ": " + needle);
  return found;
}

std::vector<std::string> files_holding(const fs::path& root, const std::vector<std::string>& needles) {
  std::vector<std::string> found;
  each_file(root, [&](const fs::path& path) {
    std::string bytes = read_all(path);
    if (compressed(bytes)) bytes += decompressed(bytes, path);
    for (auto& one : text_holding(path.string(), bytes, needles)) found.push_back(std::move(one));
  });
  return found;
}

std::vector<std::string> shown_holding(const fs::path& project, const std::string& environment,
                                       const std::vector<std::string>& needles) {
  std::vector<std::string> found;
  for (const std::string command : {"logs", "status", "report"}) {
    const auto shown = run_command("cd " + shell_quoted(project.string()) + " && " + environment + " " +
                                   gkebuild_binary() + " " + command);
    for (auto& one : text_holding("gkebuild " + command, shown.all(), needles)) found.push_back(std::move(one));
  }
  return found;
}

std::size_t files_under(const fs::path& root) {
  std::size_t count = 0;
  each_file(root, [&](const fs::path&) { ++count; });
  return count;
}

}  // namespace gkebuild::testing
