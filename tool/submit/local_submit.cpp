#include "submit/local_submit.h"

#include <memory>

#include "base/atomic_file.h"
#include "imageproject/project_images.h"
#include "imagerun/run_step.h"
#include "localrun/host_gpu.h"
#include "localrun/local_run.h"
#include "oci/layout.h"
#include "publish/registry_pull.h"
#include "runrecord/run_store.h"
#include "submit/cluster.h"
#include "submit/finish.h"
#include "submit/interrupt.h"
#include "submit/local_container.h"
#include "submit/local_runner.h"
#include "submit/record_writer.h"

namespace gkebuild::submit {
namespace {

namespace fs = std::filesystem;

// Builds the experiment's image into the project's layout; returns its manifest digest.
// A base image comes from its registry as for a cluster run (--insecure-registry, --ca-file).
std::string build_image(const project::Project& project, const std::string& image, const fs::path& layout,
                        const SubmitOptions& submit, const PlanRequest& request, std::ostream& err) {
  auto store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(layout));
  imageproject::ProjectImageOptions options;
  options.build.run = imagerun::run_step(imagerun::run_cache_beside(store->root()));
  options.images = {image};
  options.workloads_build = submit.workloads_build;
  options.run = workloadbuild::SubmittedRun{request.experiment, request.accelerators};
  registry::SessionOptions session;
  session.insecure_registries = submit.insecure_registries;
  session.ca_file = submit.ca_file;
  options.build.pull = publish::registry_pull(store, session);
  err << "image " << image << ": building into " << layout.string() << " (not pushed: a local run)\n";
  return imageproject::build_project_images(project, options, store).front().manifest.digest.str();
}

// Without a GPU the Jobs run on CPU paths: no accelerator, no GPUs, the local machine.
runrecord::RunRecord local_record(const project::Project& project, const RunPlan& plan, const std::string& run,
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

}  // namespace

Outcome submit_locally(const SubmitOptions& options, const project::Project& project, PlanRequest request) {
  std::ostream& err = *options.err;
  request.indexed_sweeps = false;  // Jobs run here one after another; no ConfigMap of points is mounted
  check_plan(project, request);
  const std::string image = images_of(project, request.experiment).front();
  const fs::path layout = project.dir / ".gkebuild" / "oci";
  if (options.dry_run) {
    *options.out << manifest_stream(plan_run(project, request));
    err << "dry run: a local run would build image " << image << " into " << layout.string()
        << " and run each Job's container here with runc"
        << (options.network == "host" ? ", on the host's network" : ", each in its own network namespace") << "\n";
    return Outcome::kSucceeded;
  }
  const std::string digest = build_image(project, image, layout, options, request, err);
  const bool gpu = localrun::find_host_gpu().present();
  const auto run_dir = runrecord::new_run_dir(project.dir, request.experiment, runrecord::Clock::now());
  const std::string run = run_dir.filename().string();
  request.run_id = cluster_run_id(run);
  const RunPlan plan = plan_run(project, request);
  for (const auto& job : plan.jobs)  // owner only, as in submit.cpp
    write_file_atomically(run_dir / "manifests" / job.manifest.file_name, job.manifest.text, FileAccess::kOwnerOnly);
  runrecord::RunRecord first = local_record(project, plan, run, gpu);
  first.runner = current_runner();  // a later reader can tell whether this process still runs it
  RecordWriter record(run_dir, std::move(first));
  runrecord::save_run(run_dir, record.record());
  err << "run " << run << ": " << plan.jobs.size() << " Jobs on this machine" << (gpu ? "" : " (no GPU: CPU paths)")
      << ", recorded in " << run_dir.string() << "\n";
  FollowView view(err, *options.out, options.terminal, options.terminal_rows);
  // From here a second signal kills the containers at once instead of leaving them behind.
  let_second_interrupt_force();
  LocalJobs jobs(plan, layout, digest, project.dir / ".gkebuild" / "local", gpu, options.network == "host",
                 options.interrupted, &forced_interrupt());
  const FollowEnd end = jobs.run(record, view);
  return finish_follow(end, record.record(), err);
}

}  // namespace gkebuild::submit
