// Shared pieces of the project-file parser (project_parse.cpp, experiment_parse.cpp).
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tool/core/catalog/catalog.h"
#include "tool/core/project/project.h"
#include "tool/core/yamlfile/document.h"
#include "tool/core/yamlfile/fields.h"

namespace gkebuild::project::detail {

// `name: value` pairs; values may be strings, numbers or booleans (kept as written).
EnvList parse_string_map(const yamlfile::Document& doc, const YAML::Node& node, const std::string& what);
// Fails at `at` unless `name` is a DNS-1123 label (it becomes part of object names and labels).
void require_dns_label(const yamlfile::Document& doc, const YAML::Node& at, const std::string& name,
                       const std::string& what);
// Each (key node, value node) of a mapping, in file order.
std::vector<std::pair<YAML::Node, YAML::Node>> entries(const yamlfile::Document& doc,
                                                       const YAML::Node& node, const std::string& what);

// Fails at `at` unless `name` can be a template variable of args and env, and none gkebuild sets
// (`seed` only where `seed_allowed`: a sweep axis `seed` is the seed the Jobs see).
void require_variable_name(const yamlfile::Document& doc, const YAML::Node& at, const std::string& name,
                           const std::string& what, bool seed_allowed);
// `search:` and `budget:` of an experiment (search_parse.cpp); `sweep` is its grid, read already.
Search parse_search(const yamlfile::Fields& experiment_fields, const std::vector<SweepAxis>& sweep);
// {metric, goal} read from `fields` (goal minimize unless given): search.objective and earlyStopping's own.
Objective parse_objective(const yamlfile::Fields& fields);
Budget parse_budget(const yamlfile::Fields& experiment_fields);

// A specific reservation: a name, or a shared one as projects/OWNER/reservations/NAME.
bool is_reservation(const std::string& text);
// `reservation:` of an experiment or a pool: NAME, projects/P/reservations/NAME, or
// {name: …, zone: ZONE} (a reservation is zonal: the pool that consumes it must be in ZONE).
struct ReservationKey {
  std::string name;
  std::string zone;
  SourceLocation where;
};
ReservationKey read_reservation(const yamlfile::Fields& fields);
// `provisioning:` (which must be there): on-demand, spot, flex-start or queued, else an error with a did-you-mean.
Provisioning read_provisioning_word(const yamlfile::Fields& fields);

// `fallback:` of an experiment whose other keys are read already (fallback_parse.cpp).
// `failover` (cluster.failover) decides what an alternative may change: gpus and nodes only with follow.
void parse_fallback(const yamlfile::Fields& fields, Experiment& experiment, const catalog::Catalog& catalog,
                    Failover failover);

// The keys `cluster:` accepts (cluster_parse.cpp).
const std::vector<std::string>& cluster_keys();
// `cluster.failover:` computeClass (the default) or follow, else an error at the key.
Failover parse_failover(const yamlfile::Fields& fields);
// The GKE cluster `cluster:` describes, if it names one (gcpProject, location…); GPU pools
// not written out are derived from `project.experiments`, so call it after they are read.
std::optional<GkeCluster> parse_gke_cluster(const yamlfile::Document& doc, const YAML::Node& node,
                                            const Project& project, const catalog::Catalog& catalog);

Experiment parse_experiment(const yamlfile::Document& doc, const YAML::Node& key, const YAML::Node& value,
                            const std::vector<std::string>& image_names, const catalog::Catalog& catalog,
                            Failover failover);

// secretEnv and secretRefs of an experiment whose env is read already (secrets_parse.cpp).
void parse_experiment_secrets(const yamlfile::Fields& fields, Experiment& experiment);
// `earlyStopping:` of an experiment (early_stopping_parse.cpp).
void parse_early_stopping(const yamlfile::Fields& fields, Experiment& experiment);
// `secrets:` of an image: build secrets, each {id, src} (a file in the project folder) or {id, env}.
std::vector<ImageSecret> parse_image_secrets(const yamlfile::Fields& fields, const std::filesystem::path& project_dir);

// `kueue:` at the top level.
Kueue parse_kueue(const yamlfile::Document& doc, const YAML::Node& node, const std::string& project_name,
                  const catalog::Catalog& catalog);
// An experiment that names the project's own queue must fit it: a flavor for each of its
// accelerators, and a CPU or memory quota when it requests CPU or memory.
void check_queue_fits(const yamlfile::Document& doc, const YAML::Node& experiment_node, const Experiment& experiment,
                      const Kueue& kueue);

}  // namespace gkebuild::project::detail
