#!/usr/bin/env python3
"""A Kubernetes API server stand-in for gkebuild's client tests.

No real API server can run here, so this one follows the documented REST
semantics for what gkebuild sends: server-side apply (fieldManager, conflicts,
force, dryRun), create with generateName, get/list with resourceVersion and
selectors, watch streams (bookmarks, 410 Gone as a status or an ERROR event,
drops mid-stream), Jobs whose pods go Pending -> Running -> Succeeded/Failed
on a timeline the test drives, followed pod logs as chunked streams, events,
delete with a propagation policy, bearer tokens and client certificates,
403 Forbidden and 422 Invalid. The kinds it serves are RESOURCES below: core v1 (Namespaces, Nodes,
Pods, Services, ConfigMaps, Secrets, ServiceAccounts, PersistentVolumes and their claims, Events),
batch/v1 Jobs, apps/v1 DaemonSets and Deployments, rbac.authorization.k8s.io/v1 Roles and
RoleBindings (what gkebuild creates for an in-cluster controller), and Kueue's custom resources;
each with create, get, list, watch, server-side apply and delete.

What a real server decides lives in modules beside this one: server_side_apply.py (list-map
merges, managedFields, conflicts), api_defaults.py (defaults, immutable Job fields),
job_controller.py (retries, podFailurePolicy, deadlines, TTL, Indexed Jobs), secret_objects.py
(Secrets' data, stringData and keys, their garbage collection, secretKeyRef), pod_failures.py
(OOM, eviction, spot and scheduler preemption), watch_window.py (watch timeouts, bookmarks,
compaction), pod_logs.py (log options), kueue_model.py (Kueue's admission).

The test drives it through /_control/* (no authentication):
  POST /_control/config   {"tokens": [...], "forbid": ["create/secrets"], "expire_mode": "status"|"event",
                           "drop_watch_after": N, "drop_log_after": N, "torn": bool,
                           "throttle": N, "retry_after": seconds}  (the next N requests get 429)
                           "expire_continue": true  (history is compacted before the next continued page)
  Lists honour limit and continue (a continued list reads the first page's snapshot; after
  /_control/expire its token answers 410).
  POST /_control/config   {"auto": {"step": seconds, "lines": [...], "fail": {"name part": {"exit_code",
                           "pod_failure", "attempts"}}}} makes every Job created afterwards run on its own:
                           pulling after one step, running after two (each pod logging `lines`, where
                           $JOB, $POD, $INDEX and $ARGS (the container args as a JSON list, $(VAR)
                           expanded from its env as the kubelet does) are filled in, $FILE{path}
                           is a file of a ConfigMap volume, lines joined by spaces, and $(VAR) is the
                           container's env var VAR), finished after
                           three (plus "hold" seconds: a container that runs on after its lines,
                           as a trial does between the steps it reports): failed when its name contains a `fail` key (only its first
                           `attempts` pods when given). A `fail` entry with "rank": R models a
                           multi-node Job losing one node: only the pod of completion index R fails
                           (its peers keep running until the Job controller ends them), in the
                           first `attempts` Jobs of that name (default 1; a Job deleted and created
                           again under its name is the next attempt).
                           "capacity": {"<nodeSelector value>": "stockout" | "backoff" | "never"}
                           models GPUs that are not there (capacity_model.py): pods selecting that
                           value (cloud.google.com/gke-accelerator, say) never schedule; the
                           autoscaler's events say why. Each pod runs so: the Job controller
                           (job_controller.py) replaces failed ones up to backoffLimit. Its pods' containers write their
                           result lines (schema gkebuild.workload.v1) to /dev/termination-log as
                           gkebuild's workloads do, which the kubelet reports as
                           state.terminated.message (see termination_message), unless
                           "writes_results": false.
  POST /_control/job      {"namespace", "name", "phase": "pulling"|"waiting"|"running"|"succeeded"|"failed",
                           "reason", "message", "exit_code", "pod_failure": one of pod_failures.py's
                           (OOMKilled, Evicted, Preempted, PreemptionByScheduler), "pods": [names]}: the
                           Job's unfinished pods (or those named) move on, then the Job controller decides (replace, complete, fail)
                           (an "auto" fail entry may name "pod_failure" too, or "ErrImagePull": the
                           pods wait in ImagePullBackOff until the Job fails as past its deadline)
  POST /_control/log      {"namespace", "pod" or "job", "lines": [...], "timestamp": optional RFC 3339,
                           "container": optional (pod_logs.py: logs per container instance)}
  POST /_control/restart  {"namespace", "pod", "exit_code"}: the kubelet restarts the pod's first container;
                           its log so far is then the `previous=true` log
  POST /_control/suspend_watches   open watches stop sending (changes pile up)
  POST /_control/expire   compacts history: older resourceVersions answer 410; open watches end
  POST /_control/compact  compacts history as etcd does (also every "compact_every" seconds, default 300);
                           open watches go on (watch_window.py). "bookmark_every" (default 60) sets
                           how often watches with allowWatchBookmarks send a BOOKMARK
  POST /_control/drop_watches      open watches are cut without the closing chunk
  GET  /_control/contract the API contract violations seen so far (api_contract.py: every request and
                           response checked against the Kubernetes OpenAPI documents and schemas);
                           POST {"clear": true} also forgets them
  POST /_control/kueue    {"namespace", "queue", "cluster_queue", "gpus": {"nvidia-l4": 2}}: ResourceFlavors,
                           a ClusterQueue with that GPU quota per flavor and a LocalQueue (Kueue objects may
                           also be created through the API); Jobs created suspended with the label
                           kueue.x-k8s.io/queue-name are admitted by quota (kueue_model.py). Answers (also
                           to GET) {"admitted", "max_admitted", "admissions"}. With "admission_check": NAME
                           the ClusterQueue goes through that provisioning AdmissionCheck (queued
                           provisioning); POST {"provision": true} then provisions every waiting request.
  GET  /_control/stats    request counts by method ("stats") and by verb and resource ("requests", e.g.
                           "create jobs", "watch pods", "get pods/log"), and the most pods each Job had active
                           at once ("max_active_pods": the Job controller keeps `parallelism`), and the
                           connections that carried API requests ("connections": protocol "h2" or
                           "http/1.1", streams, requests by kind); POST /_control/reset_stats

HTTPS offers HTTP/2 and HTTP/1.1 in ALPN (h2_front.py; HTTP/1.1 only without python3-h2, or with
GKEBUILD_TEST_SERVER_H2=0): the handlers answer through one response writer for both.

Usage: kube_test_server.py --dir DIR [--plain] [--kubernetes-version 1.33.0]
Creates DIR/ca.crt, DIR/client.crt, DIR/client.key unless they are there (the server
trusts that CA for client certificates), listens on 127.0.0.1 at a free port and prints "PORT n".
"""

import argparse
import http.client
import bisect
import copy
import functools
import heapq
import json
import os
import random
import re
import socket
import ssl
import string
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import api_defaults
import capacity_model
import discovery
import h2_front
import job_controller
import kueue_model
import pod_failures
import pod_logs
import secret_objects
import server_side_apply
import watch_window
from api_contract import Contract

try:
    import yaml  # only for apply bodies written as YAML; JSON bodies need nothing
except ImportError:  # pragma: no cover
    yaml = None

# plural -> (kind, apiVersion, namespaced)
RESOURCES = {
    "namespaces": ("Namespace", "v1", False),
    "nodes": ("Node", "v1", False),
    "pods": ("Pod", "v1", True),
    "services": ("Service", "v1", True),
    "configmaps": ("ConfigMap", "v1", True),
    "secrets": ("Secret", "v1", True),
    "serviceaccounts": ("ServiceAccount", "v1", True),
    "persistentvolumes": ("PersistentVolume", "v1", False),
    "persistentvolumeclaims": ("PersistentVolumeClaim", "v1", True),
    "events": ("Event", "v1", True),
    "jobs": ("Job", "batch/v1", True),
    "daemonsets": ("DaemonSet", "apps/v1", True),
    "deployments": ("Deployment", "apps/v1", True),
    "roles": ("Role", "rbac.authorization.k8s.io/v1", True),
    "rolebindings": ("RoleBinding", "rbac.authorization.k8s.io/v1", True),
    **kueue_model.RESOURCES,  # Kueue's custom resources (kueue_model.py admits queued Jobs)
}
INDEX = "batch.kubernetes.io/job-completion-index"
DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")


def now_rfc3339():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def nano_stamp(ns_since_epoch):
    """Go's RFC3339Nano: trailing zeros of the fraction trimmed."""
    seconds, nanos = divmod(ns_since_epoch, 1_000_000_000)
    base = datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    fraction = f"{nanos:09d}".rstrip("0")
    return base + ("." + fraction if fraction else "") + "Z"


