#include "tool/submit/local_submit.h"

#include <algorithm>
#include <memory>

#include "base/confined_path.h"
#include "base/atomic_file.h"
#include "images/image/layout_source.h"
#include "images/oci/layout.h"
#include "images/oci/machine_store.h"
#include "registry/remote/pull.h"
#include "tool/core/runrecord/run_store.h"
#include "tool/steps/local_runner/gpu_slots.h"
#include "tool/steps/local_runner/host_gpu.h"
#include "tool/steps/local_runner/local_run.h"
#include "tool/steps/project_images/project_images.h"
#include "tool/steps/publish/registry_pull.h"
#include "tool/steps/render/plan.h"
#include "tool/steps/run_step/run_step.h"
#include "tool/steps/plan/run_id.h"
#include "tool/submit/finish.h"
#include "tool/submit/image_step.h"
#include "tool/submit/interrupt.h"
#include "tool/submit/local_container.h"
#include "tool/submit/local_parallel.h"
#include "tool/submit/local_pod_check.h"
#include "tool/submit/local_run_process.h"
#include "tool/submit/record_writer.h"

namespace gkebuild::submit {
namespace {

namespace fs = std::filesystem;

// The image a local run runs, in the project's layout: its manifest digest and its config's Env.
struct LocalImage {
  std::string digest;
  std::vector<std::string> env;
  std::string reference;  // the pushed image it was pulled from; empty for a local build
};

// Builds the experiment's image into the project's layout.
// A base image comes from its registry as for a cluster run (--insecure-registry, --ca-file).
LocalImage build_image(const project::Project& project, const std::string& image, const fs::path& layout,
                       const ImageStepOptions& step, const plan::PlanRequest& request, std::ostream& err) {
  auto store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(layout, oci::machine_blob_home(true)));
  project_images::ProjectImageOptions options;
  options.build.run = run_step::run_step(store->root());
  options.images = {image};
  options.workloads_build = step.workloads_build;
  options.run = workload_images::SubmittedRun{request.experiment, request.overrides.accelerators};
  options.build.pull = publish::registry_pull(store, step.session);
  options.build.secrets = step.build_secrets;
  err << "image " << image << ": building into " << layout.string() << " (not pushed: a local run)\n";
  const auto built = project_images::build_project_images(project, options, store).front();
  return {built.manifest.digest.str(), built.result.image.config().config.env};
}

LocalImage pulled_image(const std::string& reference, const fs::path& layout, const ImageStepOptions& step) {
  auto store = oci::Layout::open_or_create(layout, oci::machine_blob_home(true));
  registry::PullOptions pull;
  pull.session = step.session;
  auto pulled = registry::pull_image(registry::parse_reference(reference), store, pull);
  return {pulled.descriptor.digest.str(), pulled.config.config.env, reference};
}

// The image as a cluster submit would take it: --image NAME=REF (pinned by digest) pulled into
// the layout; --no-build the last local build (the layout's tag), else the last push's pin;
// otherwise built now.
LocalImage local_image(const project::Project& project, const std::string& image, const fs::path& layout,
                       ImageStepOptions step, const plan::PlanRequest& request, std::ostream& err) {
  step.note = [&err](const std::string& line) { err << line << "\n"; };
  if (step.given.count(image)) {
    step.no_build = false;  // a given image needs no earlier push's pins
    const std::string reference = image_references(project, {image}, step).at(image);
    err << "image " << image << ": " << reference << " (given; not built)\n";
    return pulled_image(reference, layout, step);
  }
  if (step.no_build) {
    auto store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(layout, oci::machine_blob_home(true)));
    const std::string tag = render::default_image_reference(project, *project.find_image(image));
    if (auto built = store->resolve(tag)) {
      err << "image " << image << ": the last local build, " << built->digest.str() << " (--no-build)\n";
      return {built->digest.str(), image::load_image(store, *built).config().config.env};
    }
    const std::string reference = image_references(project, {image}, step).at(image);
    err << "image " << image << ": the last push, " << reference << " (--no-build)\n";
    return pulled_image(reference, layout, step);
  }
  return build_image(project, image, layout, step, request, err);
}

// Without a GPU the Jobs run on CPU paths: no accelerator, no GPUs, the local machine.
runrecord::RunRecord local_record(const project::Project& project, const plan::RunPlan& plan, const std::string& run,
                                  bool gpu) {
  runrecord::RunRecord record = new_record(project, plan, run, "local");
  for (auto& job : record.jobs) {
    if (!gpu) job.accelerator.reset();
    if (!gpu) job.gpus = 0;
    job.machine_type = "local";
    job.spot = false;
  }
  return record;
}

// The most GPUs one of the plan's Jobs takes at once: its gpus on each of its nodes.
int gpus_per_point(const plan::RunPlan& plan) {
  int most = 0;
  for (const auto& job : plan.jobs) most = std::max(most, job.gpus * std::max(1, job.nodes));
  return most;
}

