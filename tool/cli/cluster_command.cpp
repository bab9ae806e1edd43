// `gkebuild cluster render|up|down|check`: the project's GKE cluster (tool/steps/cluster).
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include "base/exit_codes.h"
#include "base/source_error.h"
#include "tool/cli/command.h"
#include "tool/cli/project_flags.h"
#include "tool/cli/request_log.h"
#include "tool/cli/verbosity_flags.h"
#include "tool/core/kube/http_cluster_api.h"
#include "tool/core/project/project.h"
#include "tool/steps/cluster/access.h"
#include "tool/steps/cluster/check.h"
#include "tool/steps/cluster/gcloud_commands.h"
#include "tool/steps/cluster/terraform.h"
#include "tool/steps/cluster/up_down.h"
#include "tool/steps/cluster/zones.h"
#include "tool/steps/plan/job_needs.h"
#include "tool/steps/render/render.h"

namespace gkebuild::cli {
namespace {

struct ClusterFlags {
  ProjectFlags project;
  std::string format = "gcloud";
  bool dry_run = false;
  std::string experiment;  // check: only this experiment's Jobs
  std::string kubeconfig;
  kube::KubeconfigOptions kube;
  bool verbose = false;
};

// The project and the GKE cluster its `cluster:` describes (an error naming the file when none).
std::pair<project::Project, project::GkeCluster> described_cluster(const ProjectFlags& flags) {
  project::Project project = project::load_project(project_file(flags));
  if (!project.cluster.gke)
    throw SourceError({project.file.string()},
                      "cluster: describes no GKE cluster; add gcpProject and location to it "
                      "(examples/gemm-compare/gkebuild.yaml shows one)");
  auto cluster = *project.cluster.gke;
  return {std::move(project), std::move(cluster)};
}

// The ComputeClasses of the experiments with a fallback: list, as one YAML stream ("" when none,
// and with cluster.failover: follow, where the follower carries the lists out on derived pools).
std::string compute_classes(const project::Project& project) {
  const bool any = std::any_of(project.experiments.begin(), project.experiments.end(), [&](const auto& experiment) {
    return project::uses_compute_class(project, experiment);
  });
  if (!any) return "";
  render::RenderOptions options;
  options.targets = {"compute-classes"};
  std::ostringstream out;
  render::write_manifest_stream(out, render::render_project(project, options));
  return out.str();
}

// The script applies them once the credentials are there: ComputeClasses are Kubernetes objects
// (cluster-scoped, the cluster admin's), which neither gcloud nor `submit` creates.
std::string kubectl_apply_lines(const std::string& classes) {
  return "\n# The ComputeClass of each experiment with a fallback: list: GKE tries its priorities in order.\n"
         "kubectl apply -f - <<'GKEBUILD_COMPUTE_CLASSES'\n" + classes + "GKEBUILD_COMPUTE_CLASSES\n";
}

// A Terraform module of gcloud-only resources cannot hold them; it says how to apply them.
std::string terraform_note(const std::string& classes) {
  std::string names;
  std::istringstream in(classes);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("  name: ")) names += " " + line.substr(8);
  return "\n# Experiments with a fallback: list select the ComputeClasses" + names +
         ", Kubernetes objects this\n# module does not hold: once the cluster is up, apply them with\n"
         "#   gkebuild render compute-classes -f gkebuild.yaml | kubectl apply -f -\n";
}

int render(const ClusterFlags& flags) {
  const auto [project, cluster] = described_cluster(flags.project);
  const std::string file = project.file.filename().string();
  for (const auto& line : cluster::zone_warnings(cluster, catalog::Catalog::builtin())) std::cerr << line << "\n";
  const auto bucket = cluster::bucket_access(project);
  const std::string classes = compute_classes(project);
  if (flags.format == "terraform") {
    std::cout << cluster::terraform_module(cluster, file, bucket) << (classes.empty() ? "" : terraform_note(classes));
  } else {
    std::cout << cluster::gcloud_script(cluster, file, bucket) << (classes.empty() ? "" : kubectl_apply_lines(classes));
  }
  return kExitSuccess;
}

int up_or_down(const ClusterFlags& flags, bool up) {
  const auto [project, cluster] = described_cluster(flags.project);
  cluster::UpDownOptions options;
  options.dry_run = flags.dry_run;
  options.out = &std::cout;
  options.bucket = cluster::bucket_access(project);
  (up ? cluster::cluster_up : cluster::cluster_down)(cluster, options);
  return kExitSuccess;
}

int check(ClusterFlags& flags) {
  if (flags.verbose) log_cluster_requests();
  const auto project = project::load_project(project_file(flags.project));
  if (!flags.kubeconfig.empty()) flags.kube.kubeconfig = flags.kubeconfig;
  const auto access = cluster::cluster_access(flags.kube, project.cluster.context);
  plan::PlanRequest request;
  request.experiment = flags.experiment;
  const auto report =
      cluster::check_cluster_for(*kube::connect_over_http(access), project, plan::job_needs(project, request));
  std::cout << "context " << access.context << " (" << access.cluster.server << ")\n" << report.text();
  return report.has_problems() ? kExitFailure : kExitSuccess;
}

CLI::App* subcommand(CLI::App* parent, const std::string& name, const std::string& description,
                     const std::shared_ptr<ClusterFlags>& flags) {
  auto* command = parent->add_subcommand(name, description);
  add_project_flags(*command, flags->project);
  return command;
}

void add_check(CLI::App* cluster, Action& action, const std::shared_ptr<ClusterFlags>& flags) {
  auto* command = subcommand(cluster, "check",
                             "Check that the kubeconfig's cluster can run the experiments' Jobs: GPU nodes and pools, "
                             "taints, drivers, device plugin, autoscaler limits",
                             flags);
  command->add_option("--experiment", flags->experiment, "only this experiment's Jobs (default: every experiment)");
  command->add_option("--kubeconfig", flags->kubeconfig, "this kubeconfig file only (default: KUBECONFIG, ~/.kube/config)");
  command->add_option("--context", flags->kube.context, "kubeconfig context (default: the project's)");
  add_verbose_flag(*command, flags->verbose);
  command->callback([&action, flags] { action = [flags] { return check(*flags); }; });
}

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<ClusterFlags>();
  auto* cluster = app.add_subcommand("cluster", "Render, create, delete or check the project's GKE cluster");
  cluster->require_subcommand(1);

  auto* render_command = subcommand(cluster, "render", "Print the cluster as gcloud commands or a Terraform module", flags);
  render_command->add_option("--format", flags->format, "gcloud (a shell script) or terraform (a module)")
      ->check(CLI::IsMember({"gcloud", "terraform"}))
      ->capture_default_str();
  render_command->callback([&action, flags] { action = [flags] { return render(*flags); }; });

  for (const bool up : {true, false}) {
    auto* command = subcommand(cluster, up ? "up" : "down",
                               up ? "Create the cluster and the GPU pools that are missing (gcloud)"
                                  : "Delete what `cluster up` created (gcloud): only what carries its label",
                               flags);
    command->add_flag("--dry-run", flags->dry_run, "describe what is there and print what would run");
    command->callback([&action, flags, up] { action = [flags, up] { return up_or_down(*flags, up); }; });
  }
  add_check(cluster, action, flags);
}

const CommandRegistration registration(35, "cluster", setup);

}  // namespace
}  // namespace gkebuild::cli
