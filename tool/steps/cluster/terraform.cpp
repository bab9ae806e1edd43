#include "tool/steps/cluster/terraform.h"

#include <algorithm>
#include <vector>

#include "base/printable.h"
#include "tool/steps/cluster/gcloud_commands.h"

namespace gkebuild::cluster {
namespace {

using project::GkeCluster;
using project::GpuPool;

// HCL text with `terraform fmt`'s one layout rule that matters here: the `=` of
// consecutive one-line attributes in a block line up.
class HclWriter {
 public:
  void attribute(const std::string& key, const std::string& value) { lines_.push_back({depth_, key, value, true}); }
  void open(const std::string& header) {
    lines_.push_back({depth_, header + " {", "", false});
    ++depth_;
  }
  void close() {
    --depth_;
    lines_.push_back({depth_, "}", "", false});
  }
  void blank() { lines_.push_back({0, "", "", false}); }
  // Escaped: a newline in what a comment quotes (the project file's name) would end it and
  // start HCL of its own.
  void comment(const std::string& text) { lines_.push_back({depth_, "# " + printable(text), "", false}); }

  std::string text() const {
    std::string out;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const Line& line = lines_[i];
      out += std::string(line.text.empty() ? 0 : 2 * line.depth, ' ');
      if (!line.attribute) {
        out += line.text + "\n";
        continue;
      }
      out += line.text + std::string(group_width(i) - line.text.size(), ' ') + " = " + line.value + "\n";
    }
    return out;
  }

 private:
  struct Line {
    int depth;
    std::string text;  // the key of an attribute, else the whole line
    std::string value;
    bool attribute;
  };

  // The longest key among the attributes next to line `i` at its depth.
  std::size_t group_width(std::size_t i) const {
    auto same = [&](std::size_t j) { return lines_[j].attribute && lines_[j].depth == lines_[i].depth; };
    std::size_t first = i, last = i;
    while (first > 0 && same(first - 1)) --first;
    while (last + 1 < lines_.size() && same(last + 1)) ++last;
    std::size_t width = 0;
    for (std::size_t j = first; j <= last; ++j) width = std::max(width, lines_[j].text.size());
    return width;
  }

  std::vector<Line> lines_;
  int depth_ = 0;
};

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '$' || c == '%') out += c;  // "$${" and "%%{" are the literal forms of template openers
    out += c;
  }
  return out + "\"";
}

std::string string_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const auto& item : items) out += (out.size() > 1 ? ", " : "") + quoted(item);
  return out + "]";
}

