#include "run_binary.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "base/atomic_file.h"

namespace gkebuild::testing {

Result run(const std::string& command, const std::filesystem::path& scratch) {
  const auto out = scratch / ".stdout";
  const auto err = scratch / ".stderr";
  const std::string line = command + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int raw = std::system(line.c_str());
  Result result;
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  result.out = read_file(out);
  result.err = read_file(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return result;
}

ScratchDir::ScratchDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "gkebuild-render-test-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) std::abort();
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

void write(const std::filesystem::path& path, const std::string& text) {
  write_file_atomically(path, text);
}

}  // namespace gkebuild::testing