// A local run has no cluster whose Secrets envFrom could read.
void refuse_secret_refs(const project::Project& project, const std::string& experiment) {
  const project::Experiment* found = project.find_experiment(experiment);
  if (found && !found->secret_refs.empty())
    throw SourceError(found->secret_refs.front().where,
                      "experiment '" + experiment + "'.secretRefs: '" + found->secret_refs.front().name +
                          "' is a Secret of the cluster, which a local run cannot read; use secretEnv "
                          "(values from this environment) for a local run");
}

}  // namespace

Outcome submit_locally(const SubmitOptions& options, const project::Project& project, plan::PlanRequest request,
                       const RunSecret& secret) {
  const Console& console = options.console;
  std::ostream& err = *console.err;
  refuse_secret_refs(project, request.experiment);
  request.render.indexed_sweeps = false;  // a Job per point, run here; no ConfigMap of points is mounted
  plan::check_plan(project, request);
  const std::string image = plan::images_of(project, request.experiment).front();
  const fs::path layout = project.dir / ".gkebuild" / "oci";
  // A project's own job template may ask for what the local runner cannot honour: refused
  // (or named as dropped) before anything is built.
  const plan::RunPlan checked = plan::plan_run(project, request);
  check_local_pod_templates(checked, err);
  if (options.dry_run) {
    *console.out << plan::manifest_stream(checked);
    err << "dry run: a local run would build image " << image << " into " << layout.string()
        << " and run each Job's container here with runc"
        << (options.network == LocalNetwork::Host ? ", on the host's network"
                                                  : ", each in its own network namespace")
        << "\n";
    return Outcome::kSucceeded;
  }
  confined_folder(project.dir, fs::path(".gkebuild") / "oci");  // made here, never through a planted symlink
  const LocalImage built = local_image(project, image, layout, options.images, request, err);
  request.render.image_env[image] = built.env;
  if (!built.reference.empty()) request.render.image_references[image] = built.reference;  // the record names it
  // A CPU-only experiment (gpus: 0) is given no GPU here either, as on a cluster.
  const project::Experiment* wanted = project.find_experiment(request.experiment);
  const local_runner::HostGpu host_gpu = local_runner::find_host_gpu();
  const bool gpu = !(wanted && wanted->cpu_only()) && host_gpu.present();
  const auto run_dir = runrecord::new_run_dir(project.dir, request.experiment, runrecord::Clock::now());
  const std::string run = run_dir.filename().string();
  request.render.run_id = plan::cluster_run_id(run);
  const plan::RunPlan plan = plan::plan_run(project, request);
  for (const auto& job : plan.jobs)  // owner only, as in submit.cpp
    write_file_atomically(run_dir / "manifests" / job.manifest.file_name, job.manifest.text, FileAccess::kOwnerOnly);
  // The run's live state in gkebuild's own folders, never in the checkout; the proof that this
  // process runs it is written before the record, so no reader takes the run for dead.
  const local_runner::LocalDirs dirs = local_runner::local_run_dirs(project.dir, run);
  claim_local_run(dirs, run_dir);
  runrecord::RunRecord first = local_record(project, plan, run, gpu);
  first.runner = current_runner();  // shown by status; liveness is read from the proof only
  first.secret_env = secret.names();  // no Secret object: the values go to the containers only
  RecordWriter record(run_dir, std::move(first));
  runrecord::save_run(run_dir, record.record());
  const std::vector<int> gpus = gpu ? local_runner::gpu_indexes(host_gpu) : std::vector<int>{};
  const LocalInFlight at_once =
      local_in_flight(options.local_in_flight, static_cast<int>(gpus.size()), gpus_per_point(plan));
  if (!at_once.note.empty()) err << at_once.note << "\n";
  err << "run " << run << ": " << plan.jobs.size() << " Jobs on this machine" << (gpu ? "" : " (no GPU: CPU paths)");
  if (at_once.points > 1 && plan.jobs.size() > 1) err << ", up to " << at_once.points << " at once";
  err << ", recorded in " << run_dir.string() << "\n";
  FollowView view(err, *console.out, console.terminal, console.terminal_rows);
  // From here a second signal kills the containers at once instead of leaving them behind.
  let_second_interrupt_force();
  LocalJobs jobs(plan, layout, built.digest, dirs, gpu, options.network, console.interrupted, &forced_interrupt());
  jobs.use_secret(secret);
  jobs.run_at_once(at_once.points, gpus);
  if (wanted) jobs.stop_points_with(point_stopper(wanted->early_stopping, halving_rule(*wanted)));
  mask_view(view, secret);
  MaskingSink sink(record, secret);
  struct Cleanup {  // the containers are gone on every way out; their folders go with them
    const local_runner::LocalDirs& dirs;
    ~Cleanup() { local_runner::remove_local_run_dirs(dirs); }
  } cleanup{dirs};
  const FollowEnd end = jobs.run(sink, view);
  return finish_follow(end, record.record(), err);
}

}  // namespace gkebuild::submit
