// Exit codes shared by every command, as kubectl-style tools use them.
#pragma once

namespace gkebuild {

inline constexpr int kExitSuccess = 0;
inline constexpr int kExitFailure = 1;    // findings, a failed run, a refused push
inline constexpr int kExitUsage = 2;      // bad input, usage errors, the tool could not run

}  // namespace gkebuild