def parse_stamp(text):
    """RFC 3339 -> integer nanoseconds since the epoch."""
    match = re.match(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$", text)
    if not match:
        raise ValueError(text)
    seconds = int(datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S")
                  .replace(tzinfo=timezone.utc).timestamp())
    fraction = (match.group(2) or "").ljust(9, "0")[:9]
    return seconds * 1_000_000_000 + int(fraction)


def status(code, reason, message, details=None):
    body = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": message, "reason": reason, "code": code}
    if details:
        body["details"] = details
    return code, body


class Answered(Exception):
    """The request was answered already (a throttled request): nothing more to send."""


class ApiFailure(Exception):
    def __init__(self, code, reason, message, details=None):
        super().__init__(message)
        self.response = status(code, reason, message, details)


def lookup(obj, path):
    for key in path:
        if not isinstance(obj, dict) or key not in obj:
            return None
        obj = obj[key]
    return obj


TERMINATION_LOG = "/dev/termination-log"
RESULT_SCHEMA = "gkebuild.workload.v1"
RESULTS_TRUNCATED = "gkebuild: more results in the log"


def termination_log_of(lines):
    """What a gkebuild workload (workloads/common/results.cpp) leaves in /dev/termination-log
    after printing `lines`: its result lines, whole, while they fit in the kubelet's 4096 bytes
    with room for the note that more are in the log; after the first that does not fit, the note."""
    kept, size, truncated = [], 0, False
    for line in lines:
        try:
            parsed = json.loads(line)
        except ValueError:
            continue
        if not isinstance(parsed, dict) or parsed.get("schema") != RESULT_SCHEMA:
            continue
        if truncated or size + len(line.encode()) + 1 + len(RESULTS_TRUNCATED) + 1 > 4096:
            truncated = True
            continue
        kept.append(line)
        size += len(line.encode()) + 1
    return "".join(line + "\n" for line in kept) + (RESULTS_TRUNCATED + "\n" if truncated else "")


def selector_view(obj):
    """What label and field selectors read of an object, as it is now: its top-level fields and
    metadata copied one level (the server replaces nested parts rather than editing them), its
    labels copied. Far cheaper than a deep copy, which a history entry made before."""
    view = dict(obj)
    meta = dict(obj.get("metadata") or {})
    meta["labels"] = dict(meta.get("labels") or {})
    view["metadata"] = meta
    return view


def labels_match(obj, selector):
    labels = (obj.get("metadata") or {}).get("labels") or {}
    for term in filter(None, (t.strip() for t in selector.split(","))):
        if "!=" in term:
            key, value = term.split("!=", 1)
            if labels.get(key) == value:
                return False
        elif "=" in term:
            key, value = term.replace("==", "=").split("=", 1)
            if labels.get(key) != value:
                return False
        elif term.startswith("!"):
            if term[1:] in labels:
                return False
        elif term not in labels:
            return False
    return True


def fields_match(obj, selector):
    for term in filter(None, (t.strip() for t in selector.split(","))):
        negate = "!=" in term
        key, value = term.replace("!=", "=").replace("==", "=").split("=", 1)
        actual = lookup(obj, tuple(key.split(".")))
        if (str(actual) == value) == negate:
            return False
    return True


class Store:
    """Objects, their history for watches, pod logs and the test's knobs."""

    def __init__(self):
        self.cond = threading.Condition()
        self.objects = {}  # (plural, ns, name) -> object
        # Indexes, so that a 10,000-Job sweep costs no scan of every object per request:
        self.by_plural = {}  # plural -> {(ns, name): object}
        self.pods_by_job = {}  # (ns, job-name label) -> {pod name}
        self.owners = {}  # (plural, ns, name) -> server_side_apply.Managers
        self.rv = 100
        # plural -> [(rv, ns, type, selector view, JSON text)], in resourceVersion order: the text is
        # what a watch sends (serialised once, however many watches read it), the view (labels and
        # top-level fields as they were) is what selectors look at.
        self.history = {}
        self.history_rvs = {}  # plural -> [rv], for bisecting: a watch reads only what is new
        self.compacted_below = 0
        self.logs = {}  # (ns, pod) -> [(nanos, stamp, text)]
        self.termination_files = {}  # (ns, pod) -> what its container wrote to /dev/termination-log
        self.config = {"tokens": [], "forbid": [], "expire_mode": "status",
                       "drop_watch_after": None, "drop_log_after": None, "torn": False, "auto": None,
                       "throttle": 0, "retry_after": 1}
        self.log_streams = 0  # open pod log requests
        self.snapshots = {}  # continue token -> (resourceVersion, the rest of the list)
        self.watch_generation = 0  # bumped to end open watches
        self.watch_end_mode = None  # "expire" | "drop"
        self.watches_suspended = False
        self.stats = {}
        self.requests = {}
        self.timeline = []  # (due, sequence, action) for Jobs that run on their own
        self.timeline_thread = None
        self.sequence = 0
        self.kueue = kueue_model.KueueModel(self)
        self.jobs = job_controller.JobController(self)
        self.max_active_pods = {}  # Job -> the most pods it had active at once
        self.job_attempts = {}  # (namespace, Job name) -> how many Jobs of that name were created
        with self.cond:
            for name in ("default", "kube-system"):
                self.put("namespaces", "", {"apiVersion": "v1", "kind": "Namespace",
                                            "metadata": {"name": name}}, record=False)

    # --- storage -------------------------------------------------------------------------
    def next_rv(self):
        self.rv += 1
        return self.rv

    def put(self, plural, ns, obj, record=True, event_type=None):
        key = (plural, ns, obj["metadata"]["name"])
        existed = key in self.objects
        meta = obj["metadata"]
        if not existed:
            meta.setdefault("uid", str(uuid.uuid4()))
            meta.setdefault("creationTimestamp", now_rfc3339())
            meta.setdefault("generation", 1)
        meta["resourceVersion"] = str(self.next_rv())
        if ns:
            meta["namespace"] = ns
        self.index(plural, ns, obj["metadata"]["name"], obj)
        self.objects[key] = obj
        if record:
            self.remember(plural, ns, event_type or ("MODIFIED" if existed else "ADDED"), obj)
        self.cond.notify_all()
        return obj

    def index(self, plural, ns, name, obj):
        """Keeps by_plural and pods_by_job in step with objects (obj None: removed)."""
        of_plural = self.by_plural.setdefault(plural, {})
        if plural == "pods":
            old = of_plural.get((ns, name))
            for item, add in ((old, False), (obj, True)):
                job = ((item or {}).get("metadata", {}).get("labels") or {}).get("job-name")
                if job is not None:
                    names = self.pods_by_job.setdefault((ns, job), set())
                    names.add(name) if add else names.discard(name)
        if obj is None:
            of_plural.pop((ns, name), None)
        else:
            of_plural[(ns, name)] = obj

    def items_of(self, plural):
        """((ns, name), object) of one resource, in name order (as a sorted scan of objects gave)."""
        return sorted(self.by_plural.get(plural, {}).items())

    def remember(self, plural, ns, event_type, obj):
        self.history.setdefault(plural, []).append((self.rv, ns, event_type, selector_view(obj), json.dumps(obj)))
        self.history_rvs.setdefault(plural, []).append(self.rv)

    def changes_since(self, plural, position):
        """(rv, ns, type, selector view, JSON text) of `plural` newer than `position`."""
        start = bisect.bisect_right(self.history_rvs.get(plural, []), position)
        return self.history.get(plural, [])[start:]

    def delete(self, plural, ns, name):
        obj = self.objects.pop((plural, ns, name))
        self.owners.pop((plural, ns, name), None)
        self.index(plural, ns, name, None)
        obj = copy.deepcopy(obj)
        obj["metadata"]["resourceVersion"] = str(self.next_rv())
        self.remember(plural, ns, "DELETED", obj)
        if plural == "jobs":  # the garbage collector: Secrets the run's Jobs owned
            secret_objects.collect_garbage(self, ns)
        self.cond.notify_all()
        return obj

    def reference(self, kind, ns, name):
        """An event's involvedObject also names its object's apiVersion and uid (kubectl describe selects by uid)."""
        plural, api_version = {"Pod": ("pods", "v1"), "Job": ("jobs", "batch/v1")}.get(kind, ("", ""))
        found = self.objects.get((plural, ns, name))
        return {"apiVersion": api_version, "uid": found["metadata"]["uid"]} if found else {}

    def record_event(self, ns, pod, kind, reason, message, event_type="Normal", component="kubelet"):
        name = f"{pod}.{random.getrandbits(40):x}"
        event = {"apiVersion": "v1", "kind": "Event", "metadata": {"name": name, "namespace": ns},
                 "involvedObject": {"kind": kind, "name": pod, "namespace": ns, **self.reference(kind, ns, pod)},
                 "reason": reason, "message": message, "type": event_type}
        if reason == "FailedScheduling":
            # The scheduler records through events.k8s.io: read as core/v1, such an event has
            # eventTime (microseconds) and no count, firstTimestamp or lastTimestamp.
            micro = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            event.update({"eventTime": micro, "firstTimestamp": None, "lastTimestamp": None,
                          "reportingComponent": "default-scheduler", "reportingInstance": "default-scheduler-1",
                          "action": "Scheduling", "source": {}})
        else:
            event.update({"count": 1, "firstTimestamp": now_rfc3339(), "lastTimestamp": now_rfc3339(),
                          "eventTime": None, "source": {"component": component}})
        self.put("events", ns, event)

    # --- the Job controller, driven by the test ---------------------------------------------
    def job_created(self, ns, job):
        """A new Job starts its pods, unless it is suspended: then it waits (Suspended condition)
        for whoever unsuspends it - Kueue, when it carries a queue label."""
        key = (ns, job["metadata"]["name"])
        self.job_attempts[key] = self.job_attempts.get(key, 0) + 1  # the same name created again
        if not (job.get("spec") or {}).get("suspend"):
            return self.start_job(ns, job)
        job["status"] = {"conditions": [{"type": "Suspended", "status": "True", "reason": "JobSuspended",
                                         "message": "Job suspended", "lastProbeTime": now_rfc3339(),
                                         "lastTransitionTime": now_rfc3339()}]}
        self.put("jobs", ns, job)
        if self.kueue.manages(job):
            self.kueue.job_created(ns, job)

    def start_job(self, ns, job):
        self.jobs.start(ns, job)

    def start_pods(self, ns, job, indexes):
        """The Job controller's new pods (job_controller.py decides which); with config "auto" each
        runs on its own."""
        names = self.create_pods(ns, job, indexes)
        if self.config.get("auto"):
            self.run_on_its_own(ns, job["metadata"]["name"], names)
        return names

    def create_pods(self, ns, job, indexes):
        spec = job.get("spec") or {}
        indexed = spec.get("completionMode") == "Indexed"
        template = copy.deepcopy(spec.get("template") or {})
        name = job["metadata"]["name"]
        uid = job["metadata"]["uid"]
        active = sum(1 for pod in self.job_pods(ns, name) if pod["status"]["phase"] in ("Pending", "Running"))
        self.max_active_pods[name] = max(self.max_active_pods.get(name, 0), active + len(indexes))
        names = []
        for index in indexes:
            suffix = "".join(random.choice(string.ascii_lowercase + string.digits) for _ in range(5))
            pod_name = f"{name}-{index}-{suffix}" if indexed else f"{name}-{suffix}"
            meta = template.get("metadata") or {}
            labels = dict(meta.get("labels") or {})
            labels.update({"job-name": name, "batch.kubernetes.io/job-name": name, "controller-uid": uid,
                           "batch.kubernetes.io/controller-uid": uid})
            annotations = dict(meta.get("annotations") or {})
            if indexed:
                annotations["batch.kubernetes.io/job-completion-index"] = str(index)
            containers = (template.get("spec") or {}).get("containers") or []
            pod_spec = copy.deepcopy(template.get("spec") or {})
            if indexed:  # as the Job controller: <job>-<index>, in the template's subdomain if any
                pod_spec["hostname"] = f"{name}-{index}"
            pod = {"apiVersion": "v1", "kind": "Pod",
                   "metadata": {"name": pod_name, "namespace": ns, "labels": labels,
                                "annotations": annotations,
                                "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": name,
                                                     "uid": uid, "controller": True}]},
                   "spec": pod_spec,
                   "status": {"phase": "Pending",
                              "conditions": [{"type": "PodScheduled", "status": "False",
                                              "reason": "Unschedulable"}],
                              "containerStatuses": [
                                  {"name": c.get("name", "main"), "ready": False, "restartCount": 0,
                                   "image": c.get("image", ""), "imageID": "",
                                   "state": {"waiting": {"reason": "ContainerCreating"}}}
                                  for c in containers]}}
            self.put("pods", ns, api_defaults.default_pod(pod))
            self.logs[(ns, pod_name)] = []
            self.record_event(ns, pod_name, "Pod", "FailedScheduling",
                              "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.", "Warning")
            if capacity_model.refusal((self.config.get("auto") or {}).get("capacity") or {}, job) is None:
                self.record_event(ns, pod_name, "Pod", "TriggeredScaleUp",
                                  "pod triggered scale-up: [{gpu-pool 0->1 (max: 4)}]")
            names.append(pod_name)
        return names

    # --- Jobs that run on their own (config "auto") -------------------------------------------
    def run_on_its_own(self, ns, name, pods):
        auto = self.config["auto"]
        step = float(auto.get("step", 0.05))
        job = self.objects[("jobs", ns, name)]
        refusal = capacity_model.refusal(auto.get("capacity") or {}, job)
        if refusal is not None:  # the pods wait for nodes that never come
            self.schedule(time.monotonic() + step, lambda: capacity_model.explain(self, ns, pods, refusal))
            return
        failure = next((f for part, f in (auto.get("fail") or {}).items() if part in name), None)
        if failure is not None and "rank" in failure:
            return self.lose_a_rank(ns, name, pods, failure, step)
        attempt = sum(1 for p in self.job_pods(ns, name) if p["status"]["phase"] == "Failed") + sum(
            c.get("restartCount", 0) for p in self.job_pods(ns, name) for c in p["status"].get("containerStatuses", []))
        if failure is not None and attempt >= failure.get("attempts", attempt + 1):
            failure = None  # only the first `attempts` pods fail: the retry succeeds
        start = time.monotonic()
        advance = functools.partial(self.advance_job, ns, name, only=set(pods))
        self.schedule(start + step, lambda: advance("pulling", "", "", 0))
        if failure is not None and failure.get("pod_failure") == "ErrImagePull":
            # The kubelet cannot pull: ErrImagePull, then back-off; the pod never runs and the
            # Job ends only at its activeDeadlineSeconds.
            message = f'Failed to pull image: rpc error: code = NotFound desc = {name}: not found'
            self.schedule(start + 2 * step, lambda: advance("waiting", "ErrImagePull", message, 0))
            self.schedule(start + 3 * step, lambda: advance("waiting", "ImagePullBackOff", 'Back-off pulling image', 0))
            self.schedule(start + 6 * step, lambda: self.jobs.fail(
                ns, copy.deepcopy(self.objects[("jobs", ns, name)]), "DeadlineExceeded",
                "Job was active longer than specified deadline"))
            return
        self.schedule(start + 2 * step, lambda: self.run_and_log(ns, name, set(pods), auto.get("lines") or []))
        end = start + 3 * step + float(auto.get("hold", 0))  # "hold": running on after the lines
        if failure is None:
            self.schedule(end, lambda: advance("succeeded", "", "", 0))
        else:
            self.schedule(end, lambda: advance(
                "failed", "", "", failure.get("exit_code", 1), failure.get("pod_failure")))

    def lose_a_rank(self, ns, name, pods, failure, step):
        """A multi-node Job whose node `rank` is disrupted while all run: that pod fails as
        failure["pod_failure"] says (or with its exit code), the Job controller decides; the
        Job's later attempts (created again under its name) run to success."""
        attempt = self.job_attempts.get((ns, name), 1)
        start = time.monotonic()
        advance = functools.partial(self.advance_job, ns, name, only=set(pods))
        self.schedule(start + step, lambda: advance("pulling", "", "", 0))
        self.schedule(start + 2 * step, lambda: self.run_and_log(
            ns, name, set(pods), self.config["auto"].get("lines") or []))
        if attempt > failure.get("attempts", 1):
            self.schedule(start + 3 * step, lambda: advance("succeeded", "", "", 0))
            return
        rank = str(failure["rank"])
        lost = {p for p in pods if (self.objects[("pods", ns, p)]["metadata"].get("annotations") or {}).get(INDEX) == rank}
        self.schedule(start + 3 * step, lambda: self.advance_job(
            ns, name, "failed", "", "", failure.get("exit_code", 1), failure.get("pod_failure"), only=lost))

    def run_and_log(self, ns, name, only, templates):
        self.advance_job(ns, name, "running", "", "", 0, only=only)
        for pod in self.job_pods(ns, name):
            if pod["status"]["phase"] != "Running" or pod["metadata"]["name"] not in only:
                continue  # another pod of the Job (parallelism, a retry) logs on its own
            pod_name = pod["metadata"]["name"]
            containers = pod["spec"].get("containers") or [{}]
            args = [self.kubelet_expand(pod, arg) for arg in containers[0].get("args") or []]
            filled = {"$JOB": name, "$POD": pod_name, "$ARGS": json.dumps(args),
                      "$INDEX": pod["metadata"]["annotations"].get("batch.kubernetes.io/job-completion-index", "0")}
            for template in templates:
                text = template
                for key, value in filled.items():
                    text = text.replace(key, value)
                text = re.sub(r"\$FILE\{([^}]*)\}", lambda m, pod=pod: self.pod_file(
                    ns, pod, self.kubelet_expand(pod, m.group(1))).replace("\n", " ").strip(), text)
                text = self.kubelet_expand(pod, text)
                nanos = time.time_ns()
                self.logs.setdefault((ns, pod_name), []).append((nanos, nano_stamp(nanos), text))
            if self.config["auto"].get("writes_results", True):
                self.termination_files[(ns, pod_name)] = termination_log_of(
                    text for _, _, text in self.logs.get((ns, pod_name), []))

    # --- what the kubelet shows a container (for the "auto" log lines) -----------------------------
    @staticmethod
    def kubelet_expand(pod, text):
        """$(NAME) in a container's args, from its env: plain values and fieldRefs to the pod's
        name, namespace, labels and annotations, as the kubelet expands them; unknown names stay."""
        values = {}
        metadata = pod["metadata"]
        for var in ((pod["spec"].get("containers") or [{}])[0].get("env") or []):
            field = ((var.get("valueFrom") or {}).get("fieldRef") or {}).get("fieldPath", "")
            match = re.match(r"^metadata\.(annotations|labels)\['(.+)'\]$", field)
            secret = secret_objects.resolve(STORE, metadata.get("namespace", ""), var)
            if "value" in var:
                values[var["name"]] = var["value"]
            elif secret is not None:
                values[var["name"]] = secret
            elif match:
                values[var["name"]] = (metadata.get(match.group(1)) or {}).get(match.group(2), "")
            elif field in ("metadata.name", "metadata.namespace"):
                values[var["name"]] = metadata.get(field.split(".")[1], "")
        return re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: values.get(m.group(1), m.group(0)), text)

    def pod_file(self, ns, pod, path):
        """A file of a ConfigMap volume as the pod's first container sees it; "" for any other path."""
        container = (pod["spec"].get("containers") or [{}])[0]
        volumes = {v.get("name"): v for v in pod["spec"].get("volumes") or []}
        for mount in container.get("volumeMounts") or []:
            prefix = mount.get("mountPath", "").rstrip("/") + "/"
            config_map = (volumes.get(mount.get("name")) or {}).get("configMap")
            if path.startswith(prefix) and config_map:
                found = self.objects.get(("configmaps", ns, config_map.get("name", ""))) or {}
                return (found.get("data") or {}).get(path[len(prefix):], "")
        return ""

    def schedule(self, due, action):
        self.sequence += 1
        heapq.heappush(self.timeline, (due, self.sequence, action))
        if self.timeline_thread is None:
            self.timeline_thread = threading.Thread(target=self.run_timeline, daemon=True)
            self.timeline_thread.start()
        self.cond.notify_all()

    def run_timeline(self):
        with self.cond:
            while True:
                now = time.monotonic()
                while self.timeline and self.timeline[0][0] <= now:
                    action = heapq.heappop(self.timeline)[2]
                    try:
                        action()
                    except KeyError:  # the Job was deleted meanwhile
                        pass
                wait = self.timeline[0][0] - now if self.timeline else 1.0
                self.cond.wait(max(wait, 0.001))

    def job_pods(self, ns, job_name):
        return [self.objects[("pods", ns, name)] for name in sorted(self.pods_by_job.get((ns, job_name), ()))]

    def advance_job(self, ns, name, phase, reason, message, exit_code, pod_failure=None, only=None):
        """phase: pulling | waiting (the container waits with `reason`, e.g. ImagePullBackOff) |
        running | succeeded | failed. A failed pod ends as `pod_failure` says (pod_failures.py), or
        with `exit_code`, or with no container state at all when exit_code is None; under
        restartPolicy OnFailure the kubelet restarts a container that exited instead
        (pod_logs.restart_container). `only`: these pods (default: all the Job's unfinished pods).
        The Job controller (job_controller.py) then decides what follows."""
        self.objects[("jobs", ns, name)]  # KeyError when the Job is gone: nothing to advance
        pods = [p for p in self.job_pods(ns, name) if p["status"]["phase"] not in ("Succeeded", "Failed")
                and (only is None or p["metadata"]["name"] in only)]
        for pod in pods:
            pod = copy.deepcopy(pod)
            pod_name = pod["metadata"]["name"]
            if phase == "failed" and pod_failure is None and exit_code and pod["spec"].get("restartPolicy") == "OnFailure":
                pod_logs.restart_container(self, ns, pod_name, exit_code)
                if self.config.get("auto"):
                    self.run_on_its_own(ns, name, [pod_name])
                continue
            pod["status"]["conditions"] = [{"type": "PodScheduled", "status": "True"}]
            if phase == "pulling":  # scheduled; the container waits while its image is pulled
                image = ((pod["spec"].get("containers") or [{}])[0]).get("image", "")
                self.record_event(ns, pod_name, "Pod", "Scheduled", f"Successfully assigned {ns}/{pod_name}")
                self.record_event(ns, pod_name, "Pod", "Pulling", f'Pulling image "{image}"')
                self.put("pods", ns, pod)
                continue
            if phase == "waiting":
                image = ((pod["spec"].get("containers") or [{}])[0]).get("image", "")
                for container in pod["status"]["containerStatuses"]:
                    container["state"] = {"waiting": {"reason": reason, "message": f'{message} "{image}"'}}
                self.record_event(ns, pod_name, "Pod", "Failed", f'{message} "{image}"', "Warning")
                self.put("pods", ns, pod)
                continue
            if phase == "running":
                pod["status"]["phase"] = "Running"
                state = {"running": {"startedAt": now_rfc3339()}}
                self.record_event(ns, pod_name, "Pod", "Scheduled", f"Successfully assigned {ns}/{pod_name}")
                self.record_event(ns, pod_name, "Pod", "Started", "Started container")
            else:
                pod["status"]["phase"] = "Succeeded" if phase == "succeeded" else "Failed"
                code, ended = pod_failures.end_pod(pod, pod_failure, 0 if phase == "succeeded" else exit_code)
                state = {"terminated": {"exitCode": code, "reason": ended, "finishedAt": now_rfc3339()}} \
                    if code is not None else pod["status"]["containerStatuses"][0].get("state", {})
                if code is not None:
                    message = self.termination_message(ns, pod, code)
                    if message:
                        state["terminated"]["message"] = message
            for container in pod["status"]["containerStatuses"]:
                container["state"] = state
                container["ready"] = phase == "running"
            self.put("pods", ns, pod)
        if phase not in ("pulling", "waiting"):
            self.jobs.sync(ns, name)

    def termination_message(self, ns, pod, exit_code):
        """What the kubelet reports as the first container's state.terminated.message: the file at
        its terminationMessagePath (default /dev/termination-log, where the workload writes),
        cut to 4096 bytes; with terminationMessagePolicy FallbackToLogsOnError, an empty file and
        an error exit, the log's last 80 lines or 2048 bytes, whichever is smaller."""
        container = (pod["spec"].get("containers") or [{}])[0]
        path = container.get("terminationMessagePath") or TERMINATION_LOG
        written = self.termination_files.get((ns, pod["metadata"]["name"]), "") if path == TERMINATION_LOG else ""
        if not written and exit_code != 0 and container.get("terminationMessagePolicy") == "FallbackToLogsOnError":
            lines = [text for _, _, text in self.logs.get((ns, pod["metadata"]["name"]), [])][-80:]
            written = "".join(line + "\n" for line in lines)[-2048:]
        return written.encode()[:4096].decode(errors="ignore")

    def container_waiting(self, ns, pod_name):
        pod = self.objects.get(("pods", ns, pod_name))
        for container in (pod or {}).get("status", {}).get("containerStatuses", []):
            if "waiting" in container.get("state", {}):
                return container["name"], container["state"]["waiting"].get("reason", "")
        return None

    def container_finished(self, ns, pod_name):
        pod = self.objects.get(("pods", ns, pod_name))
        return pod is None or pod["status"].get("phase") in ("Succeeded", "Failed")


