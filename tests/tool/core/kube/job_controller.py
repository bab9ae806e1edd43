"""The Job controller's decisions, for the test server (kubernetes pkg/controller/job, batch/v1 API).

After every change to a Job's pods, sync() reads the pods and decides as the real controller does:
- a failed pod is matched against spec.podFailurePolicy (rules in order; onExitCodes In/NotIn on
  a container's non-zero exit code, onPodConditions such as DisruptionTarget): Ignore (not counted,
  the pod is replaced), FailJob (the Job fails at once, reason PodFailurePolicy), FailIndex, Count;
  no policy or no match counts;
- counted failures beyond spec.backoffLimit fail the Job (BackoffLimitExceeded); below it the pod
  is replaced; with backoffLimitPerIndex an Indexed Job's index fails on its own (failedIndexes),
  and the Job fails at the end (FailedIndexes) or when maxFailedIndexes is passed;
- `parallelism` pods at most are active: a new one starts as soon as one finishes and
  completions are left (NonIndexed: completions - succeeded; Indexed: the indexes neither
  completed nor active, lowest first);
- the Job is complete when `completions` pods succeeded (Indexed: every index,
  status.completedIndexes "0-2,5");
- spec.activeDeadlineSeconds after startTime the Job fails (DeadlineExceeded) and its active pods
  are deleted, as they are on any failure;
- spec.ttlSecondsAfterFinished after it finished the Job is deleted with its pods.
Events as the controller records them: SuccessfulCreate, SuccessfulDelete, Completed, and the
failure's reason (BackoffLimitExceeded, DeadlineExceeded, ...). Conditions are those of Kubernetes 1.31+: FailureTarget then Failed, SuccessCriteriaMet then
Complete. Not modelled: pod backoff delays (a replacement starts at once), podReplacementPolicy
(a pod is replaced only once it has failed), successPolicy, elastic Indexed Jobs, the
Terminating count, suspending a running Job. Under restartPolicy OnFailure a container's
restarts count towards backoffLimit (the kubelet restarts it, the pod stays).
"""

import copy
import time
from datetime import datetime, timezone

INDEX = "batch.kubernetes.io/job-completion-index"
FINISHED = ("Succeeded", "Failed")


def now_rfc3339():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def index_ranges(indexes):
    """{0,1,2,5} -> "0-2,5", as status.completedIndexes and failedIndexes are written."""
    ranges, ordered = [], sorted(indexes)
    for index in ordered:
        if ranges and ranges[-1][1] == index - 1:
            ranges[-1][1] = index
        else:
            ranges.append([index, index])
    return ",".join(str(a) if a == b else f"{a}-{b}" if b > a + 1 else f"{a},{b}" for a, b in ranges)


def condition(kind, reason="", message=""):
    stamp = now_rfc3339()
    found = {"type": kind, "status": "True", "lastProbeTime": stamp, "lastTransitionTime": stamp}
    if reason:
        found.update({"reason": reason, "message": message})
    return found


def exit_code_matches(requirement, code):
    listed = code in (requirement.get("values") or [])
    return listed if requirement.get("operator") == "In" else not listed


def matching_rule(job, pod):
    """(action, message for FailJob) of the first podFailurePolicy rule matching a failed pod, or
    ("Count", None) when none does."""
    rules = ((job["spec"].get("podFailurePolicy") or {}).get("rules")) or []
    namespace, name = pod["metadata"].get("namespace", ""), pod["metadata"]["name"]
    for position, rule in enumerate(rules):
        action = rule.get("action")
        on_codes = rule.get("onExitCodes")
        if on_codes:
            for status in pod["status"].get("containerStatuses") or []:
                terminated = (status.get("state") or {}).get("terminated") or {}
                code = terminated.get("exitCode")
                if code in (None, 0) or on_codes.get("containerName", status["name"]) != status["name"]:
                    continue
                if exit_code_matches(on_codes, code):
                    return action, (f'Container {status["name"]} for pod {namespace}/{name} failed with exit code '
                                    f'{code} matching {action} rule at index {position}')
            continue
        for pattern in rule.get("onPodConditions") or []:
            for found in pod["status"].get("conditions") or []:
                if found.get("type") == pattern.get("type") and found.get("status") == pattern.get("status", "True"):
                    return action, (f'Pod {namespace}/{name} has condition {found["type"]} matching {action} '
                                    f'rule at index {position}')
    return "Count", None


