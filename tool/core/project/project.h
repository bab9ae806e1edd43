// The project file, gkebuild.yaml: images to build and experiments to run on GKE.
// load_project checks every field; any error is a SourceError naming file:line:col.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/source_error.h"
#include "tool/core/catalog/catalog.h"

namespace gkebuild::project {

inline constexpr const char* kApiVersion = "gkebuild/v1";

enum class DriverInstaller { Auto, Cos, Ubuntu, None };
std::string to_string(DriverInstaller installer);

using EnvList = std::vector<std::pair<std::string, std::string>>;  // in file order

// A name written in the project file, with where it was written (for errors found later, such
// as a secret variable missing from the submitter's environment).
struct NameAt {
  std::string name;
  SourceLocation where;
};

// A build secret of an image (`secrets:` in the project file, `gkebuild image --secret`): its
// value is read when the image is built, from the file `src` (relative to the project folder)
// or the submitter's environment variable `env`, and reaches only the RUNs that mount it.
struct ImageSecret {
  std::string id;
  std::string src;
  std::string env;
  SourceLocation where;
};

// A node taint as gcloud writes it: key=value:Effect (Effect NoSchedule, PreferNoSchedule, NoExecute).
struct Taint {
  std::string key;
  std::string value;
  std::string effect;
};

// Who installs the NVIDIA driver on a GPU pool's nodes: GKE (gpu-driver-version=default or
// latest), or the driver installer DaemonSet that submit applies (gpu-driver-version=disabled).
enum class GpuDriver { Default, Latest, Installer };
std::string to_string(GpuDriver driver);

// How GKE obtains a GPU pool's nodes (gke-scarce-gpus-and-multinode.md): ordinary VMs, Spot VMs,
// flex-start VMs (Dynamic Workload Scheduler: the autoscaler adds nodes when capacity is found),
// or flex-start with queued provisioning (nodes only through a ProvisioningRequest, all at once;
// gkebuild lets Kueue make the request).
enum class Provisioning { OnDemand, Spot, FlexStart, Queued };
std::string to_string(Provisioning provisioning);
// The project-file word ("on-demand", "spot", "flex-start", "queued"); nullopt for others.
std::optional<Provisioning> parse_provisioning(std::string_view text);
// Flex-start and queued pools start at zero nodes and are never repaired.
inline bool is_flex(Provisioning provisioning) {
  return provisioning == Provisioning::FlexStart || provisioning == Provisioning::Queued;
}

// One autoscaled GPU node pool of a Standard cluster; node counts are for the whole pool.
// A CPU pool of CPU-only experiments is one too, with no accelerator and no GPUs.
struct GpuPool {
  std::string name;
  std::string accelerator;   // catalog label; "" for a CPU pool
  std::string machine_type;  // from the catalog; a CPU pool's from its experiments' machineType
  int gpus_per_node = 1;     // fixed by the machine type; 0 for a CPU pool
  int min_nodes = 0;
  int max_nodes = 4;
  bool spot = false;          // provisioning == Spot, kept for the code that only asks this
  Provisioning provisioning = Provisioning::OnDemand;
  std::string reservation;    // a specific reservation (NAME or projects/P/reservations/R); "" = none
  std::string reservation_zone;  // reservation.zone: the zone it holds its VMs in; "" = not given
  // The pool's own zones (--node-locations, node_locations) where it must not span the cluster's:
  // compact placement and a zonal reservation need a single-zone pool. Empty = the cluster's.
  std::vector<std::string> zones;
  SourceLocation compact_where;      // the key that asked for compact placement
  SourceLocation reservation_where;  // the reservation key
  long long max_run_seconds = 0;  // flex-start VMs: --max-run-duration; 0 = GKE's default (7 days)
  bool gvnic = false;         // Google Virtual NIC: the pools of multi-node experiments
  bool compact = false;       // compact placement (nodes close together)
  bool gke_metadata = false;  // the GKE metadata server (Workload Identity; storage.gcs needs it)
  std::vector<Taint> taints;
  GpuDriver driver = GpuDriver::Default;
  std::string sharing;      // "", "time-sharing" or "mps"
  int clients_per_gpu = 0;  // with sharing
  std::string partition;    // MIG partition size, one the catalog lists; "" = whole GPUs
  bool derived = false;     // from the experiments' accelerators, not written in the file
  SourceLocation where;
};

// The GKE cluster itself, for `gkebuild cluster render|up|down|check`.
struct GkeCluster {
  std::string name;
  std::string gcp_project;
  std::string location;  // a region (regional control plane) or a zone
  std::vector<std::string> node_locations;
  std::string release_channel = "regular";
  bool autopilot = false;  // no pools: GKE makes nodes for each Pod's requests and selectors
  std::string compute_class;  // a nodeSelector cloud.google.com/compute-class on every Job ("Accelerator")
  std::string admin_machine_type = "e2-standard-4";  // the CPU pool kube-system runs on
  int admin_nodes = 1;                                // per zone
  std::vector<GpuPool> pools;
  // storage.gcs: the Cloud Storage FUSE CSI driver add-on and Workload Identity
  // (--workload-pool=PROJECT.svc.id.goog) on the cluster, the GKE metadata server on its pools.
  bool gcs_fuse = false;
  SourceLocation where;

