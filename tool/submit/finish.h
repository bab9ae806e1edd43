// How a follow ends for the user: the Jobs that failed with their reasons, a count, and
// the commands to come back to a run that goes on; and the outcome that says it.
#pragma once

#include <ostream>

#include "base/error.h"

#include "tool/core/runrecord/run_record.h"
#include "tool/submit/follower.h"

namespace gkebuild::submit {

// Succeeded when every Job succeeded (or the run was detached), failed when one failed,
// interrupted when Ctrl-C stopped the follow.
Outcome finish_follow(FollowEnd end, const runrecord::RunRecord& record, std::ostream& err);

}  // namespace gkebuild::submit