STORE = Store()
CONNECTIONS = h2_front.Connections()
CONTRACT = None  # set in main(): the Kubernetes version the server plays
SCHEMAS = None


class Handler(BaseHTTPRequestHandler):
    """The API and the test's controls, over HTTP/1.1 (this class) or an HTTP/2 stream (H2Handler):
    the handlers below answer only through the response writer (respond, begin_stream, chunk,
    end_chunks, cut), which each protocol implements."""
    protocol_version = "HTTP/1.1"

    def setup(self):
        # Headers and body go out as separate writes; without this, Nagle's algorithm and
        # the client's delayed ACK add 40 ms to every response.
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        protocol = "http/1.1"
        if self.server.ssl_context is not None:
            self.request = self.server.ssl_context.wrap_socket(self.request, server_side=True)
            protocol = self.request.selected_alpn_protocol() or protocol
        self.connection_record = CONNECTIONS.opened(protocol)
        super().setup()

    def handle(self):
        if self.connection_record["protocol"] == "h2":  # ALPN chose HTTP/2: each request is a stream
            return h2_front.serve(self.request, self.h2_request, CONNECTIONS, self.connection_record)
        return super().handle()

    def h2_request(self, stream, method, path, headers, body):
        try:
            H2Handler(self, stream, method, path, headers, body).dispatch()
        except Exception:
            stream.reset()  # the client sees a dropped stream instead of waiting for an answer
            raise

    def log_message(self, *args):  # quiet: the tests read their own output
        pass

    # --- the response writer: HTTP/1.1 ---------------------------------------------------------
    def respond(self, code, headers, data):
        """A whole answer: `headers` as (name, value) pairs, `data` as bytes."""
        self.send_response(code)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def begin_stream(self, content_type):
        """A 200 whose body follows in chunk() calls until end_chunks() or cut()."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def chunk(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def end_chunks(self):
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def cut(self):
        """Ends the connection without the closing chunk: the client sees a dropped stream."""
        self.wfile.flush()
        self.close_connection = True
        try:
            self.request.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    # --- plumbing ----------------------------------------------------------------------------
    def send_json(self, code, body):
        data = json.dumps(body).encode()
        self.check_response(code, "application/json", data)
        self.respond(code, [("Content-Type", "application/json")], data)

    def start_chunks(self, content_type):
        self.check_response(200, content_type, None)
        self.begin_stream(content_type)

    def send_or_cut(self, line, sent, drop_after, torn):
        """Sends one line, or, once `drop_after` lines went out, cuts the stream (mid-line if `torn`)."""
        if drop_after is not None and sent >= drop_after:
            if torn:
                self.chunk(line[: len(line) // 2])
            self.cut()
            return False
        self.chunk(line)
        return True

    def body(self):
        return self._body

    def checked(self):
        """Whether this exchange is part of the API (not the test's /_control/ channel, not OpenAPI)."""
        return not urlsplit(self.path).path.startswith(("/_control/", "/openapi/"))

    def check_response(self, code, content_type, data):
        if self.checked():
            CONTRACT.check_response(self.command, urlsplit(self.path).path, code, content_type, data)

    def send_serialised_events(self, events, sent, drop_after, torn):
        """Watch events given as (type, the object's JSON text): in one chunk, unless the stream
        is to be cut after some (then one line at a time, as send_or_cut counts them)."""
        lines = [f'{{"type": "{event_type}", "object": {text}}}\n' for event_type, text in events]
        if self.checked() and CONTRACT.enabled:
            for event_type, text in events:
                CONTRACT.check_watch_event(urlsplit(self.path).path, {"type": event_type, "object": json.loads(text)})
        if drop_after is None:
            if lines:
                self.chunk("".join(lines))
            return True
        return all(self.send_or_cut(line, sent + i, drop_after, torn) for i, line in enumerate(lines))

    def send_event(self, event, sent, drop_after, torn):
        if self.checked():
            CONTRACT.check_watch_event(urlsplit(self.path).path, event)
        return self.send_or_cut(json.dumps(event) + "\n", sent, drop_after, torn)

    def count(self, path, query):
        with STORE.cond:
            key = self.command
            STORE.stats[key] = STORE.stats.get(key, 0) + 1
            verb = {"POST": "create", "PATCH": "apply", "DELETE": "delete", "PUT": "update"}.get(self.command, "get")
            try:
                route = self.route(path)
            except ApiFailure:
                route = {"plural": path, "name": "", "sub": ""}
            if self.command == "GET" and not route["name"]:
                verb = "watch" if query.get("watch") in ("1", "true") else "list"
            resource = route["plural"] + ("/" + route["sub"] if route["sub"] else "")
            kind = f"{verb} {resource}"
            STORE.requests[kind] = STORE.requests.get(kind, 0) + 1
        CONNECTIONS.count(self.connection_record, kind)

    # --- dispatch ----------------------------------------------------------------------------
    def do_GET(self):
        self.dispatch()

    def do_POST(self):
        self.dispatch()

    def do_PATCH(self):
        self.dispatch()

    def do_DELETE(self):
        self.dispatch()

    def do_PUT(self):
        self.dispatch()

    def dispatch(self):
        # Read the whole request first: an early refusal must not leave a body on a kept-alive connection.
        self._body = self.read_body()
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        try:
            if url.path.startswith("/_control/"):
                return self.control(url.path[len("/_control/"):])
            self.count(url.path, query)
            if url.path.startswith("/openapi/"):
                return self.openapi(url.path)
            self.throttle()
            CONTRACT.check_request(self.command, url.path, url.query, self.headers.get("Content-Type"), self._body)
            if self.command == "GET" and self.discover(url.path):
                return
            route = self.route(url.path)
            user = self.authenticate()
            self.authorize(user, route, query)
            return self.api(route, query)
        except ApiFailure as failure:
            self.send_json(*failure.response)
        except Answered:
            pass
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            self.close_connection = True

    def throttle(self):
        """API Priority and Fairness rejecting a request: 429 with Retry-After, as often as configured."""
        with STORE.cond:
            if STORE.config["throttle"] <= 0:
                return
            STORE.config["throttle"] -= 1
            STORE.stats["throttled"] = STORE.stats.get("throttled", 0) + 1
        seconds = int(STORE.config["retry_after"])
        body = status(429, "TooManyRequests", "Too many requests, please try again later.",
                      {"retryAfterSeconds": seconds})[1]
        data = json.dumps(body).encode()
        self.check_response(429, "application/json", data)
        self.respond(429, [("Content-Type", "application/json"), ("Retry-After", str(seconds))], data)
        raise Answered()

    def discover(self, path):
        """Answers the discovery requests kubectl makes before it acts; False for any other path."""
        path = path.rstrip("/")
        if path == "/version":
            body = discovery.version_info(CONTRACT.version)
        elif path == "/api":
            body = discovery.core_versions(f"127.0.0.1:{self.server.server_address[1]}")
        elif path == "/apis":
            body = discovery.group_list(RESOURCES)
        elif path == "/api/v1" or re.match(r"^/apis/[^/]+/[^/]+$", path):
            body = discovery.resource_list(RESOURCES, "v1" if path == "/api/v1" else path[len("/apis/"):])
            if body is None:
                raise ApiFailure(404, "NotFound", f"the server could not find the requested resource ({path})")
        else:
            return False
        self.send_json(200, body)
        return True

    def openapi(self, path):
        """The OpenAPI v3 index and documents: not part of the API the contract covers."""
        if path.rstrip("/") == "/openapi/v3":
            return self.send_json(200, discovery.openapi_index())
        name = discovery.DOCUMENTS.get(path[len("/openapi/v3/"):])
        if name is None:
            raise ApiFailure(404, "NotFound", f"the server could not find the requested resource ({path})")
        self.respond(200, [("Content-Type", "application/json")], discovery.openapi_document(name))

    def route(self, path):
        match = re.match(r"^/api/v1(/.*)?$", path) or re.match(r"^/apis/([^/]+/[^/]+)(/.*)?$", path)
        if not match:
            raise ApiFailure(404, "NotFound", f"the server could not find the requested resource ({path})")
        group_version = "v1" if path.startswith("/api/") else match.group(1)
        parts = [p for p in (match.groups()[-1] or "").split("/") if p]
        ns = ""
        if len(parts) >= 3 and parts[0] == "namespaces":
            ns, parts = parts[1], parts[2:]
        if not parts or parts[0] not in RESOURCES:
            raise ApiFailure(404, "NotFound", f"the server could not find the requested resource ({path})")
        plural, name, sub = parts[0], parts[1] if len(parts) > 1 else "", parts[2] if len(parts) > 2 else ""
        kind, api_version, namespaced = RESOURCES[plural]
        if api_version != group_version or namespaced != bool(ns):
            raise ApiFailure(404, "NotFound", f"the server could not find the requested resource ({path})")
        return {"plural": plural, "ns": ns, "name": name, "sub": sub, "kind": kind, "apiVersion": api_version}

    def authenticate(self):
        tokens = STORE.config["tokens"]
        header = self.headers.get("Authorization", "")
        if header.startswith("Bearer ") and header[7:] in tokens:
            return "token-user"
        if isinstance(self.request, ssl.SSLSocket):
            cert = self.request.getpeercert()
            if cert:
                return dict(x[0] for x in cert["subject"]).get("commonName", "cert-user")
        if not tokens:
            return "anonymous"
        raise ApiFailure(401, "Unauthorized", "Unauthorized")

    def authorize(self, user, route, query):
        if route["sub"] == "log":
            verb, resource = "get", "pods/log"
        else:
            verb = {"GET": "get", "POST": "create", "PATCH": "patch", "DELETE": "delete", "PUT": "update"}[self.command]
            if verb == "get" and not route["name"]:
                verb = "watch" if query.get("watch") in ("1", "true") else "list"
            resource = route["plural"]
        if f"{verb}/{resource}" in STORE.config["forbid"]:
            group = route["apiVersion"].split("/")[0] if "/" in route["apiVersion"] else ""
            target = f'{resource} "{route["name"]}"' if route["name"] else resource
            where = f' in the namespace "{route["ns"]}"' if route["ns"] else " at the cluster scope"
            raise ApiFailure(403, "Forbidden",
                             f'{target} is forbidden: User "{user}" cannot {verb} resource "{resource}" '
                             f'in API group "{group}"{where}',
                             {"name": route["name"], "kind": route["plural"]})

    def api(self, route, query):
        if route["sub"] == "log" and self.command == "GET":
            return self.pod_log(route, query)
        handlers = {("GET", False): self.list_or_watch, ("GET", True): self.get_object,
                    ("POST", False): self.create, ("PATCH", True): self.apply,
                    ("DELETE", True): self.delete_object}
        handler = handlers.get((self.command, bool(route["name"])))
        if handler is None or route["sub"]:
            raise ApiFailure(405, "MethodNotAllowed", f"{self.command} is not supported here")
        return handler(route, query)

    # --- reads ---------------------------------------------------------------------------------
    def get_object(self, route, query):
        with STORE.cond:
            obj = STORE.objects.get((route["plural"], route["ns"], route["name"]))
            if obj is None:
                raise self.not_found(route)
            self.send_json(200, obj)

    def not_found(self, route):
        group = route["apiVersion"].split("/")[0] if "/" in route["apiVersion"] else ""
        resource = f'{route["plural"]}.{group}' if group else route["plural"]
        return ApiFailure(404, "NotFound", f'{resource} "{route["name"]}" not found',
                          {"name": route["name"], "kind": route["plural"]})

    def matching(self, route, query, obj, ns):
        return ((not route["ns"] or ns == route["ns"])
                and labels_match(obj, query.get("labelSelector", ""))
                and fields_match(obj, query.get("fieldSelector", "")))

    def list_or_watch(self, route, query):
        if query.get("watch") in ("1", "true"):
            return self.watch(route, query)
        with STORE.cond:
            token = query.get("continue", "")
            if token:
                # A continued list reads the snapshot its first page was cut from, as etcd does,
                # until compaction removes that revision.
                if STORE.config.get("expire_continue"):  # as if compaction ran between two pages
                    STORE.config["expire_continue"] = False
                    watch_window.compact(STORE, STORE.rv + 1)
                if token not in STORE.snapshots or STORE.snapshots[token][0] < STORE.compacted_below:
                    raise ApiFailure(410, "Expired", "The provided continue parameter is too old to display a "
                                     "consistent list result. You can start a new list without the continue "
                                     "parameter.")
                rv, items = STORE.snapshots.pop(token)
            else:
                rv = STORE.rv
                items = [obj for (ns, _), obj in STORE.items_of(route["plural"])
                         if self.matching(route, query, obj, ns)]
            metadata = {"resourceVersion": str(rv)}
            limit = int(query.get("limit") or 0)
            if 0 < limit < len(items):
                items, rest = items[:limit], [copy.deepcopy(o) for o in items[limit:]]
                following = uuid.uuid4().hex
                STORE.snapshots[following] = (rv, rest)
                metadata.update({"continue": following, "remainingItemCount": len(rest)})
            self.send_json(200, {"kind": route["kind"] + "List", "apiVersion": route["apiVersion"],
                                 "metadata": metadata, "items": items})

    def watch(self, route, query):
        since = query.get("resourceVersion", "")
        timeout = watch_window.timeout_of(query)
        bookmarks = query.get("allowWatchBookmarks") in ("1", "true")
        with STORE.cond:
            if since not in ("", "0") and int(since) < STORE.compacted_below:
                if STORE.config["expire_mode"] == "status":
                    raise ApiFailure(410, "Expired", watch_window.too_old(since, STORE.compacted_below))
                expired = True
            else:
                expired = False
            generation = STORE.watch_generation
            drop_after = STORE.config["drop_watch_after"]
            STORE.config["drop_watch_after"] = None  # one stream only
            torn = STORE.config["torn"]
            if since in ("", "0"):
                position = STORE.rv
                backlog = [("ADDED", json.dumps(obj)) for (ns, _), obj in STORE.items_of(route["plural"])
                           if self.matching(route, query, obj, ns)]
            else:
                position, backlog = int(since), []
        self.start_chunks("application/json")
        if expired:
            gone = status(410, "Expired", f"too old resource version: {since}")[1]
            self.send_event({"type": "ERROR", "object": gone}, 0, None, False)
            return self.end_chunks()
        sent = 0
        deadline = time.monotonic() + timeout
        bookmark_every = float(STORE.config.get("bookmark_every") or 60)
        mark_due = watch_window.next_bookmark(time.monotonic(), deadline, bookmark_every) if bookmarks else None
        while True:
            with STORE.cond:
                while True:
                    # An ended stream sends nothing more: what changed meanwhile must reach
                    # the client through its reconnect (replay) or its re-list (after 410).
                    ended = STORE.watch_generation != generation
                    changes = [] if ended or STORE.watches_suspended else STORE.changes_since(route["plural"], position)
                    fresh = [(rv, t, text) for rv, ns, t, view, text in changes
                             if self.matching(route, query, view, ns)]
                    if changes and not fresh:  # nothing for this watch: never look at these again
                        position = changes[-1][0]
                    remaining = deadline - time.monotonic()
                    marking = mark_due is not None and time.monotonic() >= mark_due and not STORE.watches_suspended
                    if ended or fresh or backlog or remaining <= 0 or marking:
                        break
                    STORE.cond.wait(min(remaining, 0.5, max(0.05, (mark_due or deadline) - time.monotonic())))
                end_mode = STORE.watch_end_mode if ended else None
                current_rv = STORE.rv
            events = backlog + [(t, text) for _, t, text in fresh]
            backlog = []
            if not self.send_serialised_events(events, sent, drop_after, torn):
                return
            sent += len(events)
            if fresh:
                position = fresh[-1][0]
            if end_mode == "drop":
                return self.cut()
            if end_mode == "expire":
                if STORE.config["expire_mode"] == "event":
                    gone = status(410, "Expired", "too old resource version")[1]
                    self.send_event({"type": "ERROR", "object": gone}, 0, None, False)
                return self.end_chunks()
            if marking:  # the watch cache's periodic (or pre-timeout) bookmark
                mark = {"kind": route["kind"], "apiVersion": route["apiVersion"],
                        "metadata": {"resourceVersion": str(current_rv)}}
                self.send_event({"type": "BOOKMARK", "object": mark}, 0, None, False)
                mark_due = watch_window.next_bookmark(time.monotonic(), deadline, bookmark_every)
            if time.monotonic() >= deadline and not events:
                return self.end_chunks()

    def pod_log(self, route, query):
        ns, pod = route["ns"], route["name"]
        with STORE.cond:
            if ("pods", ns, pod) not in STORE.objects:
                raise self.not_found(route)
            try:  # container, previous (pod_logs.py)
                key = pod_logs.log_key(ns, STORE.objects[("pods", ns, pod)], query)
                pod_logs.require_previous(STORE.logs, key, pod)
            except pod_logs.LogRefused as refused:
                raise ApiFailure(400, "BadRequest", str(refused))
            waiting = STORE.container_waiting(ns, pod) if len(key) == 2 else None
            if waiting:
                raise ApiFailure(400, "BadRequest",
                                 f'container "{waiting[0]}" in pod "{pod}" is waiting to start: {waiting[1]}')
            drop_after = STORE.config["drop_log_after"]
            STORE.config["drop_log_after"] = None
            torn = STORE.config["torn"]
        since = parse_stamp(query["sinceTime"]) if query.get("sinceTime") else None
        follow = query.get("follow") in ("1", "true") and len(key) != 4  # a previous instance has ended
        with STORE.cond:  # how many log streams a client keeps open at once
            STORE.log_streams += 1
            STORE.stats["most_log_streams"] = max(STORE.stats.get("most_log_streams", 0), STORE.log_streams)
        try:
            return self.send_log(ns, pod, key, since, follow, query, drop_after, torn)
        finally:
            with STORE.cond:
                STORE.log_streams -= 1

    def send_log(self, ns, pod, key, since, follow, query, drop_after, torn):
        stamps = query.get("timestamps") in ("1", "true")
        limit = pod_logs.ByteLimit(query)
        self.start_chunks("text/plain")
        sent = 0
        with STORE.cond:
            lines = STORE.logs.get(key, [])
            fresh, position = pod_logs.first_lines(lines, query), len(lines)
        while True:
            for nanos, stamp, text in fresh:
                if since is not None and nanos < since:
                    continue
                line = limit.take((f"{stamp} {text}" if stamps else text) + "\n")
                if line and not self.send_or_cut(line, sent, drop_after, torn):
                    return
                sent += 1
                if limit.spent():
                    return self.end_chunks()
            with STORE.cond:
                lines = STORE.logs.get(key, [])
                while follow and position >= len(lines) and not STORE.container_finished(ns, pod):
                    STORE.cond.wait(0.5)
                    lines = STORE.logs.get(key, [])
                fresh, position = lines[position:], len(lines)
                finished = STORE.container_finished(ns, pod)
            if not follow or (finished and not fresh):
                return self.end_chunks()

    # --- writes --------------------------------------------------------------------------------
    def parse_body(self, content_type):
        raw = self.body()
        try:
            if "yaml" in content_type and yaml is not None:
                obj = yaml.safe_load(raw)
            else:
                obj = json.loads(raw)
        except Exception as error:  # the real server answers 400 for any undecodable body
            raise ApiFailure(400, "BadRequest", f"the body of the request could not be decoded: {error}")
        if not isinstance(obj, dict):
            raise ApiFailure(400, "BadRequest", "the body of the request must be an object")
        return obj

    def validate(self, route, obj):
        if obj.get("kind") != route["kind"] or obj.get("apiVersion") != route["apiVersion"]:
            raise ApiFailure(400, "BadRequest",
                             f'the object is a {obj.get("apiVersion")} {obj.get("kind")}, but the URL is for '
                             f'{route["apiVersion"]} {route["kind"]}')
        name = obj["metadata"].get("name", "")
        causes = []
        if not DNS_SUBDOMAIN.match(name) or len(name) > 253:
            causes.append({"reason": "FieldValueInvalid", "field": "metadata.name",
                           "message": f'Invalid value: "{name}": a lowercase RFC 1123 subdomain must consist of '
                                      "lower case alphanumeric characters, '-' or '.'"})
        if route["kind"] == "Job":
            pod_spec = ((obj.get("spec") or {}).get("template") or {}).get("spec") or {}
            if not pod_spec.get("containers"):
                causes.append({"reason": "FieldValueRequired", "field": "spec.template.spec.containers",
                               "message": "Required value"})
            for i, container in enumerate(pod_spec.get("containers") or []):
                if not container.get("image"):
                    causes.append({"reason": "FieldValueRequired",
                                   "field": f"spec.template.spec.containers[{i}].image",
                                   "message": "Required value"})
            policy = pod_spec.get("restartPolicy")
            if policy not in ("Never", "OnFailure"):
                causes.append({"reason": "FieldValueNotSupported", "field": "spec.template.spec.restartPolicy",
                               "message": f'Unsupported value: "{policy}": supported values: "OnFailure", "Never"'})
        if causes:
            raise invalid(route, name, causes)

    def require_namespace(self, ns):
        if ns and ("namespaces", "", ns) not in STORE.objects:
            raise ApiFailure(404, "NotFound", f'namespaces "{ns}" not found', {"name": ns, "kind": "namespaces"})

    def create(self, route, query):
        obj = self.parse_body(self.headers.get("Content-Type", ""))
        meta = obj.setdefault("metadata", {})
        if route["ns"] and meta.get("namespace", route["ns"]) != route["ns"]:
            raise ApiFailure(400, "BadRequest", "the namespace of the object does not match the URL")
        with STORE.cond:
            if not meta.get("name") and meta.get("generateName"):
                meta["name"] = meta["generateName"] + "".join(
                    random.choice(string.ascii_lowercase + string.digits) for _ in range(5))
            self.validate(route, obj)
            key = (route["plural"], route["ns"], meta["name"])
            if key in STORE.objects:
                raise ApiFailure(409, "AlreadyExists", f'{route["plural"]} "{meta["name"]}" already exists',
                                 {"name": meta["name"], "kind": route["plural"]})
            self.require_namespace(route["ns"])
            meta.update({"uid": str(uuid.uuid4()), "creationTimestamp": now_rfc3339()})
            manager = query.get("fieldManager") or self.headers.get("User-Agent", "unknown").split("/")[0]
            managers = record_creation(route, obj, manager)
            if query.get("dryRun") == "All":
                return self.send_json(201, obj)
            STORE.owners[key] = managers
            STORE.put(route["plural"], route["ns"], obj)
            self.created(route, obj)
            self.send_json(201, STORE.objects[key])

    def apply(self, route, query):
        content_type = self.headers.get("Content-Type", "")
        if content_type != "application/apply-patch+yaml":
            raise ApiFailure(415, "UnsupportedMediaType", f"the content type {content_type} is not supported here")
        manager = query.get("fieldManager", "")
        if not manager:
            raise ApiFailure(400, "BadRequest", "fieldManager is required for apply requests")
        force = query.get("force") == "true"
        applied = self.parse_body(content_type)
        meta = applied.setdefault("metadata", {})
        if "managedFields" in meta:
            raise ApiFailure(400, "BadRequest", "metadata.managedFields must be nil")
        if meta.get("name") != route["name"] or (route["ns"] and meta.get("namespace", route["ns"]) != route["ns"]):
            raise ApiFailure(400, "BadRequest", "the name or namespace of the object does not match the URL")
        self.validate(route, applied)
        with STORE.cond:
            key = (route["plural"], route["ns"], route["name"])
            current = copy.deepcopy(STORE.objects.get(key))
            created = current is None
            if created:
                self.require_namespace(route["ns"])
            managers = copy.deepcopy(STORE.owners.get(key)) or server_side_apply.Managers()
            result = apply_configuration(route, current, applied, managers, manager, force)
            if query.get("dryRun") == "All":
                return self.send_json(201 if created else 200, result)
            STORE.owners[key] = managers
            STORE.put(route["plural"], route["ns"], result)
            if created:
                self.created(route, result)
            elif route["plural"] in kueue_model.RESOURCES:
                STORE.kueue.admit()
            self.send_json(201 if created else 200, STORE.objects[key])

    @staticmethod
    def created(route, obj):
        """What controllers do with a new object: the Job controller starts a Job, Kueue looks at
        its queues again."""
        if route["kind"] == "Job":
            STORE.job_created(route["ns"], obj)
        elif route["plural"] in kueue_model.RESOURCES:
            STORE.kueue.admit()

    def delete_object(self, route, query):
        policy = query.get("propagationPolicy", "Orphan" if route["kind"] == "Job" else "Background")
        if policy not in ("Orphan", "Background", "Foreground"):
            raise ApiFailure(400, "BadRequest", f'propagationPolicy "{policy}" is not one of Orphan, Background, '
                                                'Foreground')
        with STORE.cond:
            key = (route["plural"], route["ns"], route["name"])
            if key not in STORE.objects:
                raise self.not_found(route)
            if query.get("dryRun") == "All":
                return self.send_json(200, STORE.objects[key])
            removed = STORE.delete(*key)
            if route["kind"] == "Job":
                STORE.kueue.job_deleted(route["ns"], route["name"])
                for pod in STORE.job_pods(route["ns"], route["name"]):
                    if policy == "Orphan":
                        orphan = copy.deepcopy(pod)
                        orphan["metadata"].pop("ownerReferences", None)
                        STORE.put("pods", route["ns"], orphan)
                    else:
                        STORE.delete("pods", route["ns"], pod["metadata"]["name"])
            if route["kind"] in ("Service", "ServiceAccount"):  # ReturnDeletedObject in their registries
                return self.send_json(200, removed)
            self.send_json(200, {"kind": "Status", "apiVersion": "v1", "status": "Success",
                                 "details": {"name": route["name"], "kind": route["plural"],
                                             "uid": removed["metadata"]["uid"]}})

    # --- the test's controls -------------------------------------------------------------------
    def control(self, action):
        request = json.loads(self.body() or b"{}") if self.command == "POST" else {}
        with STORE.cond:
            reply = self.control_locked(action, request)
            STORE.cond.notify_all()
        self.send_json(200, reply)

    def control_locked(self, action, request):
        if action == "config":
            STORE.config.update(request)
        elif action == "job":
            STORE.advance_job(request["namespace"], request["name"], request["phase"],
                              request.get("reason", "BackoffLimitExceeded"),
                              request.get("message", "Job has reached the specified backoff limit"),
                              request.get("exit_code", 1), request.get("pod_failure"),
                              set(request["pods"]) if "pods" in request else None)
        elif action == "log":
            ns = request["namespace"]
            pods = [request["pod"]] if "pod" in request else [
                p["metadata"]["name"] for p in STORE.job_pods(ns, request["job"])]
            for pod in pods:
                key = pod_logs.log_key(ns, STORE.objects[("pods", ns, pod)], request)
                for text in request["lines"]:
                    nanos = parse_stamp(request["timestamp"]) if "timestamp" in request else time.time_ns()
                    STORE.logs.setdefault(key, []).append((nanos, nano_stamp(nanos), text))
        elif action == "restart":
            pod_logs.restart_container(STORE, request["namespace"], request["pod"], request.get("exit_code", 1))
        elif action == "compact":  # etcd's compaction now: open watches go on, older versions are gone
            watch_window.compact(STORE, STORE.rv)
        elif action == "suspend_watches":
            STORE.watches_suspended = True
        elif action in ("expire", "drop_watches"):
            if action == "expire":
                watch_window.compact(STORE, STORE.rv + 1)
            STORE.watch_end_mode = "expire" if action == "expire" else "drop"
            STORE.watch_generation += 1
            STORE.watches_suspended = False
        elif action == "kueue":
            if request and request.get("provision"):
                STORE.kueue.provision()
            elif request:
                STORE.kueue.configure(request)
            return STORE.kueue.report()
        elif action == "reset_stats":
            STORE.stats = {}
            STORE.requests = {}
            CONNECTIONS.reset()
        elif action == "contract":
            seen = list(CONTRACT.violations)
            if request.get("clear"):
                CONTRACT.violations.clear()
            return {"violations": seen, "kubernetesVersion": CONTRACT.version}
        elif action != "stats":
            return {"error": f"unknown control {action}"}
        return {"stats": STORE.stats, "requests": STORE.requests, "resourceVersion": STORE.rv,
                "max_active_pods": STORE.max_active_pods, "connections": CONNECTIONS.report()}


def schemas():
    """The served release's schemas, which decide how apply merges lists (server_side_apply.py)."""
    global SCHEMAS
    if SCHEMAS is None:
        SCHEMAS = server_side_apply.Schemas(CONTRACT.definitions["$defs"])
    return SCHEMAS


def invalid(route, name, causes):
    kind_name = f'{route["kind"]}.{route["apiVersion"].split("/")[0]}' if "/" in route["apiVersion"] \
        else route["kind"]
    summary = "; ".join(f'{c["field"]}: {c["message"]}' for c in causes)
    return ApiFailure(422, "Invalid", f'{kind_name} "{name}" is invalid: {summary}',
                      {"name": name, "kind": route["kind"], "causes": causes})


def apply_configuration(route, current, applied, managers, manager, force):
    """Server-side apply (server_side_apply.py), then the API server's defaults and its update
    validation (api_defaults.py): the object to store, with its managedFields."""
    try:
        result = server_side_apply.apply(current, applied, managers, manager, force, route["apiVersion"],
                                         now_rfc3339(), schemas())
        if current is None:
            result["metadata"]["uid"] = str(uuid.uuid4())
            api_defaults.prepare_create(result)
        else:
            api_defaults.check_update(current, api_defaults.default_object(result))
    except server_side_apply.ApplyConflict as conflict:
        raise ApiFailure(409, "Conflict", str(conflict), {
            "name": route["name"], "kind": route["plural"],
            "causes": [{"reason": "FieldManagerConflict", "field": path, "message": f"conflict with {owner}"}
                       for owner, path in conflict.conflicts]})
    except api_defaults.Invalid as refused:
        raise invalid(route, route["name"], refused.causes)
    check_secret(route, result, current)
    result["metadata"]["managedFields"] = managers.managed_fields()
    return result


def check_secret(route, obj, current):
    """A Secret's data, stringData, keys and type as the API server checks them (secret_objects.py)."""
    if route["kind"] != "Secret":
        return
    try:
        causes = secret_objects.prepare(obj, current)
    except secret_objects.BadRequest as error:
        raise ApiFailure(400, "BadRequest", str(error))
    if causes:
        raise invalid(route, obj["metadata"].get("name", ""), causes)


def record_creation(route, obj, manager):
    """A create's defaults, and its manager owning what it set (managedFields, operation Update)."""
    check_secret(route, obj, None)
    managers = server_side_apply.record_create(obj, manager, route["apiVersion"], now_rfc3339(), schemas())
    api_defaults.prepare_create(obj)
    obj["metadata"]["managedFields"] = managers.managed_fields()
    return managers


def make_certificates(directory):
    """A test CA, a server certificate for 127.0.0.1/localhost/kube.test, a client certificate."""
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, cwd=directory, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
            "-days", "2", "-subj", "/CN=gkebuild test CA")
    for name, subject, extension in (
            ("server", "/CN=kube-test-server", "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kube.test"),
            ("client", "/CN=gkebuild-tester/O=system:masters", "extendedKeyUsage=clientAuth")):
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
                "-subj", subject)
        with open(os.path.join(directory, f"{name}.ext"), "w") as out:
            out.write(extension + "\n")
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", f"{name}.crt", "-days", "2", "-extfile", f"{name}.ext")


