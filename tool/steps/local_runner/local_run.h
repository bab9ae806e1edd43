// The local runner: one container of a Job, run on this machine from the project's OCI
// layout with runc (or crun), the way a GKE node would run it. `gkebuild submit --local`
// calls run_container once per Job and records the result like a pod's.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tool/steps/local_runner/runtime_spec.h"

namespace gkebuild::local_runner {

struct ContainerSpec {
  std::filesystem::path layout_dir;  // OCI image layout (the project's .gkebuild/oci): input, digest-checked
  std::string image;                 // NAME:TAG as written in the layout's index.json, or sha256:… manifest digest
  std::vector<std::string> command;  // Kubernetes semantics: non-empty replaces the image Entrypoint
  std::vector<std::string> args;     // non-empty replaces the image Cmd
  std::vector<std::pair<std::string, std::string>> env;  // added to / overriding the image Env
  std::string name;                  // container id (unique per run, e.g. the Job name)
  bool gpus = false;                 // pass NVIDIA devices + driver libraries when present
  // With gpus: only these GPUs (N of /dev/nvidiaN), named in NVIDIA_VISIBLE_DEVICES; empty: all.
  std::vector<int> gpu_indexes;
  // Additions to the first agreement:
  std::string working_dir;  // the container's workingDir; empty: the image's WorkingDir, else "/"
  std::string runtime;      // "runc", "crun" or a path; empty: runc, else crun, from PATH
  // Hardening: a network namespace of its own unless host_network, and the Job's limits.
  bool host_network = false;
  // A multi-node Job's container: join this network namespace (SharedNetwork::path()) instead
  // of one of its own, with this file as its /etc/hosts (read-only) and this host name.
  std::filesystem::path network_namespace;
  std::filesystem::path hosts_file;
  std::string hostname;  // empty: the container name
  ResourceLimits limits;
  // Set (from a SIGINT handler, another thread…) to stop the container: it gets SIGTERM,
  // SIGKILL after stop_grace, and is deleted; the result's reason is then "Stopped".
  const std::atomic<bool>* stop = nullptr;
  std::chrono::seconds stop_grace{10};
  const std::atomic<bool>* force = nullptr;  // set: SIGKILL at once, without waiting out stop_grace
};

struct ContainerResult {
  int exit_code = -1;  // the process's exit status; 128+N when signal N ended it
  std::string start, end;  // RFC 3339 UTC with milliseconds
  std::chrono::system_clock::time_point started_at, ended_at;  // the same instants
  // "" when it exited 0; "exit code N"; "Stopped"; "StartError: …" (what the runtime said)
  // when the process could not be started.
  std::string reason;
};

using LineSink = std::function<void(std::string_view line, bool from_stderr)>;

// Where run_container keeps what it makes: gkebuild's own folders (base/private_dirs.h), never a
// project's, so that no checkout can plant the runtime's state (whose hooks runc would run on the
// host), a bundle or an unpacked root file system.
struct LocalDirs {
  std::filesystem::path state;    // the runtime's --root (one folder per runtime binary)
  std::filesystem::path bundles;  // one bundle per container: its overlay mount, upper and work folders
  std::filesystem::path images;   // holds layers/ and chains/: unpacked layers, by checked blob digest
};

// A local run's folders: its state in runtime_dir()/runs/KEY-RUN (KEY the project's folder_key),
// its bundles in machine_cache_dir()/containers/KEY-RUN, the unpacked layers machine-wide in
// machine_cache_dir()/unpacked (shared with RUN steps); each made 0700 without following a symlink. `run` must be a name
// gkebuild writes (is_record_name); throws Error (bad input) otherwise.
LocalDirs local_run_dirs(const std::filesystem::path& project_dir, const std::string& run);

// Removes what a finished local run kept: its state and bundle folders (the images stay).
void remove_local_run_dirs(const LocalDirs& dirs);

// Whether `name` is one gkebuild could have written for a run, Job or pod (a DNS-1123
// subdomain, base/dns_name.h): what it reads back from a record is checked with this before it
// names a file or a container.
bool is_record_name(const std::string& name);

// Unpacks the image's layers not unpacked yet (each once, by blob digest, under dirs.images),
// writes the runtime bundle (dirs.bundles/NAME, an overlay over those layers with a fresh upper
// folder, so runs never change them) and runs it with runc (or crun) as a rootful container in its own network
// namespace (or the host's network with spec.host_network) under spec.limits, delivering each
// output line to on_line as it arrives (on this thread).
// The container and its bundle are removed on every path, exceptions included.
// Throws std::runtime_error with a clear message: not root, no runtime on PATH, image not
// in the layout, a layer that is corrupt or escapes the root file system, an unknown user, a
// cgroup controller the limits need that this host does not offer.
ContainerResult run_container(const ContainerSpec& spec, const LocalDirs& dirs, const LineSink& on_line);

// Kills (SIGKILL) and deletes the container `name` that run_container started with `dirs`,
// from another process (the running call then returns), and removes its bundle
// (unmounting its root file system): what a killed gkebuild left behind. Quiet when it is
// gone; returns whether a container was found.
bool stop_container(const std::string& name, const LocalDirs& dirs, const std::string& runtime = "");

// stop_container for every container whose bundle is under dirs.bundles: what a killed run left.
void stop_all_containers(const LocalDirs& dirs);

}  // namespace gkebuild::local_runner
