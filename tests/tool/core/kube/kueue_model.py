"""Kueue's admission of batch/v1 Jobs, for the Kubernetes test server (a stand-in we wrote).

Modelled from Kueue's documented API (kueue.x-k8s.io/v1beta1, see
../shared/reference/gke-clusters-and-kueue.md section 4 and kueue.sigs.k8s.io/docs/tasks/run/jobs):
- a Job created with spec.suspend: true and the label kueue.x-k8s.io/queue-name gets a Workload
  in its namespace, owned by it, named job-<job>-<5 hex>, one PodSet "main" of
  min(parallelism, completions) pods with the Job's pod template;
- Workloads are admitted in creation order while their ClusterQueue (through the LocalQueue the
  label names) has quota (BestEffortFIFO: one that does not fit does not hold back a later one
  that does): each ResourceFlavor of the ClusterQueue's resource group is tried in order, skipped
  when its nodeLabels contradict the pod's nodeSelector, taken when every requested resource fits
  its nominalQuota; a requested resource the ClusterQueue does not cover is never admitted;
- admission sets the Workload's admission and its QuotaReserved and Admitted conditions, merges
  the flavor's nodeLabels into the Job's pod template, and unsuspends the Job (its pods start);
- a missing LocalQueue or ClusterQueue, or a namespace the ClusterQueue does not select, leaves the
  Workload with QuotaReserved False, reason Inadmissible;
- a finished Job marks its Workload Finished (Succeeded/Failed) and gives its quota back; a
  deleted Job takes its Workload with it. Either way the next Workloads are admitted.
- a ClusterQueue with spec.admissionChecks (queued provisioning: Kueue's ProvisioningRequest
  controller, as GKE's DWS samples set it up) reserves the quota but does not admit yet: the Workload
  gets QuotaReserved True, Admitted False (UnsatisfiedAdmissionChecks) and status.admissionChecks
  Pending, and a ProvisioningRequest (autoscaling.x-k8s.io/v1) of the check's class asks for the
  PodSet's count; when the test says the nodes are there (POST /_control/kueue {"provision": true})
  the request is Provisioned, the check Ready, and the Job admitted whole.
Not modelled: cohorts and borrowing, preemption, priorities, StrictFIFO, other admission check
controllers, a request that fails, partial admission, waitForPodsReady, the visibility API.

The Store calls these methods with its lock held.
"""

import copy
import random
from datetime import datetime, timezone

API_VERSION = "kueue.x-k8s.io/v1beta1"
QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
# plural -> (kind, apiVersion, namespaced), merged into the server's RESOURCES
PROVISIONING_API = "autoscaling.x-k8s.io/v1"
RESOURCES = {
    "workloads": ("Workload", API_VERSION, True),
    "admissionchecks": ("AdmissionCheck", API_VERSION, False),
    "provisioningrequestconfigs": ("ProvisioningRequestConfig", API_VERSION, False),
    "provisioningrequests": ("ProvisioningRequest", PROVISIONING_API, True),
    "localqueues": ("LocalQueue", API_VERSION, True),
    "clusterqueues": ("ClusterQueue", API_VERSION, False),
    "resourceflavors": ("ResourceFlavor", API_VERSION, False),
}


def _now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _condition(kind, state, reason, message):
    return {"type": kind, "status": state, "reason": reason, "message": message, "lastTransitionTime": _now()}


def _quantity(value):
    """Whole units of a quantity (GPUs, CPUs); memory and milli-units count by their number part."""
    text = str(value)
    for suffix, factor in (("Ki", 2**10), ("Mi", 2**20), ("Gi", 2**30), ("Ti", 2**40), ("k", 10**3),
                           ("M", 10**6), ("G", 10**9)):
        if text.endswith(suffix):
            return float(text[:-len(suffix)]) * factor
    if text.endswith("m"):
        return float(text[:-1]) / 1000
    return float(text)