  bool regional() const;
  // The region of `location` ("us-central1" for "us-central1-a"); "" without a location.
  std::string region() const;
  std::string workload_pool() const { return gcp_project + ".svc.id.goog"; }
  // The context `gcloud container clusters get-credentials` writes: gke_PROJECT_LOCATION_NAME.
  std::string context_name() const;
};

// How an experiment's `fallback:` list is carried out (`cluster.failover:`): GKE's custom
// ComputeClass, whose priorities GKE tries itself, or the follower, which deletes a point's Job
// whose pods wait for nodes past pendingTimeout and creates the next alternative's Job under the
// same name (for clusters with fixed pools, which gkebuild derives for every alternative).
enum class Failover { ComputeClass, Follow };
std::string to_string(Failover failover);  // "computeClass", "follow": the project-file word

struct Cluster {
  std::string context;    // kubeconfig context; empty = current-context (or the GKE cluster's)
  std::string namespace_name;
  DriverInstaller driver_installer = DriverInstaller::Auto;
  bool local = false;  // `cluster: local`: `gkebuild submit` runs the Jobs on this machine (as --local)
  std::string service_account;  // the Kubernetes ServiceAccount the Jobs run as; "" = the namespace's default
  bool jobset = false;  // render multi-node experiments as JobSets (jobset.x-k8s.io/v1alpha2), as xpk runs them
  Failover failover = Failover::ComputeClass;  // `failover:`: how experiments' fallback: lists are carried out
  std::optional<GkeCluster> gke;  // when the file describes the cluster (name, gcpProject, location…)
};

struct Image {
  std::string name;
  std::string from = "scratch";            // scratch | registry reference | oci:DIR
  std::string workload;                    // a CMake target of `source`, or a shipped workload's binary
  std::string source;                      // the CMake project (relative to the project folder); empty: the
                                           // project folder when it has a CMakeLists.txt
  std::vector<std::string> cuda_libraries; // taken from the CUDA toolkit into their own layer
  // The user's Dockerfile (relative to the project folder), used as written; a name ending
  // in .j2 is a template (looked up in templates/, then beside gkebuild.yaml) rendered first.
  // Empty: the shipped Dockerfile.j2 around the staged workload.
  std::string dockerfile;
  std::string context;                     // the build context of `dockerfile`, inside the project
                                           // folder; empty: the project folder
  std::vector<std::string> entrypoint;     // default: the workload binary
  EnvList env;
  EnvList labels;
  std::vector<ImageSecret> secrets;  // build secrets for RUN --mount=type=secret
  SourceLocation where;
};

struct SweepAxis {
  std::string name;
  std::vector<nlohmann::ordered_json> values;  // scalars, typed as YAML reads them
  SourceLocation where;  // its key in the project file, or the --sweep flag that gave it
};

// One variable of an experiment's `search:`: a real range (uniform, or uniform in log space with
// `log: true`), an integer range (`integer: true`, both ends included), or a list of choices.
struct SearchVariable {
  std::string name;
  double min = 0;
  double max = 0;
  bool log = false;
  bool integer = false;
  std::vector<nlohmann::ordered_json> choices;  // non-empty: a choice; min and max unused
  SourceLocation where;  // its key under search.variables
};

// `halving` samples its points as `random` does (the same seed, the same points) and stops them
// at rungs (SearchHalving).
enum class SearchAlgorithm { Random, Sobol, Halving };
std::string to_string(SearchAlgorithm algorithm);  // "random", "sobol", "halving": the project-file word

// What a search optimises: a result line's metric (reported with a step or epoch for the stopping
// rules) and which end is better. `search.objective:`; earlyStopping reads the same one.
struct Objective {
  std::string metric;
  bool minimize = true;
  SourceLocation where;
};

// `search.halving:` of `algorithm: halving`, named as Optuna's SuccessiveHalvingPruner names them:
// rung k is at step minResource * reductionFactor^(minEarlyStoppingRate + k); a point that reaches
// a rung goes on only while its value there is in the top 1/reductionFactor of the values of the
// points that reached that rung so far (asynchronous successive halving, ASHA's stopping form).
// No rung at or past `max_resource` (0: no bound): a point that reached it runs to its end.
struct Halving {
  double min_resource = 1;
  int reduction_factor = 3;
  int min_early_stopping_rate = 0;
  double max_resource = 0;
  SourceLocation where;
};

// `search:` of an experiment: `trials` points sampled over the variables, each one sweep point
// (with `sweep:` beside it, every grid point once per trial). Same file, same points: random
// search draws from xoshiro256** seeded with `seed`; Sobol' points are fixed (seed unused).
struct Search {
  SearchAlgorithm algorithm = SearchAlgorithm::Random;
  int trials = 0;
  std::uint64_t seed = 0;
  std::vector<SearchVariable> variables;  // in file order
  std::optional<Objective> objective;     // required by halving; marks the best trial in the report
  Halving halving;                        // algorithm: halving only
  SourceLocation where;
};

// `budget:` of an experiment: the most its run may cost if every Job runs to its deadline, in
// GPU-hours and/or US dollars (catalog prices); submit refuses a plan whose worst case passes it.
struct Budget {
  std::optional<double> gpu_hours;
  std::optional<double> usd;
  SourceLocation gpu_hours_where;
  SourceLocation usd_where;
  SourceLocation where;
};

// One entry of an experiment's `fallback:` list: another accelerator and provisioning its Jobs
// may run on when the experiment's own have no capacity. With cluster.failover: computeClass
// `gkebuild cluster render` turns the experiment's own choice and its alternatives, in order,
// into a custom ComputeClass whose priorities GKE tries in that order (the Jobs select the class
// instead of an accelerator); with follow, submit plans each Job once per alternative (same
// name) and the follower recreates a waiting point on the next one, on pools gkebuild derives.
struct Alternative {
  std::string accelerator;  // catalog label
  int gpus = 0;             // per pod (node); the experiment's own unless failover: follow
  int nodes = 0;            // pods per Job; the experiment's own unless failover: follow
  Provisioning provisioning = Provisioning::OnDemand;
  std::string reservation;  // NAME or projects/P/reservations/R: on-demand nodes of that reservation
  std::string reservation_zone;  // reservation.zone; "" = not given (a derived pool keeps to it)
  SourceLocation reservation_where;
  SourceLocation where;
};

// `earlyStopping:` of an experiment (median stopping, as Google Vizier's rule): a point whose best
// value of `metric` up to step s is worse than the median of the other points' values at step s
// is stopped, once it is past `warmup` steps and at least `min_points` others reached step s.
struct EarlyStopping {
  Objective objective;  // its own metric and goal, or the search's objective
  double warmup = 1;   // steps before which no point is stopped
  int min_points = 3;  // other points that must have reached the step
  SourceLocation where;
};

struct Experiment {
  std::string name;
  std::string image;
  std::vector<std::string> command;  // replaces the image entrypoint when set
  std::vector<std::string> args;     // may use {{ sweep variables }}, {{ seed }}, {{ values.x }}
  EnvList env;                       // values may use the same variables
  // Environment variables whose values are read from the submitter's environment at submit
  // and reach the Job through a Secret of the run (secretKeyRef): never in a manifest or record.
  std::vector<NameAt> secret_env;
  std::vector<NameAt> secret_refs;  // existing Secrets of the namespace, every key as a variable (envFrom)
  std::vector<std::string> accelerators;  // empty: a CPU-only experiment (gpus == 0)
  int gpus = 1;
  std::string machine_type;  // machineType: of a CPU-only experiment's VMs; "" for a GPU experiment
  bool cpu_only() const { return gpus == 0; }
  std::string cpu;     // Kubernetes quantity, empty = not set
  std::string memory;  // Kubernetes quantity, empty = not set
  bool spot = false;  // provisioning == Spot (`spot: true` is the same)
  Provisioning provisioning = Provisioning::OnDemand;
  std::string reservation;  // NAME or projects/P/reservations/R: Jobs select its nodes
  std::string reservation_zone;  // reservation.zone; "" = not given
  SourceLocation reservation_where;
  // Nodes per Job: > 1 makes each Job an Indexed Job of `nodes` pods (one per node, `gpus` each)
  // with a headless Service, so that pod i is <job>-i.<service> (torchrun's rendezvous).
  int nodes = 1;
  bool compact = false;        // its derived pool gets compact placement
  SourceLocation compact_where;
  // sizeLimit of the in-memory /dev/shm every pod mounts (NCCL and DataLoader workers need more
  // than the container runtime's 64 MiB); "" = no limit of its own (the pod's memory bounds it).
  std::string shm_size;
  std::vector<SweepAxis> sweep;  // grid product, in file order
  std::optional<Search> search;  // sampled points, times the grid's
  std::optional<Budget> budget;
  int seeds = 0;                 // > 0: an Indexed Job with seed = completion index 0..seeds-1
  // > 0: the sweep runs as one Indexed Job per accelerator, index i = sweep point i, at most
  // `parallelism` points at once (the cluster's Job controller keeps the cap, not gkebuild).
  int parallelism = 0;
  long long timeout_seconds = 86400;         // activeDeadlineSeconds
  int backoff_limit = 1;
  // Gang restarts of a multi-node Job (`restarts:`, default 3 for nodes > 1, else 0): a disruption
  // of any node restarts every node, from the newest checkpoint, at most this many times; a
  // non-zero exit (a user error) fails the run at once. A JobSet's failurePolicy does it.
  int restarts = 0;
  // Exit codes (1-255) of a multi-node Job's program that mean "try again", not a user error
  // (`retriableExitCodes:`): they count as a failure of the Job, which a JobSet restarts, instead
  // of failing the run at once. Empty: every non-zero exit is a user error.
  std::vector<int> retriable_exit_codes;
  long long ttl_seconds_after_finished = 259200;
  bool storage = true;                       // mount the project's shared storage, if any
  // A Kueue LocalQueue in the project's namespace: Jobs are created suspended with the
  // kueue.x-k8s.io/queue-name label and Kueue starts them as quota allows. Empty = no Kueue.
  std::string queue;
  // `fallback:` in file order (empty: none). With alternatives the experiment has one accelerator.
  std::vector<Alternative> fallback;
  SourceLocation fallback_where;
  // `pendingTimeout:` (default 15m): how long a point's pods may stay unschedulable before the
  // follower-driven fallback (cluster.failover: follow) moves it to the next alternative.
  // Recorded on the Jobs (gkebuild.io/pending-timeout-seconds) in either mode.
  long long pending_timeout_seconds = 900;
  std::optional<EarlyStopping> early_stopping;  // `earlyStopping:`; the follower acts on it
  SourceLocation where;
};

// `kueue:` in gkebuild.yaml: the queue objects `gkebuild render` writes for the project
// (a ResourceFlavor per accelerator, one ClusterQueue with a GPU quota per flavor, and a
// LocalQueue in the project's namespace that experiments name with `queue:`).
// The cpu and memory quotas of a ClusterQueue whose kueue: section gives none, as Google's
// DWS sample (ai-on-gke dws-queues.yaml) writes them: "infinite", the GPU quota is the limit.
inline constexpr const char* kUnboundedCpu = "10000";
inline constexpr const char* kUnboundedMemory = "10000Gi";

struct Kueue {
  std::string queue;          // the LocalQueue's name
  std::string cluster_queue;  // the ClusterQueue's name (default: the project's name)
  std::vector<std::pair<std::string, int>> gpus;  // accelerator label -> nominal quota in GPUs, in file order
  // Quotas of cpu and memory, always covered (Kueue refuses a pod's request, defaulted ones
  // included, for a resource its ClusterQueue does not cover); unless given, kUnbounded*.
  std::string cpu;
  std::string memory;
  SourceLocation where;

