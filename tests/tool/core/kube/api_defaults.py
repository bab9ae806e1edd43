"""Defaulting and update validation of Jobs and Pods as the API server does them, for the test server.

Defaults (kubernetes pkg/apis/batch/v1/defaults.go, pkg/apis/core/v1/defaults.go, the Job registry
strategy and the admission plugins every cluster runs):
- Job: completions and parallelism 1 when neither is given (parallelism 1 when only it is missing),
  backoffLimit 6, completionMode NonIndexed, suspend false, podReplacementPolicy, a selector on
  batch.kubernetes.io/controller-uid generated from the uid and the template labelled with it
  (unless manualSelector), the Job's labels taken from the template's when it has none;
- pod template: restartPolicy Always, dnsPolicy ClusterFirst, schedulerName default-scheduler,
  terminationGracePeriodSeconds 30, securityContext {}; each container: terminationMessagePath
  /dev/termination-log, terminationMessagePolicy File, imagePullPolicy Always for a :latest (or
  untagged) image and IfNotPresent otherwise, resources {}, ports' protocol TCP, fieldRefs'
  apiVersion v1; ConfigMap and Secret volumes defaultMode 420;
- Deployment and DaemonSet: revisionHistoryLimit, replicas, strategy, progressDeadlineSeconds,
  updateStrategy, and their pod template as above;
- Pod (what the Job controller creates): the template's defaults plus enableServiceLinks,
  serviceAccountName default, priority 0, preemptionPolicy, and the not-ready/unreachable
  tolerations of 300 s (DefaultTolerationSeconds).

Update validation (pkg/apis/batch/validation ValidateJobSpecUpdate): selector, manualSelector,
completionMode, podFailurePolicy and backoffLimitPerIndex never change; completions only for an
Indexed Job whose parallelism changes with it; the pod template only while the Job is suspended
and has never started, and then only its scheduling directives (node selector, affinity,
tolerations, scheduling gates, labels, annotations). A refused update is 422 Invalid with one cause
per field, "field is immutable". The value part of the message is abbreviated where the real
server prints the Go value (`core.PodTemplateSpec{...}`).
"""

import copy
import json

NEVER_CHANGE = (("selector", "v1.LabelSelector"), ("manualSelector", None), ("completionMode", None),
                ("podFailurePolicy", "batch.PodFailurePolicy"), ("backoffLimitPerIndex", None))
SCHEDULING_DIRECTIVES = {"nodeSelector", "affinity", "tolerations", "schedulingGates"}


class Invalid(Exception):
    """422 Invalid: `causes` as the Status carries them ({reason, field, message})."""

    def __init__(self, causes):
        super().__init__("; ".join(f'{c["field"]}: {c["message"]}' for c in causes))
        self.causes = causes


def image_pull_policy(image):
    """Always for :latest or no tag, IfNotPresent for any other tag or a digest."""
    if "@" in image:
        return "IfNotPresent"
    last = image.rsplit("/", 1)[-1]
    tag = last.split(":", 1)[1] if ":" in last else "latest"
    return "Always" if tag == "latest" else "IfNotPresent"


def default_container(container):
    container.setdefault("terminationMessagePath", "/dev/termination-log")
    container.setdefault("terminationMessagePolicy", "File")
    container.setdefault("imagePullPolicy", image_pull_policy(container.get("image", "")))
    container.setdefault("resources", {})
    for port in container.get("ports") or []:
        port.setdefault("protocol", "TCP")
    for var in container.get("env") or []:
        field_ref = (var.get("valueFrom") or {}).get("fieldRef")
        if field_ref is not None:
            field_ref.setdefault("apiVersion", "v1")


def default_pod_spec(spec):
    spec.setdefault("restartPolicy", "Always")
    spec.setdefault("terminationGracePeriodSeconds", 30)
    spec.setdefault("dnsPolicy", "ClusterFirst")
    spec.setdefault("securityContext", {})
    spec.setdefault("schedulerName", "default-scheduler")
    for container in (spec.get("containers") or []) + (spec.get("initContainers") or []):
        default_container(container)
    for volume in spec.get("volumes") or []:
        for source in ("configMap", "secret"):
            if isinstance(volume.get(source), dict):
                volume[source].setdefault("defaultMode", 420)


def default_job(job):
    spec = job.setdefault("spec", {})
    if "completions" not in spec and "parallelism" not in spec:
        spec["completions"] = 1
    spec.setdefault("parallelism", 1)
    spec.setdefault("backoffLimit", 2147483647 if "backoffLimitPerIndex" in spec else 6)
    spec.setdefault("completionMode", "NonIndexed")
    spec.setdefault("suspend", False)
    spec.setdefault("podReplacementPolicy", "Failed" if "podFailurePolicy" in spec else "TerminatingOrFailed")
    for rule in (spec.get("podFailurePolicy") or {}).get("rules") or []:
        for pattern in rule.get("onPodConditions") or []:
            pattern.setdefault("status", "True")
    template = spec.setdefault("template", {})
    default_pod_spec(template.setdefault("spec", {}))
    template_labels = (template.get("metadata") or {}).get("labels")
    if template_labels and not job["metadata"].get("labels"):
        job["metadata"]["labels"] = dict(template_labels)


