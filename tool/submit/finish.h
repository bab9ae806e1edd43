// How a follow ends for the user: the Jobs that failed with their reasons, a count, and
// the commands to come back to a run that goes on; and the exit code that says it.
#pragma once

#include <ostream>

#include "runrecord/run_record.h"
#include "submit/follower.h"

namespace gkebuild::submit {

inline constexpr int kExitInterrupted = 130;  // 128 + SIGINT, as shells report it

// 0 when every Job succeeded, 1 when one failed; 0 for a detached run; 130 when interrupted.
int finish_follow(FollowEnd end, const runrecord::RunRecord& record, std::ostream& err);

}  // namespace gkebuild::submit