  int gpu_quota(std::string_view accelerator) const;  // 0 when the accelerator has no flavor
  // Queued provisioning (experiments' provisioning: queued) gets queues of its own, as GKE's
  // samples do: a ClusterQueue whose flavors all pass the ProvisioningRequest admission check,
  // and the LocalQueue those experiments name. A shared ClusterQueue could admit a queued Job
  // on an ordinary flavor, where no node would ever come for it.
  std::string queued_queue() const { return queue + "-queued"; }
  std::string queued_cluster_queue() const { return cluster_queue + "-queued"; }
};

struct NfsStorage {
  std::string size = "10Gi";
  std::string mount_path = "/storage";
  std::string storage_class;  // for the server's disk; empty = the cluster default
};

// storage.gcs: a Cloud Storage bucket mounted with the GCS FUSE CSI driver (an ephemeral
// CSI volume in every Job; the Jobs' ServiceAccount needs access to the bucket).
struct GcsStorage {
  std::string bucket;
  std::string mount_path = "/gcs";
  bool read_only = false;
  std::string only_dir;  // mount only this folder of the bucket; "" = the whole bucket
  SourceLocation where;
};

struct Project {
  std::filesystem::path file;  // the project file as named
  std::filesystem::path dir;   // its folder: templates/ and workloads are found from here
  std::string name;
  std::string registry;
  Cluster cluster;
  std::vector<Image> images;
  std::vector<Experiment> experiments;
  std::optional<NfsStorage> nfs;
  std::optional<GcsStorage> gcs;
  std::optional<Kueue> kueue;

  const Image* find_image(std::string_view name) const;
  const Experiment* find_experiment(std::string_view name) const;
  std::vector<std::string> image_names() const;
  std::vector<std::string> experiment_names() const;
};

// Whether `experiment` has a fallback: list that its Jobs carry out by selecting a custom
// ComputeClass (cluster.failover: computeClass), or that the follower carries out (follow).
bool uses_compute_class(const Project& project, const Experiment& experiment);
bool follows_fallback(const Project& project, const Experiment& experiment);

// Reads and checks a project file (at most 16 MiB).
Project load_project(const std::filesystem::path& file,
                     const catalog::Catalog& catalog = catalog::Catalog::builtin());
// The same for text already in memory; `file_name` is used in messages and for `dir`.
Project parse_project(std::string text, const std::filesystem::path& file_name,
                      const catalog::Catalog& catalog = catalog::Catalog::builtin());

}  // namespace gkebuild::project
