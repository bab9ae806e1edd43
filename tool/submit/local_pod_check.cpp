#include "tool/submit/local_pod_check.h"

#include <set>
#include <string>

#include "base/source_error.h"
#include "tool/core/yamlfile/document.h"

namespace gkebuild::submit {
namespace {

// A field of the rendered Job: its node, and the path a message names it by.
struct Field {
  YAML::Node node;
  std::string path;
};

bool present(const Field& field) { return field.node.IsDefined() && !field.node.IsNull(); }

Field child(const Field& parent, const std::string& key) {
  const YAML::Node& node = parent.node;
  if (!present(parent) || !node.IsMap()) return {YAML::Node(YAML::NodeType::Undefined), parent.path + "." + key};
  return {node[key], parent.path + "." + key};
}

Field item(const Field& parent, std::size_t index) {
  const YAML::Node& node = parent.node;
  return {node[index], parent.path + "[" + std::to_string(index) + "]"};
}

bool is_true(const Field& field) { return present(field) && field.node.IsScalar() && field.node.Scalar() == "true"; }

// yaml-cpp throws when a missing node is asked its type: these ask only a present one.
bool is_sequence(const Field& field) { return present(field) && field.node.IsSequence(); }

bool non_empty(const Field& field) { return present(field) && (!field.node.IsSequence() || field.node.size() > 0); }

// The job's rendered document, for positions.
class JobCheck {
 public:
  JobCheck(const plan::PlannedJob& job, std::set<std::string>& noted, std::ostream& err)
      : doc_(yamlfile::Document::parse(job.manifest.text, "the rendered Job " + job.manifest.file_name)),
        job_(job.name), noted_(noted), err_(err) {}

  void check() {
    const Field pod = child(child(child({doc_.root(), ""}, "spec"), "template"), "spec");
    for (const char* host : {"hostNetwork", "hostPID", "hostIPC"})
      if (is_true(child(pod, host)))
        refuse(child(pod, host), std::string("the container would share the host's ") +
                                     (std::string(host) == "hostNetwork" ? "network (give --network host for that)"
                                                                          : "processes or IPC"));
    const Field volumes = child(pod, "volumes");
    if (is_sequence(volumes))
      for (std::size_t i = 0; i < volumes.node.size(); ++i)
        if (present(child(item(volumes, i), "hostPath")))
          refuse(child(item(volumes, i), "hostPath"), "a host folder would be mounted into the container");
    const Field containers = child(pod, "containers");
    if (is_sequence(containers) && containers.node.size() > 1)
      refuse(item(containers, 1), "the local runner runs one container per pod, not its sidecars");
    for (const char* more : {"initContainers", "ephemeralContainers"})
      if (non_empty(child(pod, more))) refuse(child(pod, more), "the local runner runs one container per pod");
    if (is_sequence(volumes))
      for (std::size_t i = 0; i < volumes.node.size(); ++i) {
        const Field volume = item(volumes, i);
        const Field name = child(volume, "name");
        // An emptyDir lives as long as the pod, as the container's own writable files do here.
        if (present(child(volume, "emptyDir"))) {
          if (present(name) && name.node.IsScalar()) empty_dirs_.insert(name.node.Scalar());
          continue;
        }
        drop(volume, "the volume (the container gets none: its files are the image's)");
      }
    if (is_sequence(containers) && containers.node.size() > 0) check_container(item(containers, 0));
    for (const char* key : {"securityContext", "shareProcessNamespace", "hostAliases", "dnsConfig", "runtimeClassName"})
      if (present(child(pod, key))) drop(child(pod, key), key);
  }

 private:
  void check_container(const Field& container) {
    const Field security = child(container, "securityContext");
    if (is_true(child(security, "privileged")))
      refuse(child(security, "privileged"), "a privileged container reaches every device of the host");
    if (non_empty(child(child(security, "capabilities"), "add")))
      refuse(child(child(security, "capabilities"), "add"), "added capabilities are not granted to a local container");
    if (non_empty(child(container, "volumeDevices")))
      refuse(child(container, "volumeDevices"), "host devices are not passed to a local container");
    if (present(security)) drop(security, "securityContext (the image's user runs, without added privileges)");
    const Field mounts = child(container, "volumeMounts");
    if (is_sequence(mounts))
      for (std::size_t i = 0; i < mounts.node.size(); ++i) {
        const Field name = child(item(mounts, i), "name");
        if (!present(name) || !name.node.IsScalar() || !empty_dirs_.count(name.node.Scalar()))
          drop(item(mounts, i), "the volume mount (the container gets none: its files are the image's)");
      }
    for (const char* key : {"envFrom", "ports", "livenessProbe", "readinessProbe", "startupProbe", "lifecycle"})
      if (non_empty(child(container, key))) drop(child(container, key), key);
    const Field env = child(container, "env");
    if (!is_sequence(env)) return;
    for (std::size_t i = 0; i < env.node.size(); ++i) {
      const Field from = child(item(env, i), "valueFrom");
      // The completion index and the run's secretEnv values (secretKeyRef) are set here too.
      if (present(from) && !present(child(from, "secretKeyRef")) &&
          YAML::Dump(from.node).find("job-completion-index") == std::string::npos)
        drop(from, "env valueFrom other than the completion index or the run's secrets (the variable is left unset)");
    }
  }

  [[noreturn]] void refuse(const Field& field, const std::string& why) {
    doc_.fail(field.node, "job '" + job_ + "': " + field.path.substr(1) + ": submit --local cannot honour this safely: " +
                              why + "; run it on a cluster, or leave it out of the project's job template");
  }

  void drop(const Field& field, const std::string& what) {
    if (!noted_.insert(field.path).second) return;  // the Jobs of a sweep share one template
    err_ << "submit --local: drops " << field.path.substr(1) << " (" << what << "), at " << to_string(doc_.where(field.node))
         << " of job '" << job_ << "'\n";
  }

  yamlfile::Document doc_;
  std::string job_;
  std::set<std::string>& noted_;
  std::ostream& err_;
  std::set<std::string> empty_dirs_;  // the pod's emptyDir volumes, by name
};

}  // namespace

void check_local_pod_templates(const plan::RunPlan& plan, std::ostream& err) {
  std::set<std::string> noted;
  for (const auto& job : plan.jobs) JobCheck(job, noted, err).check();
}

}  // namespace gkebuild::submit