class KueueModel:
    def __init__(self, store):
        self.store = store
        self.usage = {}  # (cluster queue, flavor, resource) -> amount in use
        self.admitted = {}  # (ns, workload) -> (cluster queue, flavor, {resource: amount})
        self.max_admitted = 0
        self.admissions = 0
        self.order = {}  # (ns, workload) -> creation sequence: admission goes in this order
        self.checking = {}  # (ns, workload) -> flavor: quota reserved, waiting for its admission checks

    # --- hooks from the Job controller ------------------------------------------------------
    @staticmethod
    def manages(job):
        return QUEUE_LABEL in ((job.get("metadata") or {}).get("labels") or {})

    def job_created(self, ns, job):
        """A suspended Job with the queue label: its Workload, then an admission round."""
        spec = job.get("spec") or {}
        completions = spec.get("completions") or spec.get("parallelism") or 1
        count = min(spec.get("parallelism") or 1, completions)
        name = job["metadata"]["name"]
        workload = {
            "apiVersion": API_VERSION, "kind": "Workload",
            "metadata": {"name": f"job-{name}-{random.getrandbits(20):05x}"[:253], "namespace": ns,
                         "labels": {"kueue.x-k8s.io/job-uid": job["metadata"]["uid"]},
                         "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": name,
                                              "uid": job["metadata"]["uid"], "controller": True,
                                              "blockOwnerDeletion": True}]},
            "spec": {"queueName": job["metadata"]["labels"][QUEUE_LABEL],
                     "podSets": [{"name": "main", "count": count,
                                  "template": copy.deepcopy(spec.get("template") or {})}]},
            "status": {"conditions": [_condition("QuotaReserved", "False", "Pending", "")]},
        }
        self.order[(ns, workload["metadata"]["name"])] = len(self.order)
        self.store.put("workloads", ns, workload)
        self.admit()

    def job_finished(self, ns, name, succeeded):
        workload = self.workload_of(ns, name)
        if workload is None:
            return
        workload = copy.deepcopy(workload)
        workload["status"].setdefault("conditions", []).append(
            _condition("Finished", "True", "Succeeded" if succeeded else "Failed",
                       "Job finished successfully" if succeeded else "Job failed"))
        self.store.put("workloads", ns, workload)
        self.release(ns, workload["metadata"]["name"])

    def job_deleted(self, ns, name):
        workload = self.workload_of(ns, name)
        if workload is not None:
            self.store.delete("workloads", ns, workload["metadata"]["name"])
            self.release(ns, workload["metadata"]["name"])

    def workload_of(self, ns, job_name):
        for (item_ns, _), obj in self.store.by_plural.get("workloads", {}).items():
            if item_ns == ns and any(
                    o.get("kind") == "Job" and o.get("name") == job_name
                    for o in obj["metadata"].get("ownerReferences") or []):
                return obj
        return None

    def release(self, ns, workload_name):
        self.checking.pop((ns, workload_name), None)
        held = self.admitted.pop((ns, workload_name), None)
        if held is not None:
            queue, flavor, needs = held
            for resource, amount in needs.items():
                self.usage[(queue, flavor, resource)] -= amount
            self.admit()

    # --- admission ----------------------------------------------------------------------------
    def admit(self):
        pending = [(self.order.get((ns, name), -1), ns, obj)
                   for (ns, name), obj in self.store.by_plural.get("workloads", {}).items()
                   if not self.decided(obj)]
        for _, ns, workload in sorted(pending, key=lambda item: item[0]):
            self.try_admit(ns, workload)

    @staticmethod
    def decided(workload):
        return any(c["type"] in ("QuotaReserved", "Finished") and c["status"] == "True"
                   for c in (workload.get("status") or {}).get("conditions") or [])

    def try_admit(self, ns, workload):
        queue_name = workload["spec"]["queueName"]
        local = self.store.objects.get(("localqueues", ns, queue_name))
        if local is None:
            return self.hold(ns, workload, "Inadmissible", f"LocalQueue {queue_name} doesn't exist")
        cq_name = (local.get("spec") or {}).get("clusterQueue", "")
        cluster_queue = self.store.objects.get(("clusterqueues", "", cq_name))
        if cluster_queue is None:
            return self.hold(ns, workload, "Inadmissible", f"ClusterQueue {cq_name} doesn't exist")
        if not self.selects(cluster_queue, ns):
            return self.hold(ns, workload, "Inadmissible",
                             f"Workload namespace doesn't match ClusterQueue selector")
        pod_set = workload["spec"]["podSets"][0]
        needs = self.requests(pod_set)
        groups = (cluster_queue.get("spec") or {}).get("resourceGroups") or []
        covered = {r for group in groups for r in group.get("coveredResources") or []}
        missing = sorted(set(needs) - covered)
        if missing:
            return self.hold(ns, workload, "Pending", f"couldn't assign flavors to pod set main: resource "
                                                      f"{missing[0]} unavailable in ClusterQueue")
        shortfall = "no flavor matches the pod's node selector"
        for group in groups:
            for flavor in group.get("flavors") or []:
                if not self.flavor_fits_selector(flavor["name"], pod_set):
                    continue
                quota = {r["name"]: _quantity(r["nominalQuota"]) for r in flavor.get("resources") or []}
                short = [(r, needs[r] + self.usage.get((cq_name, flavor["name"], r), 0) - quota.get(r, 0))
                         for r in needs if r in quota]
                short = [(r, more) for r, more in short if more > 0]
                if not short:
                    return self.grant(ns, workload, cq_name, flavor["name"], needs)
                resource, more = short[0]
                shortfall = (f"insufficient unused quota for {resource} in flavor {flavor['name']}, "
                             f"{more:g} more needed")
        return self.hold(ns, workload, "Pending", f"couldn't assign flavors to pod set main: {shortfall}")

    @staticmethod
    def selects(cluster_queue, ns):
        selector = (cluster_queue.get("spec") or {}).get("namespaceSelector")
        if selector is None:
            return False  # unset: no namespace may use the queue
        wanted = selector.get("matchLabels") or {}
        labels = {"kubernetes.io/metadata.name": ns}
        return all(labels.get(k) == v for k, v in wanted.items())

    @staticmethod
    def requests(pod_set):
        needs = {}
        for container in (pod_set["template"].get("spec") or {}).get("containers") or []:
            resources = container.get("resources") or {}
            amounts = dict(resources.get("limits") or {})  # limits stand in for missing requests
            amounts.update(resources.get("requests") or {})
            for resource, value in amounts.items():
                needs[resource] = needs.get(resource, 0) + _quantity(value) * pod_set["count"]
        return {r: v for r, v in needs.items() if v > 0}

    def flavor_fits_selector(self, flavor_name, pod_set):
        flavor = self.store.objects.get(("resourceflavors", "", flavor_name)) or {}
        labels = (flavor.get("spec") or {}).get("nodeLabels") or {}
        selector = (pod_set["template"].get("spec") or {}).get("nodeSelector") or {}
        return all(selector.get(k, v) == v for k, v in labels.items())

    def hold(self, ns, workload, reason, message):
        current = (workload.get("status") or {}).get("conditions") or []
        if any(c["type"] == "QuotaReserved" and c["reason"] == reason and c["message"] == message for c in current):
            return  # nothing changed: no new resourceVersion, no watch event
        workload = copy.deepcopy(workload)
        workload["status"] = {"conditions": [_condition("QuotaReserved", "False", reason, message)]}
        self.store.put("workloads", ns, workload)

    def grant(self, ns, workload, cq_name, flavor_name, needs):
        for resource, amount in needs.items():
            self.usage[(cq_name, flavor_name, resource)] = self.usage.get((cq_name, flavor_name, resource), 0) + amount
        self.admitted[(ns, workload["metadata"]["name"])] = (cq_name, flavor_name, needs)
        self.max_admitted = max(self.max_admitted, len(self.admitted))
        workload = copy.deepcopy(workload)
        pod_set = workload["spec"]["podSets"][0]
        workload["status"] = {
            "admission": {"clusterQueue": cq_name,
                          "podSetAssignments": [{"name": "main", "count": pod_set["count"],
                                                 "flavors": {r: flavor_name for r in needs},
                                                 "resourceUsage": {r: f"{v:g}" for r, v in needs.items()}}]},
            "conditions": [_condition("QuotaReserved", "True", "QuotaReserved",
                                      f"Quota reserved in ClusterQueue {cq_name}")]}
        checks = (self.store.objects[("clusterqueues", "", cq_name)].get("spec") or {}).get("admissionChecks") or []
        if checks:
            workload["status"]["conditions"].append(_condition(
                "Admitted", "False", "UnsatisfiedAdmissionChecks", "The workload has not all admission checks"))
            workload["status"]["admissionChecks"] = [
                {"name": check, "state": "Pending", "lastTransitionTime": _now(),
                 "message": "Waiting for resources. Currently there are not enough resources available to "
                            "fulfill the request."} for check in checks]
            self.store.put("workloads", ns, workload)
            for check in checks:
                self.request_nodes(ns, workload, check)
            self.checking[(ns, workload["metadata"]["name"])] = flavor_name
            return
        self.start(ns, workload, flavor_name)

    def request_nodes(self, ns, workload, check):
        """The ProvisioningRequest Kueue's provisioning controller makes for a Workload."""
        admission_check = self.store.objects.get(("admissionchecks", "", check)) or {}
        config_name = ((admission_check.get("spec") or {}).get("parameters") or {}).get("name", "")
        config = self.store.objects.get(("provisioningrequestconfigs", "", config_name)) or {}
        name = workload["metadata"]["name"]
        self.store.put("provisioningrequests", ns, {
            "apiVersion": PROVISIONING_API, "kind": "ProvisioningRequest",
            "metadata": {"name": f"{name}-{check}-1", "namespace": ns,
                         "ownerReferences": [{"apiVersion": API_VERSION, "kind": "Workload", "name": name,
                                              "uid": workload["metadata"].get("uid", ""), "controller": True}]},
            "spec": {"provisioningClassName": (config.get("spec") or {}).get("provisioningClassName", ""),
                     "podSets": [{"podTemplateRef": {"name": f"ppt-{name}-{check}-main"},
                                  "count": workload["spec"]["podSets"][0]["count"]}]},
            "status": {"conditions": [_condition("Accepted", "True", "Accepted", "")]}})

    def provision(self):
        """GKE found the nodes: every request Provisioned, every waiting Workload admitted."""
        for (ns, name), flavor_name in sorted(self.checking.items()):
            for (item_ns, pr_name), request in list(self.store.by_plural.get("provisioningrequests", {}).items()):
                if item_ns == ns and pr_name.startswith(name + "-"):
                    request = copy.deepcopy(request)
                    request["status"]["conditions"].append(_condition("Provisioned", "True", "Provisioned", ""))
                    self.store.put("provisioningrequests", ns, request)
            workload = copy.deepcopy(self.store.objects[("workloads", ns, name)])
            for check in workload["status"].get("admissionChecks") or []:
                check.update({"state": "Ready", "message": "", "lastTransitionTime": _now()})
            workload["status"]["conditions"] = [c for c in workload["status"]["conditions"] if c["type"] != "Admitted"]
            self.start(ns, workload, flavor_name)
        self.checking = {}

    def start(self, ns, workload, flavor_name):
        """Admitted: the flavor's labels into the Job's pod template, and the Job unsuspended."""
        self.admissions += 1
        workload["status"]["conditions"].append(_condition("Admitted", "True", "Admitted", "The workload is admitted"))
        self.store.put("workloads", ns, workload)
        job_name = next(o["name"] for o in workload["metadata"]["ownerReferences"] if o["kind"] == "Job")
        job = copy.deepcopy(self.store.objects[("jobs", ns, job_name)])
        flavor = self.store.objects.get(("resourceflavors", "", flavor_name)) or {}
        pod_spec = job["spec"]["template"].setdefault("spec", {})
        pod_spec.setdefault("nodeSelector", {}).update((flavor.get("spec") or {}).get("nodeLabels") or {})
        job["spec"]["suspend"] = False
        self.store.put("jobs", ns, job)
        self.store.start_job(ns, job)

    # --- the test's control ---------------------------------------------------------------------
    def configure(self, request):
        """{"namespace", "queue", "cluster_queue", "gpus": {accelerator: quota}}: the objects
        `gkebuild render kueue` writes, made here (the test may apply its own instead)."""
        cq_name = request.get("cluster_queue", "cluster-queue")
        flavors = []
        for label, quota in (request.get("gpus") or {}).items():
            self.store.put("resourceflavors", "", {
                "apiVersion": API_VERSION, "kind": "ResourceFlavor", "metadata": {"name": label},
                "spec": {"nodeLabels": {"cloud.google.com/gke-accelerator": label}}})
            flavors.append({"name": label, "resources": [{"name": "nvidia.com/gpu", "nominalQuota": quota}]})
        self.store.put("clusterqueues", "", {
            "apiVersion": API_VERSION, "kind": "ClusterQueue", "metadata": {"name": cq_name},
            "spec": {"namespaceSelector": {}, "queueingStrategy": "BestEffortFIFO",
                     "resourceGroups": [{"coveredResources": ["nvidia.com/gpu"], "flavors": flavors}]}})
        if request.get("admission_check"):  # queued provisioning: the check and its config, as render kueue writes
            check = request["admission_check"]
            self.store.put("provisioningrequestconfigs", "", {
                "apiVersion": API_VERSION, "kind": "ProvisioningRequestConfig", "metadata": {"name": check},
                "spec": {"provisioningClassName": "queued-provisioning.gke.io", "managedResources": ["nvidia.com/gpu"]}})
            self.store.put("admissionchecks", "", {
                "apiVersion": API_VERSION, "kind": "AdmissionCheck", "metadata": {"name": check},
                "spec": {"controllerName": "kueue.x-k8s.io/provisioning-request",
                         "parameters": {"apiGroup": "kueue.x-k8s.io", "kind": "ProvisioningRequestConfig",
                                        "name": check}}})
            cluster_queue = copy.deepcopy(self.store.objects[("clusterqueues", "", cq_name)])
            cluster_queue["spec"]["admissionChecks"] = [check]
            self.store.put("clusterqueues", "", cluster_queue)
        if request.get("queue"):
            self.store.put("localqueues", request["namespace"], {
                "apiVersion": API_VERSION, "kind": "LocalQueue",
                "metadata": {"name": request["queue"], "namespace": request["namespace"]},
                "spec": {"clusterQueue": cq_name}})
        self.admit()

    def report(self):
        return {"admitted": len(self.admitted), "max_admitted": self.max_admitted, "admissions": self.admissions}
