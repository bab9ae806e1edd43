#include "submit/submit.h"

#include <deque>

#include "base/atomic_file.h"
#include "kube/api_error.h"
#include "kube/client.h"
#include "kube/objects.h"
#include "project/project.h"
#include "runrecord/run_store.h"
#include "submit/cluster.h"
#include "submit/dry_run.h"
#include "submit/finish.h"
#include "submit/image_step.h"
#include "submit/local_submit.h"
#include "submit/record_writer.h"
#include "submit/run_plan.h"

namespace gkebuild::submit {
namespace {

void write_manifests(const std::filesystem::path& run_dir, const RunPlan& plan) {
  // Owner only, as run.json: manifests carry the rendered values, which may include secrets.
  for (const auto& object : plan.support)
    write_file_atomically(run_dir / "manifests" / object.file_name, object.text, FileAccess::kOwnerOnly);
  for (const auto& job : plan.jobs)
    write_file_atomically(run_dir / "manifests" / job.manifest.file_name, job.manifest.text, FileAccess::kOwnerOnly);
}

std::vector<JobProgress> pending_jobs(const RunPlan& plan) {
  std::vector<JobProgress> jobs;
  for (const auto& job : plan.jobs) jobs.push_back(JobProgress{job.name});
  return jobs;
}

Outcome follow_to_the_end(const SubmitOptions& options, kube::Client& client, const RunPlan& plan,
                      std::vector<JobProgress>& jobs, RecordWriter& record) {
  FollowOptions follow;
  follow.namespace_name = plan.namespace_name;
  follow.run_id = plan.run_id;
  for (const auto& job : plan.jobs) follow.to_create.push_back(job.manifest.object);
  follow.max_in_flight = options.max_in_flight;
  follow.follow = !options.detach;
  if (options.detach && plan.jobs.size() > static_cast<std::size_t>(options.max_in_flight))
    *options.err << "a detached run creates all " << plan.jobs.size()
                 << " Jobs at once: the cap on unfinished Jobs needs gkebuild to follow the run\n";
  follow.interrupted = options.interrupted;
  FollowView view(*options.err, *options.out, options.terminal, options.terminal_rows);
  const FollowEnd end = follow_run(client, jobs, std::move(follow), record, view);
  return finish_follow(end, record.record(), *options.err);
}

Outcome submit_to_cluster(const SubmitOptions& options, const project::Project& project, PlanRequest request) {
  std::ostream& err = *options.err;
  const auto access = cluster_access(options.kubeconfig, project.cluster.context);
  ImageStepOptions images;
  images.given = options.images;
  images.no_build = options.no_build;
  images.workloads_build = options.workloads_build;
  images.insecure_registries = options.insecure_registries;
  images.ca_file = options.ca_file;
  images.note = [&err](const std::string& line) { err << line << "\n"; };
  check_plan(project, request);
  images.run = {request.experiment, request.accelerators};
  request.image_references = image_references(project, images_of(project, request.experiment), images);
  if (options.interrupted && options.interrupted->load()) {
    err << "stopped with Ctrl-C before anything was applied\n";
    return Outcome::kInterrupted;
  }
  const auto run_dir = runrecord::new_run_dir(project.dir, request.experiment, runrecord::Clock::now());
  const std::string run = run_dir.filename().string();
  request.run_id = cluster_run_id(run);
  const RunPlan plan = plan_run(project, request);
  write_manifests(run_dir, plan);
  auto initial = new_record(project, plan, run, "cluster");
  initial.context = access.context;
  RecordWriter record(run_dir, std::move(initial));
  runrecord::save_run(run_dir, record.record());
  err << "run " << run << ": " << plan.jobs.size() << " Jobs in namespace " << plan.namespace_name << " (context "
      << access.context << "), recorded in " << run_dir.string() << "\n";
  kube::Client client(access);
  auto jobs = pending_jobs(plan);
  try {
    for (const auto& object : plan.support) kube::server_side_apply(client, object.object);
  } catch (const std::exception& error) {
    // The record says why no Job started; the CLI prints it too.
    for (auto& job : jobs) {
      job.state = JobState::Failed;
      job.reason = std::string("not created: ") + error.what();
    }
    record.jobs_changed(jobs);
    throw;
  }
  return follow_to_the_end(options, client, plan, jobs, record);
}

}  // namespace

Outcome run_submit(const SubmitOptions& options) {
  const auto project = project::load_project(options.project_file);
  PlanRequest request;
  request.experiment = options.experiment;
  request.accelerators = options.accelerators;
  request.sweeps = options.sweeps;
  request.sets = options.sets;
  request.values_files = options.values_files;
  if (options.local || project.cluster.local) return submit_locally(options, project, request);
  if (options.dry_run) return dry_run(options, project, request);
  return submit_to_cluster(options, project, request);
}

}  // namespace gkebuild::submit