class H2Handler(Handler):
    """One HTTP/2 stream: the request as Handler reads it, answered through the stream."""

    def __init__(self, connection, stream, method, path, headers, body):  # no socket of its own
        self.server, self.request = connection.server, connection.request
        self.connection_record = connection.connection_record
        self.stream, self.command, self.path, self._h2_body = stream, method, path, body
        self.headers = http.client.HTTPMessage()
        for name, value in headers:
            self.headers[name] = value

    def respond(self, code, headers, data):
        self.stream.send_headers(code, list(headers) + [("content-length", len(data))], end_stream=not data)
        if data:
            self.stream.send_data(data, end_stream=True)

    def begin_stream(self, content_type):
        self.stream.send_headers(200, [("content-type", content_type)])

    def chunk(self, data):
        self.stream.send_data(data.encode() if isinstance(data, str) else data)

    def end_chunks(self):
        self.stream.end()

    def cut(self):
        """Resets the stream: the client sees a dropped stream, its other streams go on."""
        self.stream.reset()

    def read_body(self):
        return self._h2_body


class Server(ThreadingHTTPServer):
    daemon_threads = True
    ssl_context = None

    def handle_error(self, request, client_address):  # failed handshakes are part of the tests
        if os.environ.get("GKEBUILD_TEST_SERVER_TRACEBACKS"):  # a handler's own failure, when debugging
            import traceback
            traceback.print_exc()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--plain", action="store_true", help="serve HTTP instead of HTTPS")
    parser.add_argument("--kubernetes-version", default="1.33.0", help="the schemas responses are held to")
    args = parser.parse_args()
    global CONTRACT
    CONTRACT = Contract(args.kubernetes_version)
    # Benchmarks measure the client, not the server: they may turn the (slow) checks off.
    CONTRACT.enabled = os.environ.get("GKEBUILD_TEST_SERVER_CONTRACT", "1") != "0"
    server = Server(("127.0.0.1", 0), Handler)
    if not args.plain:
        if not os.path.exists(os.path.join(args.dir, "client.key")):  # reused when already made
            make_certificates(args.dir)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.path.join(args.dir, "server.crt"), os.path.join(args.dir, "server.key"))
        context.load_verify_locations(os.path.join(args.dir, "ca.crt"))
        context.verify_mode = ssl.CERT_OPTIONAL
        # HTTP/2 as a real API server offers it, unless python3-h2 is missing or a benchmark
        # compares the protocols (GKEBUILD_TEST_SERVER_H2=0).
        if h2_front.AVAILABLE and os.environ.get("GKEBUILD_TEST_SERVER_H2", "1") != "0":
            context.set_alpn_protocols(["h2", "http/1.1"])
        server.ssl_context = context
    with STORE.cond:
        watch_window.keep_compacting(STORE)
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
