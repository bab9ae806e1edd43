// Running the gkebuild binary and peer tools (umoci, runc, skopeo, buildah,
// oci-image-tool) from tests: a shell command's exit status and output.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace gkebuild::testing {

struct Ran {
  int status = -1;  // exit status, or -1 when the command could not start or was killed
  std::string output;
};

inline Ran run(const std::string& command) {
  Ran r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.output.append(buffer.data(), n);
  int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string gkebuild_binary() { return shell_quoted(GKEBUILD_BINARY); }

}  // namespace gkebuild::testing
