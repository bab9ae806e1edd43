#include "tool/submit/submit.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <deque>
#include <limits>
#include <optional>
#include <system_error>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/free_memory.h"
#include "tool/core/kube/api_error.h"
#include "tool/core/kube/http_cluster_api.h"
#include "tool/core/kube/objects.h"
#include "tool/core/project/project.h"
#include "tool/core/runrecord/run_store.h"
#include "tool/steps/project_images/project_images.h"
#include "tool/steps/render/contexts.h"
#include "tool/submit/budget.h"
#include "tool/steps/cluster/access.h"
#include "tool/steps/plan/run_id.h"
#include "tool/submit/schedule_check.h"
#include "tool/submit/cost_summary.h"
#include "tool/submit/dry_run.h"
#include "tool/submit/finish.h"
#include "tool/submit/image_step.h"
#include "tool/submit/local_submit.h"
#include "tool/submit/record_writer.h"
#include "tool/submit/managed_run.h"
#include "tool/submit/recovery.h"
#include "tool/steps/plan/run_plan.h"
#include "tool/submit/run_secret.h"

namespace gkebuild::submit {
namespace {

// A file of a new run's manifests/: written once, before anything is applied, in a folder no
// reader knows yet, so without write_file_atomically's temporary name and fsync (a sweep of
// 10,000 Jobs writes 10,000 of them). Owner only, as run.json: manifests carry the rendered
// values, which may include secrets.
void write_manifest(const std::filesystem::path& path, std::string_view text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw system_failure(errno, "cannot create " + path.string());
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int saved = errno;
      ::close(fd);
      throw system_failure(saved, "cannot write " + path.string());
    }
    written += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

void write_manifests(const std::filesystem::path& run_dir, const plan::RunPlan& plan) {
  std::filesystem::create_directories(run_dir / "manifests");
  for (const auto& object : plan.support) write_manifest(run_dir / "manifests" / object.file_name, object.text);
  for (const auto& job : plan.jobs) write_manifest(run_dir / "manifests" / job.manifest.file_name, job.manifest.text);
}

std::vector<JobProgress> pending_jobs(const plan::RunPlan& plan) {
  std::vector<JobProgress> jobs;
  for (const auto& job : plan.jobs) jobs.push_back(JobProgress{job.name});
  return jobs;
}

// Takes the Jobs' objects out of `plan` (a 10,000-Job sweep's objects take 100 MB and more),
// leaving their requests, serialised, for the follow.
Outcome follow_to_the_end(const SubmitOptions& options, kube::ClusterApi& cluster, plan::RunPlan& plan,
                      std::vector<JobProgress>& jobs, RecordWriter& record, const RunSecret& secret,
                      SecretOwners* owners, const project::Experiment& experiment) {
  const Console& console = options.console;
  FollowOptions follow = options.follow;  // --detach, --max-in-flight, --logs
  follow.namespace_name = plan.namespace_name;
  follow.run_id = plan.run_id;
  follow.recovery = plan_recovery(experiment, plan, cluster.namespace_name());
  follow.early_stopping = point_stopper(experiment.early_stopping, halving_rule(experiment));
  if (!follow.recovery.empty() && !follow.follow)
    *console.err << "a detached run is not recovered: gang restarts and fallback: alternatives need gkebuild to "
                    "follow the run (gkebuild logs -f RUN follows it again, without recovery)\n";
  for (auto& job : plan.jobs) {
    follow.to_create.push_back(kube::prepare_create(cluster.namespace_name(), job.manifest.object));
    job.manifest.object = nullptr;
  }
  // The plans' objects are gone: the watches' threads allocate from arenas of their own and
  // would not reuse their pages (tens of MB for a 10,000-Job sweep).
  release_free_memory();
  // With a Kueue queue the cluster decides what runs: every Job is created at once, suspended.
  if (!plan.queue.empty()) follow.max_in_flight = std::numeric_limits<int>::max();
  follow.queue = plan.queue;
  if (!plan.queue.empty())
    *console.err << "Jobs wait in Kueue queue " << plan.queue << " (namespace " << plan.namespace_name
                 << ") until it has quota for them\n";
  else if (!follow.follow && plan.jobs.size() > static_cast<std::size_t>(follow.max_in_flight))
    *console.err << "a detached run creates all " << plan.jobs.size()
                 << " Jobs at once: the cap on unfinished Jobs needs gkebuild to follow the run\n";
  follow.interrupted = console.interrupted;
  if (owners) {
    follow.created = [owners](const auto& created) { owners->add(created); };
    follow.retiring = [owners](const std::string&, const std::string& uid) { owners->remove(uid); };
  }
  FollowView view(*console.err, *console.out, console.terminal, console.terminal_rows);
  mask_view(view, secret);
  MaskingSink sink(record, secret);
  const FollowEnd end = follow_run(cluster, jobs, std::move(follow), sink, view);
  return finish_follow(end, record.record(), *console.err);
}

// submit --managed: the controller's objects (managed_run.h); the controller creates the Jobs.
Outcome start_controller(const SubmitOptions& options, kube::ClusterApi& cluster, plan::RunPlan& plan,
                         const runrecord::RunRecord& record, const project::Experiment& experiment) {
  ManagedPlan managed;
  managed.namespace_name = plan.namespace_name;
  managed.run_id = plan.run_id;
  managed.max_in_flight = plan.queue.empty() ? options.follow.max_in_flight : std::numeric_limits<int>::max();
  managed.recovery = plan_recovery(experiment, plan, cluster.namespace_name());
  managed.early_stopping = experiment.early_stopping;
  managed.halving = halving_rule(experiment);
  for (auto& job : plan.jobs) {
    managed.jobs.push_back(kube::prepare_create(cluster.namespace_name(), job.manifest.object));
    job.manifest.object = nullptr;
  }
  const nlohmann::json labels = {{"gkebuild.io/project", record.project},
                                 {"gkebuild.io/experiment", record.experiment},
                                 {"gkebuild.io/run", plan.run_id}};
  const std::size_t plan_bytes = to_json(managed).dump().size();
  if (plan_bytes > kMaxManagedPlanBytes)
    throw Error(ErrorKind::kBadInput, "--managed keeps the run's plan in one ConfigMap (at most 1 MiB with its record), "
                                      "and this run's plan takes " + std::to_string(plan_bytes / 1024) +
                                      " KiB: run the sweep as Indexed Jobs (parallelism:) or follow it from here");
  for (const auto& object : controller_objects(managed, record, options.controller_image, labels, record.secret))
    cluster.apply(object, {});
  *options.console.err << "run " << record.run << ": its controller (Job gkebuild-controller-" << plan.run_id
                       << ", image " << options.controller_image << ") creates and follows the " << plan.jobs.size()
                       << " Jobs in the cluster; gkebuild status " << record.run
                       << " shows where they stand, gkebuild delete " << record.run << " stops it\n";
  return Outcome::kSucceeded;
}

// The run's Secret, before any Job: a pod never starts without it. Its owners come as the Jobs
// are created (SecretOwners); until the first is, only `gkebuild delete RUN` removes it.
std::optional<SecretOwners> apply_run_secret(kube::ClusterApi& cluster, const project::Project& project,
                                             const plan::RunPlan& plan, const RunSecret& secret) {
  if (secret.empty()) return std::nullopt;
  const std::string name = render::run_secret_name(project.name, plan.run_id);
  cluster.apply(secret.object(plan.namespace_name, name, project.name, plan.experiment, plan.run_id), {});
  return std::optional<SecretOwners>(std::in_place, cluster, plan.namespace_name, name);
}

void record_secrets(runrecord::RunRecord& record, const project::Project& project, const plan::RunPlan& plan,
                    const RunSecret& secret) {
  const project::Experiment& experiment = *project.find_experiment(plan.experiment);
  if (!secret.empty()) record.secret = render::run_secret_name(project.name, plan.run_id);
  record.secret_env = secret.names();
  for (const auto& ref : experiment.secret_refs) record.secret_refs.push_back(ref.name);
}

Outcome submit_to_cluster(const SubmitOptions& options, const project::Project& project, plan::PlanRequest request,
                          const RunSecret& secret, const kube::ConnectCluster& connect) {
  // Before any thread starts (the cluster check's, the plan's render threads, the follow's):
  // they allocate from the heap the plan frees.
  use_one_malloc_arena();
  std::ostream& err = *options.console.err;
  ImageStepOptions images = image_step(options);
  // The project's own mistakes first (an unknown experiment lists the project's), then the cluster access.
  const std::size_t job_count = plan::check_plan(project, request);
  check_budget_early(project, request, catalog::Catalog::builtin());
  if (!secret.empty() && job_count > kMostSecretOwners)
    throw Error(ErrorKind::kBadInput, "a run with secretEnv has at most " + std::to_string(kMostSecretOwners) +
                                          " Jobs (each owns the run's Secret), and this one has " +
                                          std::to_string(job_count) + "; run the sweep as Indexed Jobs "
                                                                      "(parallelism: N, one Job per accelerator)");
  const auto access = cluster::cluster_access(options.kubeconfig, project.cluster.context);
  const auto cluster = connect(access);
  if (!options.no_check) check_before_submit(*cluster, access.context, project, request, err);
  images.run = {request.experiment, request.overrides.accelerators};
  request.render.image_references =
      image_references(project, plan::images_of(project, request.experiment), images, &request.render.image_env);
  if (options.console.interrupted && options.console.interrupted->load()) {
    err << "stopped with Ctrl-C before anything was applied\n";
    return Outcome::kInterrupted;
  }
  const auto run_dir = runrecord::new_run_dir(project.dir, request.experiment, runrecord::Clock::now());
  const std::string run = run_dir.filename().string();
  request.render.run_id = plan::cluster_run_id(run);
  plan::RunPlan plan = plan::plan_run(project, request);
  if (!options.quiet)
    err << cost_summary(plan, catalog::Catalog::builtin())
        << check_budget(*project.find_experiment(plan.experiment), plan, catalog::Catalog::builtin());
  write_manifests(run_dir, plan);
  for (auto& job : plan.jobs) std::string().swap(job.manifest.text);  // in manifests/ now
  auto initial = new_record(project, plan, run, "cluster");
  initial.context = access.context;
  initial.managed = !options.controller_image.empty();
  record_secrets(initial, project, plan, secret);
  RecordWriter record(run_dir, std::move(initial));
  runrecord::save_run(run_dir, record.record());
  err << "run " << run << ": " << plan.jobs.size() << " Jobs in namespace " << plan.namespace_name << " (context "
      << access.context << "), recorded in " << run_dir.string() << "\n";
  auto jobs = pending_jobs(plan);
  std::optional<SecretOwners> owners;
  try {
    for (const auto& object : plan.support) cluster->apply(object.object, {});
    owners = apply_run_secret(*cluster, project, plan, secret);
    if (record.record().managed)
      return start_controller(options, *cluster, plan, record.record(), *project.find_experiment(plan.experiment));
  } catch (const std::exception& error) {
    // The record says why no Job started; the CLI prints it too.
    for (auto& job : jobs) {
      job.state = JobState::Failed;
      job.reason = secret.mask(std::string("not created: ") + error.what());
    }
    record.jobs_changed(jobs);
    // A server may quote what it was sent (the Secret's data): then the CLI prints it masked.
    const std::string masked = secret.mask(error.what());
    if (masked != error.what()) throw Error(ErrorKind::kFailed, masked);
    throw;
  }
  return follow_to_the_end(options, *cluster, plan, jobs, record, secret, owners ? &*owners : nullptr,
                           *project.find_experiment(plan.experiment));
}

}  // namespace

ImageStepOptions image_step(const SubmitOptions& options) {
  ImageStepOptions images = options.images;
  images.note = [&options](const std::string& line) {
    if (!options.quiet) *options.console.err << line << "\n";
  };
  return images;
}

Outcome run_submit(const SubmitOptions& options) { return run_submit(options, kube::connect_over_http); }

Outcome run_submit(const SubmitOptions& options, const kube::ConnectCluster& connect) {
  auto project = project::load_project(options.project_file);
  const auto consented = add_secret_env_flags(project, options.plan.experiment, options.secret_env);
  // Every secret value is read here, before anything is built, created or started.
  const project::Experiment* experiment = project.find_experiment(options.plan.experiment);
  const RunSecret secret = experiment ? RunSecret::read(*experiment, consented) : RunSecret();
  if (experiment && !options.images.no_build && !options.dry_run && !options.images.given.count(experiment->image)) {
    build::BuildOptions given;
    given.secrets = options.images.build_secrets;
    project_images::check_image_secrets(project, {experiment->image}, given);
  }
  if (options.local || project.cluster.local) return submit_locally(options, project, options.plan, secret);
  if (options.dry_run) return dry_run(options, project, options.plan, secret, connect);
  return submit_to_cluster(options, project, options.plan, secret, connect);
}

}  // namespace gkebuild::submit
