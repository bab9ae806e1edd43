// Runs a command line for the tests and collects its exit status, stdout and stderr.
#pragma once

#include <filesystem>
#include <string>

namespace gkebuild::testing {

struct Result {
  int status = -1;  // exit status, or -1 if it did not exit normally
  std::string out;
  std::string err;
};

// Runs `command` with /bin/sh; stdout and stderr go to temporary files in `scratch`.
Result run(const std::string& command, const std::filesystem::path& scratch);

// A fresh temporary folder, removed with everything in it on destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

void write(const std::filesystem::path& path, const std::string& text);

}  // namespace gkebuild::testing
