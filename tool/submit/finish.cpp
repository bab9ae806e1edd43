#include "tool/submit/finish.h"

namespace gkebuild::submit {
namespace {

void come_back(const runrecord::RunRecord& record, std::ostream& err) {
  err << "the run goes on; to come back:\n"
      << "  gkebuild status " << record.run << "\n"
      << "  gkebuild logs " << record.run << " -f\n";
}

}  // namespace

Outcome finish_follow(FollowEnd end, const runrecord::RunRecord& record, std::ostream& err) {
  if (end == FollowEnd::Detached) {
    err << "created " << record.jobs.size() << " Jobs of run " << record.run << "\n";
    come_back(record, err);
    return Outcome::kSucceeded;
  }
  if (end == FollowEnd::Interrupted && record.target == "local") {
    err << "stopped run " << record.run << ": its containers are gone, its record keeps what ran\n";
    return Outcome::kInterrupted;
  }
  if (end == FollowEnd::Interrupted) {
    err << "stopped following run " << record.run << "\n";
    int not_created = 0;
    for (const auto& job : record.jobs) not_created += job.reason.starts_with("not created");
    if (not_created > 0)
      err << not_created
          << " Jobs held back by the cap on unfinished Jobs were not created; submit again to run them\n";
    come_back(record, err);
    return Outcome::kInterrupted;
  }
  int succeeded = 0;
  int failed = 0;
  int stopped_early = 0;  // by the experiment's earlyStopping: rule, as it asked: not a failure
  for (const auto& job : record.jobs) {
    if (job.state == runrecord::JobState::succeeded) ++succeeded;
    if (job.state == runrecord::JobState::stopped && job.reason.starts_with("early stopping")) ++stopped_early;
    if (job.state != runrecord::JobState::failed) continue;
    ++failed;
    err << "Job " << job.name << " failed: " << (job.reason.empty() ? "no reason given" : job.reason) << "\n";
  }
  err << "run " << record.run << ": " << succeeded << " of " << record.jobs.size() << " Jobs succeeded";
  if (failed > 0) err << ", " << failed << " failed";
  if (stopped_early > 0) err << ", " << stopped_early << " stopped early";
  err << "\n";
  return failed > 0 || succeeded + stopped_early != static_cast<int>(record.jobs.size()) ? Outcome::kFailed
                                                                                        : Outcome::kSucceeded;
}

}  // namespace gkebuild::submit
