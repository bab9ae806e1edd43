#include "tool/submit/schedule_check.h"

#include "base/error.h"
#include "tool/core/kube/api_error.h"
#include "tool/steps/cluster/check.h"
#include "tool/steps/plan/job_needs.h"

namespace gkebuild::submit {

void check_before_submit(kube::ClusterApi& cluster, const std::string& context, const project::Project& project,
                         const plan::PlanRequest& request, std::ostream& err) {
  cluster::CheckReport report;
  try {
    report = cluster::check_cluster_for(cluster, project, plan::job_needs(project, request));
  } catch (const kube::ApiError& error) {
    err << "cluster check skipped: " << error.what() << "\n";
    return;
  }
  if (!report.has_problems()) return;
  if (!report.has_blocking()) {
    err << "cluster check:\n" << report.text();
    return;
  }
  std::string lines;
  for (const auto& finding : report.findings)
    if (finding.blocking) lines += "\n  " + finding.text;
  throw Error(ErrorKind::kFailed, "a Job of this run could never be scheduled on context " + context + ":" + lines +
                                      "\n(`gkebuild cluster check` shows the whole picture; --no-check skips this check)");
}

}  // namespace gkebuild::submit