std::string upper(std::string text) {
  for (char& c : text) c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// Terraform resource names: letters, digits, _ (and -), starting with a letter.
std::string resource_name(const std::string& pool) {
  std::string name = pool;
  std::replace(name.begin(), name.end(), '-', '_');
  return name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ? "pool_" + name : name;
}

std::string created_by_labels() { return std::string("{ ") + kCreatedByKey + " = " + quoted(kCreatedByValue) + " }"; }

std::string taint_effect(const std::string& effect) {
  if (effect == "PreferNoSchedule") return "PREFER_NO_SCHEDULE";
  if (effect == "NoExecute") return "NO_EXECUTE";
  return "NO_SCHEDULE";
}

std::string driver_version(project::GpuDriver driver) {
  switch (driver) {
    case project::GpuDriver::Latest: return "LATEST";
    case project::GpuDriver::Installer: return "INSTALLATION_DISABLED";
    case project::GpuDriver::Default: break;
  }
  return "DEFAULT";
}

void write_cluster(HclWriter& hcl, const GkeCluster& cluster) {
  hcl.open("resource \"google_container_cluster\" \"cluster\"");
  hcl.attribute("name", quoted(cluster.name));
  hcl.attribute("project", quoted(cluster.gcp_project));
  hcl.attribute("location", quoted(cluster.location));
  if (cluster.autopilot) {
    hcl.attribute("enable_autopilot", "true");
  } else {
    if (!cluster.node_locations.empty()) hcl.attribute("node_locations", string_list(cluster.node_locations));
    // Pools are resources of their own, so the default pool goes.
    hcl.attribute("remove_default_node_pool", "true");
    hcl.attribute("initial_node_count", "1");
  }
  hcl.attribute("deletion_protection", "false");
  hcl.attribute("resource_labels", created_by_labels());
  hcl.open("release_channel");
  hcl.attribute("channel", quoted(upper(cluster.release_channel)));
  hcl.close();
  if (!cluster.autopilot) {
    hcl.open("cluster_autoscaling");
    hcl.attribute("autoscaling_profile", quoted("OPTIMIZE_UTILIZATION"));
    hcl.close();
  }
  if (cluster.gcs_fuse && !cluster.autopilot) {  // Autopilot has both already
    hcl.open("workload_identity_config");
    hcl.attribute("workload_pool", quoted(cluster.workload_pool()));
    hcl.close();
    hcl.open("addons_config");
    hcl.open("gcs_fuse_csi_driver_config");
    hcl.attribute("enabled", "true");
    hcl.close();
    hcl.close();
  }
  hcl.close();
}

void write_bucket_access(HclWriter& hcl, const GkeCluster& cluster, const BucketAccess& access) {
  hcl.blank();
  hcl.comment("storage.gcs: the Jobs' ServiceAccount " + access.namespace_name + "/" + access.service_account +
              " gets the bucket through Workload Identity.");
  hcl.open("data \"google_project\" \"project\"");
  hcl.attribute("project_id", quoted(cluster.gcp_project));
  hcl.close();
  hcl.blank();
  const Argv binding = bind_bucket(cluster, access, "PROJECT_NUMBER");
  std::string member = quoted(binding[4].substr(std::string("--member=").size()));
  member.replace(member.find("PROJECT_NUMBER"), 14, "${data.google_project.project.number}");
  hcl.open("resource \"google_storage_bucket_iam_member\" \"jobs\"");
  hcl.attribute("bucket", quoted(access.bucket));
  hcl.attribute("role", quoted(binding[5].substr(std::string("--role=").size())));
  hcl.attribute("member", member);
  hcl.close();
}

void write_gke_metadata(HclWriter& hcl) {
  hcl.open("workload_metadata_config");
  hcl.attribute("mode", quoted("GKE_METADATA"));
  hcl.close();
}

void write_reservation_affinity(HclWriter& hcl, const GpuPool& pool) {
  if (!project::is_flex(pool.provisioning) && pool.reservation.empty()) return;
  hcl.open("reservation_affinity");
  if (pool.reservation.empty()) {
    hcl.attribute("consume_reservation_type", quoted("NO_RESERVATION"));
  } else {
    hcl.attribute("consume_reservation_type", quoted("SPECIFIC_RESERVATION"));
    hcl.attribute("key", quoted("compute.googleapis.com/reservation-name"));
    hcl.attribute("values", string_list({pool.reservation}));
  }
  hcl.close();
}

// The pool-level blocks of flex-start, queued provisioning and compact placement.
void write_pool_scheduling(HclWriter& hcl, const GpuPool& pool) {
  if (project::is_flex(pool.provisioning)) {
    hcl.open("management");
    hcl.attribute("auto_repair", "false");
    hcl.close();
  }
  if (pool.provisioning == project::Provisioning::Queued) {
    hcl.open("queued_provisioning");
    hcl.attribute("enabled", "true");
    hcl.close();
  }
  if (pool.compact) {
    hcl.open("placement_policy");
    hcl.attribute("type", quoted("COMPACT"));
    hcl.close();
  }
}

void write_admin_pool(HclWriter& hcl, const GkeCluster& cluster) {
  hcl.blank();
  hcl.comment("The admin pool: small and always on, for kube-system.");
  hcl.open("resource \"google_container_node_pool\" \"admin\"");
  hcl.attribute("name", quoted("admin"));
  hcl.attribute("project", quoted(cluster.gcp_project));
  hcl.attribute("location", quoted(cluster.location));
  hcl.attribute("cluster", "google_container_cluster.cluster.name");
  hcl.attribute("node_count", std::to_string(cluster.admin_nodes));
  hcl.open("node_config");
  hcl.attribute("machine_type", quoted(cluster.admin_machine_type));
  hcl.attribute("resource_labels", created_by_labels());
  if (cluster.gcs_fuse) write_gke_metadata(hcl);
  hcl.close();
  hcl.close();
}

void write_accelerator(HclWriter& hcl, const GpuPool& pool) {
  hcl.open("guest_accelerator");
  hcl.attribute("type", quoted(pool.accelerator));
  hcl.attribute("count", std::to_string(pool.gpus_per_node));
  if (!pool.partition.empty()) hcl.attribute("gpu_partition_size", quoted(pool.partition));
  hcl.open("gpu_driver_installation_config");
  hcl.attribute("gpu_driver_version", quoted(driver_version(pool.driver)));
  hcl.close();
  if (!pool.sharing.empty()) {
    hcl.open("gpu_sharing_config");
    hcl.attribute("gpu_sharing_strategy", quoted(upper(pool.sharing)));
    hcl.attribute("max_shared_clients_per_gpu", std::to_string(pool.clients_per_gpu));
    hcl.close();
  }
  hcl.close();
}

void write_gpu_pool(HclWriter& hcl, const GkeCluster& cluster, const GpuPool& pool) {
  hcl.blank();
  hcl.open("resource \"google_container_node_pool\" \"" + resource_name(pool.name) + "\"");
  hcl.attribute("name", quoted(pool.name));
  hcl.attribute("project", quoted(cluster.gcp_project));
  hcl.attribute("location", quoted(cluster.location));
  hcl.attribute("cluster", "google_container_cluster.cluster.name");
  // A compact or reservation pool's one zone; otherwise it inherits the cluster's node_locations.
  if (!pool.zones.empty()) hcl.attribute("node_locations", string_list(pool.zones));
  hcl.attribute("initial_node_count", std::to_string(pool.min_nodes));
  // After the admin pool, so that GKE sees a CPU pool first (its own GPU taint depends on it).
  hcl.attribute("depends_on", "[google_container_node_pool.admin]");
  hcl.open("autoscaling");
  hcl.attribute("total_min_node_count", std::to_string(pool.min_nodes));
  hcl.attribute("total_max_node_count", std::to_string(pool.max_nodes));
  hcl.attribute("location_policy", quoted(location_policy(pool)));
  hcl.close();
  write_pool_scheduling(hcl, pool);
  hcl.open("node_config");
  hcl.attribute("machine_type", quoted(pool.machine_type));
  hcl.attribute("spot", pool.spot ? "true" : "false");
  if (project::is_flex(pool.provisioning)) hcl.attribute("flex_start", "true");
  if (pool.max_run_seconds > 0) hcl.attribute("max_run_duration", quoted(std::to_string(pool.max_run_seconds) + "s"));
  hcl.attribute("resource_labels", created_by_labels());
  write_reservation_affinity(hcl, pool);
  if (pool.gvnic) {
    hcl.open("gvnic");
    hcl.attribute("enabled", "true");
    hcl.close();
  }
  if (pool.gke_metadata) write_gke_metadata(hcl);
  for (const auto& taint : pool.taints) {
    hcl.open("taint");
    hcl.attribute("key", quoted(taint.key));
    hcl.attribute("value", quoted(taint.value));
    hcl.attribute("effect", quoted(taint_effect(taint.effect)));
    hcl.close();
  }
  if (!pool.accelerator.empty()) write_accelerator(hcl, pool);  // "": a CPU pool
  hcl.close();
  hcl.close();
}

}  // namespace

std::string terraform_module(const GkeCluster& cluster, const std::string& project_file,
                             const std::optional<BucketAccess>& bucket) {
  HclWriter hcl;
  hcl.comment("GKE cluster " + cluster.name + " of " + project_file + ", rendered by `gkebuild cluster render`.");
  hcl.open("terraform");
  hcl.open("required_providers");
  hcl.attribute("google", "{ source = \"hashicorp/google\" }");
  hcl.close();
  hcl.close();
  hcl.blank();
  write_cluster(hcl, cluster);
  if (!cluster.autopilot) {
    write_admin_pool(hcl, cluster);
    for (const auto& pool : cluster.pools) write_gpu_pool(hcl, cluster, pool);
  }
  if (bucket) write_bucket_access(hcl, cluster, *bucket);
  return hcl.text();
}

}  // namespace gkebuild::cluster
