#include "tool/core/project/project.h"

#include "tool/core/yamlfile/document.h"

namespace gkebuild::project {

std::string to_string(Failover failover) { return failover == Failover::Follow ? "follow" : "computeClass"; }

bool uses_compute_class(const Project& project, const Experiment& experiment) {
  return !experiment.fallback.empty() && project.cluster.failover == Failover::ComputeClass;
}

bool follows_fallback(const Project& project, const Experiment& experiment) {
  return !experiment.fallback.empty() && project.cluster.failover == Failover::Follow;
}

std::string to_string(DriverInstaller installer) {
  switch (installer) {
    case DriverInstaller::Auto: return "auto";
    case DriverInstaller::Cos: return "cos";
    case DriverInstaller::Ubuntu: return "ubuntu";
    case DriverInstaller::None: return "none";
  }
  return "auto";
}

std::string to_string(GpuDriver driver) {
  switch (driver) {
    case GpuDriver::Default: return "default";
    case GpuDriver::Latest: return "latest";
    case GpuDriver::Installer: return "installer";
  }
  return "default";
}

std::string to_string(Provisioning provisioning) {
  switch (provisioning) {
    case Provisioning::OnDemand: return "on-demand";
    case Provisioning::Spot: return "spot";
    case Provisioning::FlexStart: return "flex-start";
    case Provisioning::Queued: return "queued";
  }
  return "on-demand";
}

std::string to_string(SearchAlgorithm algorithm) {
  if (algorithm == SearchAlgorithm::Halving) return "halving";
  return algorithm == SearchAlgorithm::Sobol ? "sobol" : "random";
}

std::optional<Provisioning> parse_provisioning(std::string_view text) {
  for (auto provisioning : {Provisioning::OnDemand, Provisioning::Spot, Provisioning::FlexStart, Provisioning::Queued})
    if (text == to_string(provisioning)) return provisioning;
  return std::nullopt;
}

bool GkeCluster::regional() const {
  // Zones end in -a, -b…; regions in a digit (us-central1).
  return location.empty() || (location.back() >= '0' && location.back() <= '9');
}

std::string GkeCluster::region() const {
  return regional() ? location : location.substr(0, location.rfind('-'));
}

std::string GkeCluster::context_name() const { return "gke_" + gcp_project + "_" + location + "_" + name; }

int Kueue::gpu_quota(std::string_view accelerator) const {
  for (const auto& [label, quota] : gpus)
    if (label == accelerator) return quota;
  return 0;
}

const Image* Project::find_image(std::string_view wanted) const {
  for (const auto& image : images)
    if (image.name == wanted) return &image;
  return nullptr;
}

const Experiment* Project::find_experiment(std::string_view wanted) const {
  for (const auto& experiment : experiments)
    if (experiment.name == wanted) return &experiment;
  return nullptr;
}

std::vector<std::string> Project::image_names() const {
  std::vector<std::string> names;
  for (const auto& image : images) names.push_back(image.name);
  return names;
}

std::vector<std::string> Project::experiment_names() const {
  std::vector<std::string> names;
  for (const auto& experiment : experiments) names.push_back(experiment.name);
  return names;
}

Project load_project(const std::filesystem::path& file, const catalog::Catalog& catalog) {
  return parse_project(yamlfile::read_bounded(file), file, catalog);
}

}  // namespace gkebuild::project
