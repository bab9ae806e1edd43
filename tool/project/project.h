// The project file, gkebuild.yaml: images to build and experiments to run on GKE.
// load_project checks every field; any error is a SourceError naming file:line:col.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/source_error.h"
#include "catalog/catalog.h"

namespace gkebuild::project {

inline constexpr const char* kApiVersion = "gkebuild/v1";

enum class DriverInstaller { Auto, Cos, Ubuntu, None };
std::string to_string(DriverInstaller installer);

using EnvList = std::vector<std::pair<std::string, std::string>>;  // in file order

struct Cluster {
  std::string context;    // kubeconfig context; empty = current-context
  std::string namespace_name;
  DriverInstaller driver_installer = DriverInstaller::Auto;
  bool local = false;  // `cluster: local`: `gkebuild submit` runs the Jobs on this machine (as --local)
};

struct Image {
  std::string name;
  std::string from = "scratch";            // scratch | registry reference | oci:DIR
  std::string workload;                    // a CMake target of `source`, or a shipped workload's binary
  std::string source;                      // the CMake project (relative to the project folder); empty: the
                                           // project folder when it has a CMakeLists.txt
  std::vector<std::string> cuda_libraries; // taken from the CUDA toolkit into their own layer
  std::string dockerfile;                  // a project template used instead of Dockerfile.j2
  std::vector<std::string> entrypoint;     // default: the workload binary
  EnvList env;
  EnvList labels;
  SourceLocation where;
};

struct SweepAxis {
  std::string name;
  std::vector<nlohmann::ordered_json> values;  // scalars, typed as YAML reads them
};

struct Experiment {
  std::string name;
  std::string image;
  std::vector<std::string> command;  // replaces the image entrypoint when set
  std::vector<std::string> args;     // may use {{ sweep variables }}, {{ seed }}, {{ values.x }}
  EnvList env;                       // values may use the same variables
  std::vector<std::string> accelerators;
  int gpus = 1;
  std::string cpu;     // Kubernetes quantity, empty = not set
  std::string memory;  // Kubernetes quantity, empty = not set
  bool spot = false;
  std::vector<SweepAxis> sweep;  // grid product, in file order
  int seeds = 0;                 // > 0: an Indexed Job with seed = completion index 0..seeds-1
  long long timeout_seconds = 86400;         // activeDeadlineSeconds
  int backoff_limit = 1;
  long long ttl_seconds_after_finished = 259200;
  bool storage = true;                       // mount the project's shared storage, if any
  SourceLocation where;
};

struct NfsStorage {
  std::string size = "10Gi";
  std::string mount_path = "/storage";
  std::string storage_class;  // for the server's disk; empty = the cluster default
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

  const Image* find_image(std::string_view name) const;
  const Experiment* find_experiment(std::string_view name) const;
  std::vector<std::string> image_names() const;
  std::vector<std::string> experiment_names() const;
};

// Reads and checks a project file (at most 16 MiB).
Project load_project(const std::filesystem::path& file,
                     const catalog::Catalog& catalog = catalog::Catalog::builtin());
// The same for text already in memory; `file_name` is used in messages and for `dir`.
Project parse_project(std::string text, const std::filesystem::path& file_name,
                      const catalog::Catalog& catalog = catalog::Catalog::builtin());

}  // namespace gkebuild::project
