// The rules of `gkebuild validate`: the one table of them. Each row is a rule's id (what
// --disable and the gkebuild.io/disable-rules annotation take), its severity, what it catches, a
// one-line fix, and an example: one line of YAML it reports, with the flags it needs. From this
// table come --list-rules (the example included), the "did you mean" for a misspelt id, shell
// completion after --disable, the compile-time check of every id a check reports (RuleId), and
// rules_test's check that every rule reports its example; docs/validate-rules.md names each id
// with its severity (scripts/check_docs.py compares them).
#pragma once

#include <array>
#include <string_view>

#include "tool/steps/validate/finding.h"

namespace gkebuild::validate {

struct RuleInfo {
  std::string_view id;
  Severity severity;
  std::string_view summary;        // what the rule catches
  std::string_view fix;            // one line: what to change
  std::string_view example;        // one line of YAML the rule reports
  std::string_view example_flags;  // the `gkebuild validate` flags the example needs, if any
};

inline constexpr std::array kRules{
    RuleInfo{"yaml-syntax", Severity::kError, "the file is not valid YAML (or not UTF-8 text)",
             "fix the YAML at the position shown",
             "{apiVersion: v1, kind: ConfigMap, data: [unclosed}"},
    RuleInfo{"yaml-limits", Severity::kError, "the document is too large, too deep or expands too far",
             "split the file or remove the alias/nesting",
             "[&a [x, x, x, x, x, x, x, x, x, x], &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a], &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b], &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c], &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d], &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e], &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]]"},
    RuleInfo{"duplicate-key", Severity::kError, "a mapping has the same key twice; kubectl keeps the last value and drops the others",
             "remove or rename one of the keys",
             "{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, metadata: {name: y}}"},
    RuleInfo{"manifest", Severity::kError, "apiVersion or kind is missing or empty (a document with neither is skipped with info)",
             "add apiVersion and kind",
             "{kind: ConfigMap, metadata: {name: x}}"},
    RuleInfo{"project-file", Severity::kError, "a gkebuild project file (apiVersion: gkebuild/v1) that `gkebuild` would refuse: an unknown key, a wrong type or value",
             "fix the key or value named in the message (see docs/project-file.md)",
             "{apiVersion: gkebuild/v1, project: demo}"},
    RuleInfo{"rejected-kind", Severity::kError, "a kind the run was told to refuse (--reject, kubeconform's -reject)",
             "remove the object, or drop the kind from --reject",
             "{apiVersion: v1, kind: Secret, metadata: {name: x}}", "--reject Secret"},
    RuleInfo{"schema", Severity::kError, "the object does not match the Kubernetes JSON schema",
             "fix the field named in the message",
             "{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: 5}"},
    RuleInfo{"unknown-kind", Severity::kInfo, "no schema for this kind: a custom resource is skipped (error with --strict-kinds), a built-in group's kind is an error (info with --ignore-missing-schemas)",
             "fix the kind or apiVersion, or pass --schema-location for CRD schemas",
             "{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}}"},
    RuleInfo{"object-name", Severity::kError, "metadata.name breaks its kind's rule: a Service or JobSet name must start with a letter (DNS-1035 label), a Namespace is a DNS-1123 label, a Job's name at most 63 characters, others DNS-1123 subdomains (the API server refuses the object)",
             "rename the object (a Service named after a Job whose name starts with a digit: put a letter first)",
             "{apiVersion: v1, kind: Service, metadata: {name: 3d}, spec: {ports: [{port: 80}]}}"},
    RuleInfo{"deprecated-api", Severity::kWarning, "the apiVersion is deprecated in the target Kubernetes version",
             "move to the replacement apiVersion",
             "{apiVersion: batch/v1beta1, kind: CronJob, metadata: {name: x}, spec: {schedule: '* * * * *', jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}}}", "--kubernetes-version 1.24"},
    RuleInfo{"removed-api", Severity::kError, "the apiVersion is removed in the target Kubernetes version",
             "move to the replacement apiVersion",
             "{apiVersion: extensions/v1beta1, kind: Deployment, metadata: {name: x}}"},
    RuleInfo{"gpu-request-without-limit", Severity::kError, "GPU in requests but not in limits (the API server rejects it)",
             "set limits.nvidia.com/gpu (requests may then be dropped)",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, containers: [{name: c, image: i, resources: {requests: {nvidia.com/gpu: 1}}}]}}"},
    RuleInfo{"gpu-request-ne-limit", Severity::kError, "GPU request and limit differ (the API server rejects it)",
             "make requests.nvidia.com/gpu equal to limits.nvidia.com/gpu",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, containers: [{name: c, image: i, resources: {requests: {nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 2}}}]}}"},
    RuleInfo{"gpu-non-integer", Severity::kError, "GPU count is not a whole non-negative number",
             "request whole GPUs; share GPUs with GKE time-sharing, MPS or MIG node pools",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 0.5}}}]}}"},
    RuleInfo{"gpu-zero", Severity::kWarning, "nvidia.com/gpu: 0 requests no GPU",
             "remove the entry or request at least 1",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 0}}}]}}"},
    RuleInfo{"gpu-deprecated-resource", Severity::kError, "alpha.kubernetes.io/nvidia-gpu was removed in Kubernetes 1.10",
             "use nvidia.com/gpu",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, containers: [{name: c, image: i, resources: {limits: {alpha.kubernetes.io/nvidia-gpu: 1}}}]}}"},
    RuleInfo{"gpu-resource-typo", Severity::kWarning, "a resource name that looks like a misspelt nvidia.com/gpu; no node offers it",
             "use nvidia.com/gpu",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpus: 1}}}]}}"},
    RuleInfo{"gpu-initcontainer", Severity::kInfo, "GPUs requested by an init container count towards the pod's request",
             "request GPUs in the main containers only, if the init step needs none",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, initContainers: [{name: init, image: i, resources: {limits: {nvidia.com/gpu: 1}}}], containers: [{name: c, image: i}]}}"},
    RuleInfo{"gpu-no-accelerator-selector", Severity::kInfo, "GPU pod without a cloud.google.com/gke-accelerator selector or a custom ComputeClass (needed where a cluster has several GPU types)",
             "add nodeSelector cloud.google.com/gke-accelerator: <type>",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}]}}"},
    RuleInfo{"gpu-unknown-accelerator", Severity::kInfo, "the accelerator label value is not in gkebuild's catalog (a typo, or a GPU newer than the catalog)",
             "use one of the GKE accelerator labels (cloud.google.com/gke-accelerator values)",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l5}, containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}]}}"},
    RuleInfo{"gpu-toleration-missing-nonrequesting", Severity::kWarning, "targets GPU nodes without requesting a GPU and does not tolerate the nvidia.com/gpu taint",
             "add a toleration {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, containers: [{name: c, image: i}]}}"},
    RuleInfo{"gpu-hostpath-driver-mount", Severity::kInfo, "hostPath mount of the NVIDIA driver directory (GKE's device plugin mounts it into GPU containers; installers and GPUDirect need it)",
             "for a plain GPU workload, remove the volume: GKE mounts /usr/local/nvidia into GPU containers",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, volumes: [{name: d, hostPath: {path: /home/kubernetes/bin/nvidia}}], containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}]}}"},
    RuleInfo{"gpu-driver-installer-legacy", Severity::kInfo, "a GKE NVIDIA driver installer DaemonSet without the gke-gpu-driver-version DoesNotExist term also runs on nodes whose driver GKE installs",
             "add {key: cloud.google.com/gke-gpu-driver-version, operator: DoesNotExist} to its node affinity if the cluster has node pools with gpu-driver-version set",
             "{apiVersion: apps/v1, kind: DaemonSet, metadata: {name: nvidia-driver-installer, namespace: kube-system}, spec: {selector: {matchLabels: {k8s-app: nvidia-driver-installer}}, template: {metadata: {labels: {k8s-app: nvidia-driver-installer}}, spec: {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: cloud.google.com/gke-accelerator, operator: Exists}]}]}}}, tolerations: [{operator: Exists}], initContainers: [{name: nvidia-driver-installer, image: cos-nvidia-installer}], containers: [{name: pause, image: pause}]}}}}"},
    RuleInfo{"job-gpu-no-ttl", Severity::kInfo, "a GPU Job without ttlSecondsAfterFinished stays around after it ends",
             "set spec.ttlSecondsAfterFinished",
             "{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {template: {spec: {restartPolicy: Never, nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}]}}}}"},
    RuleInfo{"job-gpu-no-backoff-limit", Severity::kInfo, "a GPU Job without backoffLimit retries up to 6 times on expensive nodes",
             "set spec.backoffLimit",
             "{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {template: {spec: {restartPolicy: Never, nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}]}}}}"},
    RuleInfo{"job-gpu-no-deadline", Severity::kInfo, "a GPU Job without activeDeadlineSeconds can hold GPUs forever",
             "set spec.activeDeadlineSeconds",
             "{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {template: {spec: {restartPolicy: Never, nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}, containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}]}}}}"},
    RuleInfo{"job-restart-policy", Severity::kError, "a Job's pods must use restartPolicy Never or OnFailure (the API server rejects Always)",
             "set restartPolicy: Never or OnFailure",
             "{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {template: {spec: {restartPolicy: Always, containers: [{name: c, image: i}]}}}}"},
    RuleInfo{"duplicate-env-var", Severity::kWarning, "the same environment variable is set twice; the last one wins",
             "remove one of the entries",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: i, env: [{name: A, value: '1'}, {name: A, value: '2'}]}]}}"},
    RuleInfo{"literal-credential", Severity::kWarning, "a variable named like a credential (*_API_KEY, *_TOKEN, *PASSWORD*, *_SECRET*) has its value written out in a manifest or gkebuild project file",
             "read it from a Secret (valueFrom.secretKeyRef, envFrom) or, in gkebuild.yaml, list it under secretEnv",
             "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: i, env: [{name: HF_TOKEN, value: hf_abc}]}]}}"},
};

constexpr bool is_rule_id(std::string_view id) {
  for (const RuleInfo& rule : kRules)
    if (rule.id == id) return true;
  return false;
}

// A rule id a check reports: a literal that names no rule of kRules does not compile
// (report("gpu-zeor", …) would otherwise be a finding no --disable could turn off).
class RuleId {
 public:
  consteval RuleId(const char* id) : id_(id) {  // NOLINT: implicit, as a literal is written
    if (!is_rule_id(id_)) throw "not a rule id of kRules (tool/steps/validate/rule_table.h)";
  }
  constexpr operator std::string_view() const { return id_; }  // NOLINT

 private:
  std::string_view id_;
};

}  // namespace gkebuild::validate