def generate_selector(job):
    """The Job registry's PrepareForCreate: a selector on the controller uid, the template labelled."""
    spec = job["spec"]
    if spec.get("manualSelector"):
        return
    uid, name = job["metadata"]["uid"], job["metadata"]["name"]
    labels = spec["template"].setdefault("metadata", {}).setdefault("labels", {})
    labels.update({"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name,
                   "controller-uid": uid, "job-name": name})
    spec.setdefault("selector", {"matchLabels": {"batch.kubernetes.io/controller-uid": uid}})


def default_pod(pod):
    spec = pod.setdefault("spec", {})
    default_pod_spec(spec)
    spec.setdefault("enableServiceLinks", True)
    spec.setdefault("serviceAccountName", "default")
    spec.setdefault("serviceAccount", spec["serviceAccountName"])
    spec.setdefault("priority", 0)
    spec.setdefault("preemptionPolicy", "PreemptLowerPriority")
    tolerations = spec.setdefault("tolerations", [])
    for taint in ("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"):
        if not any(t.get("key") == taint for t in tolerations):
            tolerations.append({"key": taint, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300})
    return pod


def default_workload(obj):
    """Deployments and DaemonSets (pkg/apis/apps/v1/defaults.go): their rollout and their pod template."""
    spec = obj.setdefault("spec", {})
    spec.setdefault("revisionHistoryLimit", 10)
    if obj["kind"] == "Deployment":
        spec.setdefault("replicas", 1)
        spec.setdefault("progressDeadlineSeconds", 600)
        spec.setdefault("strategy", {"type": "RollingUpdate",
                                     "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}})
    else:
        spec.setdefault("updateStrategy", {"type": "RollingUpdate",
                                           "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}})
    default_pod_spec(spec.setdefault("template", {}).setdefault("spec", {}))


def default_object(obj):
    """Fills in what the API server defaults for the kinds the test server models."""
    defaults = {"Job": default_job, "Pod": default_pod, "Deployment": default_workload,
                "DaemonSet": default_workload}.get(obj.get("kind"))
    if defaults:
        defaults(obj)
    return obj


def prepare_create(obj):
    """Defaults and, for a Job, its generated selector (the object has its uid already)."""
    default_object(obj)
    if obj.get("kind") == "Job":
        generate_selector(obj)
    return obj


def go_value(value, go_type):
    """The value part of a field error as the API server prints it (structs abbreviated)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    return f"{go_type or 'map[string]interface {}'}{{...}}"


def immutable(field, value, go_type=None):
    return {"reason": "FieldValueInvalid", "field": field,
            "message": f"Invalid value: {go_value(value, go_type)}: field is immutable"}


def never_started(job):
    status = job.get("status") or {}
    return not status.get("startTime") and not status.get("active") and not status.get("succeeded") \
        and not status.get("failed")


def template_change_allowed(old, new):
    """Only a suspended Job that never ran may change its template, and only scheduling directives."""
    if not (old["spec"].get("suspend") and never_started(old)):
        return False
    before, after = copy.deepcopy(old["spec"].get("template") or {}), copy.deepcopy(new["spec"].get("template") or {})
    for template in (before, after):
        template.setdefault("metadata", {}).pop("labels", None)
        template["metadata"].pop("annotations", None)
        for name in SCHEDULING_DIRECTIVES:
            template.setdefault("spec", {}).pop(name, None)
    return before == after


def job_update_causes(old, new):
    causes = []
    before, after = old.get("spec") or {}, new.get("spec") or {}
    for name, go_type in NEVER_CHANGE:
        if before.get(name) != after.get(name):
            causes.append(immutable(f"spec.{name}", after.get(name), go_type))
    if before.get("completions") != after.get("completions"):
        elastic = after.get("completionMode") == "Indexed" and after.get("completions") == after.get("parallelism")
        if not elastic:
            causes.append(immutable("spec.completions", after.get("completions")))
    if before.get("template") != after.get("template") and not template_change_allowed(old, new):
        causes.append(immutable("spec.template", after.get("template"), "core.PodTemplateSpec"))
    return causes


def check_update(old, new):
    """Raises Invalid when `new` changes what the API server does not let change."""
    if new.get("kind") == "Job":
        causes = job_update_causes(old, new)
        if causes:
            raise Invalid(causes)