def as_served(status):
    """The status as the API server serialises it: active, succeeded and failed are omitted when
    zero (omitempty), ready and terminating are not (pointers), uncountedTerminatedPods is {}."""
    for name in ("active", "succeeded", "failed"):
        if not status.get(name):
            status.pop(name, None)
    status.setdefault("ready", 0)
    status.setdefault("terminating", 0)
    status.setdefault("uncountedTerminatedPods", {})
    return status


def pod_index(pod):
    return int((pod["metadata"].get("annotations") or {}).get(INDEX, "0"))


class JobController:
    def __init__(self, store):
        self.store = store

    def job(self, ns, name):
        return self.store.objects.get(("jobs", ns, name))

    @staticmethod
    def finished(job):
        return any(c.get("type") in ("Complete", "Failed") and c.get("status") == "True"
                   for c in (job.get("status") or {}).get("conditions") or [])

    def start(self, ns, job):
        """A Job that runs (created unsuspended, or admitted): startTime, its deadline, first pods."""
        job["status"] = {"active": 0, "ready": 0, "startTime": now_rfc3339()}
        deadline = job["spec"].get("activeDeadlineSeconds")
        if deadline is not None:
            uid = job["metadata"]["uid"]
            self.store.schedule(time.monotonic() + deadline, lambda: self.deadline_passed(ns, job["metadata"]["name"], uid))
        self.sync(ns, job["metadata"]["name"], job)

    def deadline_passed(self, ns, name, uid):
        job = self.job(ns, name)
        if job is not None and job["metadata"]["uid"] == uid and not self.finished(job):
            self.fail(ns, copy.deepcopy(job), "DeadlineExceeded", "Job was active longer than specified deadline")

    def sync(self, ns, name, job=None):
        """Reads the Job's pods and acts: replaces, starts, completes or fails; then writes the
        Job's status once (`job`: the Job as it is to be stored, else the stored one)."""
        job = job or self.job(ns, name)
        if job is None or self.finished(job) or job["spec"].get("suspend") or "startTime" not in (job.get("status") or {}):
            return
        job = copy.deepcopy(job)
        spec, pods = job["spec"], self.store.job_pods(ns, name)
        indexed = spec.get("completionMode") == "Indexed"
        active = [p for p in pods if p["status"].get("phase") not in FINISHED]
        succeeded = [p for p in pods if p["status"].get("phase") == "Succeeded"]
        counted, failed_index_counts, fail_job, failed_indexes = 0, {}, None, set()
        for pod in (p for p in pods if p["status"].get("phase") == "Failed"):
            action, message = matching_rule(job, pod)
            if action == "FailJob" and fail_job is None:
                fail_job = message
            if action == "Ignore":
                continue
            counted += 1
            index = pod_index(pod)
            failed_index_counts[index] = failed_index_counts.get(index, 0) + 1
            if action == "FailIndex" or failed_index_counts[index] > spec.get("backoffLimitPerIndex", 1 << 31):
                failed_indexes.add(index)
        # Under restartPolicy OnFailure the kubelet restarts containers in place: each restart
        # counts towards backoffLimit as a failed pod would.
        restarts = sum(c.get("restartCount", 0) for p in active for c in p["status"].get("containerStatuses") or [])
        completed = {pod_index(p) for p in succeeded} if indexed else set()
        status = job["status"]
        status.update({"active": len(active), "succeeded": len(succeeded), "failed": counted,
                       "ready": sum(1 for p in active if p["status"].get("phase") == "Running")})
        if indexed:
            status["completedIndexes"] = index_ranges(completed)
            if "backoffLimitPerIndex" in spec:
                status["failedIndexes"] = index_ranges(failed_indexes)
        completions = spec.get("completions")
        if fail_job is not None:
            return self.fail(ns, job, "PodFailurePolicy", fail_job)
        if "backoffLimitPerIndex" not in spec and counted + restarts > spec.get("backoffLimit", 6):
            return self.fail(ns, job, "BackoffLimitExceeded", "Job has reached the specified backoff limit")
        if len(failed_indexes) > spec.get("maxFailedIndexes", 1 << 31):
            return self.fail(ns, job, "MaxFailedIndexesExceeded", "Job has exceeded the specified maximal number "
                                                                  "of failed indexes")
        if indexed:
            left = [i for i in range(completions or 0) if i not in completed and i not in failed_indexes]
            if not left and not active:
                return self.fail(ns, job, "FailedIndexes", "Job has failed indexes") if failed_indexes \
                    else self.complete(ns, job)
            busy = {pod_index(p) for p in active}
            wanted = [i for i in left if i not in busy][:max(0, spec.get("parallelism", 1) - len(active))]
        else:
            done = len(succeeded) >= completions if completions is not None else (succeeded and not active)
            if done:
                return self.complete(ns, job)
            remaining = (completions - len(succeeded)) if completions is not None else \
                (0 if succeeded else spec.get("parallelism", 1))
            wanted = list(range(max(0, min(spec.get("parallelism", 1), remaining) - len(active))))
        if wanted:  # the pods first, then the status that counts them, as the controller does
            for pod_name in self.store.start_pods(ns, job, wanted):
                self.event(ns, name, "SuccessfulCreate", f"Created pod: {pod_name}")
            status["active"] += len(wanted)
        as_served(status)
        self.store.put("jobs", ns, job)

    def event(self, ns, job_name, reason, message, event_type="Normal"):
        self.store.record_event(ns, job_name, "Job", reason, message, event_type, component="job-controller")

    def complete(self, ns, job):
        job["status"].update({"completionTime": now_rfc3339(), "active": 0, "ready": 0,
                              "conditions": [condition("SuccessCriteriaMet", "CompletionsReached",
                                                       "Reached expected number of succeeded pods"),
                                             condition("Complete", "CompletionsReached",
                                                       "Reached expected number of succeeded pods")]})
        self.finish(ns, job, succeeded=True)

    def fail(self, ns, job, reason, message):
        """The Job fails: its active pods are deleted, as the controller deletes them."""
        for pod in self.store.job_pods(ns, job["metadata"]["name"]):
            if pod["status"].get("phase") not in FINISHED:
                self.store.delete("pods", ns, pod["metadata"]["name"])
                self.event(ns, job["metadata"]["name"], "SuccessfulDelete", f'Deleted pod: {pod["metadata"]["name"]}')
        job["status"].update({"active": 0, "ready": 0,
                              "conditions": [condition("FailureTarget", reason, message),
                                             condition("Failed", reason, message)]})
        self.finish(ns, job, succeeded=False)

    def finish(self, ns, job, succeeded):
        name = job["metadata"]["name"]
        as_served(job["status"])
        self.store.put("jobs", ns, job)
        ended = job["status"]["conditions"][-1]
        if succeeded:
            self.event(ns, name, "Completed", "Job completed")
        else:
            self.event(ns, name, ended["reason"], ended["message"], "Warning")
        self.store.kueue.job_finished(ns, name, succeeded)
        ttl = job["spec"].get("ttlSecondsAfterFinished")
        if ttl is not None:
            uid = job["metadata"]["uid"]
            self.store.schedule(time.monotonic() + ttl, lambda: self.expire(ns, name, uid))

    def expire(self, ns, name, uid):
        """ttlSecondsAfterFinished passed: the TTL controller deletes the Job, its pods go with it."""
        job = self.job(ns, name)
        if job is None or job["metadata"]["uid"] != uid:
            return
        self.store.delete("jobs", ns, name)
        self.store.kueue.job_deleted(ns, name)
        for pod in self.store.job_pods(ns, name):
            self.store.delete("pods", ns, pod["metadata"]["name"])
