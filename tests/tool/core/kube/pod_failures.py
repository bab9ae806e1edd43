"""How the kubelet and the scheduler end a pod that did not fail by itself, for the test server:
the container's exit code and reason, the pod's reason and message, and the DisruptionTarget
condition that a Job's podFailurePolicy can match (kubernetes pkg/kubelet/eviction,
pkg/kubelet/nodeshutdown, pkg/scheduler/framework/preemption).

  OOMKilled              the container passed its memory limit: exit 137, reason OOMKilled
  Evicted                node pressure: the kubelet evicts the pod (TerminationByKubelet)
  Preempted              a spot/preemptible node shuts down: graceful node shutdown ends the pod
                         (reason Terminated, TerminationByKubelet)
  PreemptionByScheduler  the scheduler preempts the pod for one of higher priority
"""

EVICTION = "The node was low on resource: memory. Threshold quantity: 100Mi, available: 52Mi."
SHUTDOWN = "Pod was terminated in response to imminent node shutdown."
PREEMPTION = "default-scheduler: preempting to accommodate a higher priority pod"

# name -> (exit code, container reason, pod reason, pod message, DisruptionTarget reason, its message)
FAILURES = {
    "OOMKilled": (137, "OOMKilled", None, None, None, None),
    "Evicted": (137, "ContainerStatusUnknown", "Evicted", EVICTION, "TerminationByKubelet", EVICTION),
    "Preempted": (143, "Error", "Terminated", SHUTDOWN, "TerminationByKubelet", SHUTDOWN),
    "PreemptionByScheduler": (143, "Error", None, None, "PreemptionByScheduler", PREEMPTION),
}


def end_pod(pod, pod_failure, exit_code):
    """Marks `pod` (status phase already Failed) as `pod_failure` ends it; returns the container's
    (exit code, reason). None: the container exited with `exit_code` by itself."""
    if pod_failure not in FAILURES:
        return exit_code, "Completed" if exit_code == 0 else "Error"
    code, reason, pod_reason, pod_message, disruption, disruption_message = FAILURES[pod_failure]
    if pod_reason:
        pod["status"].update({"reason": pod_reason, "message": pod_message})
    if disruption:
        pod["status"]["conditions"].append({"type": "DisruptionTarget", "status": "True", "reason": disruption,
                                            "message": disruption_message})
    return code, reason
