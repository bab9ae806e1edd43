// What `gkebuild render` (and submit, through the same library) asks for.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gkebuild::render {

struct RenderOptions {
  // Experiment or image names, or kind/name: experiment/NAME (= job/NAME), pod/NAME,
  // image/NAME (= dockerfile/NAME), namespace, driver-installer, storage, kueue. Empty = the
  // whole project (Jobs of every experiment with their namespace, driver installer, storage,
  // and the Kueue objects of a `kueue:` section).
  std::vector<std::string> targets;
  // Replaces every selected experiment's accelerator list (--accelerator a,b).
  std::vector<std::string> accelerators;
  // Replaces every selected experiment's Kueue queue (--queue NAME); empty = the experiments' own.
  std::string queue;
  // A catalog label whose short name the Jobs' (Pods', ConfigMaps of points') names carry instead
  // of the accelerator they run on; empty: their own. Submit renders an experiment's fallback
  // alternatives (cluster.failover: follow) under the names of its own Jobs, since the follower
  // recreates a Job for the next alternative under the same name.
  std::string name_accelerator;
  std::string run_id;  // empty: each experiment's run name now, as submit names it (names.h run_id_of)
  // --values / --set: visible to every template and to experiment args as `values`.
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  // --set assignments {"a.b", "1"} whose key every selected experiment's render must read as
  // values.a (submit refuses a misspelt key; render leaves them unchecked: it renders any target).
  std::vector<std::pair<std::string, std::string>> checked_sets;
  // Image name -> reference to use in manifests (e.g. repo@sha256:… after a push);
  // images not listed use default_image_reference().
  std::map<std::string, std::string> image_references;
  // Image name -> its config's Env ("NAME=value"), from the image built or pulled: each
  // container keeps the image's PATH and LD_LIBRARY_PATH with the driver's folders appended.
  // Images not listed: what the shipped Dockerfile.j2 sets (see tool/steps/render/contexts.h).
  std::map<std::string, std::vector<std::string>> image_env;
  // Address of the NFS server for the PersistentVolume (the Service ClusterIP once known);
  // empty = the Service's DNS name.
  std::string nfs_server;
  // false: an experiment's parallelism: is ignored and its sweep is one Job per point (the
  // local runner runs Jobs one after another and mounts no ConfigMap of points).
  bool indexed_sweeps = true;
  // Render every image's Dockerfile even without an explicit image target (-o DIR does).
  bool all_dockerfiles = false;
  // The most threads to render on (--jobs); 0: as many as the work and the cores are worth.
  int jobs = 0;
};

}  // namespace gkebuild::render
