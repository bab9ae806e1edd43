// Output for stdout that must stay empty when the command fails (render --template): kept
// in pieces until commit() where stdout is a pipe or a terminal, which cannot take back what
// they were given; written as it comes where stdout is a regular file at its end (`> out`),
// which abandon() cuts back to its old length. So a large render neither holds its whole
// output in memory nor copies it, where the file system lets it be taken back.
#pragma once

#include <string>
#include <vector>

namespace gkebuild::cli {

class HeldStdout {
 public:
  HeldStdout();
  // One piece of output, in order. Throws Error(kFailed) when a direct write fails.
  void add(std::string&& piece);
  // Everything has been added: what is held goes out.
  void commit();
  // The command failed: nothing of it stays on stdout (best effort for a file).
  void abandon();

 private:
  bool direct_ = false;  // stdout is a regular file, written as pieces come
  long long start_ = 0;  // its length (and offset) before the first piece
  std::vector<std::string> pieces_;
};

}  // namespace gkebuild::cli
