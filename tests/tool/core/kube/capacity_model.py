"""GPUs that are not there, for the test server: a MODEL of what the scheduler and GKE's
cluster-autoscaler show for a pod whose node pool cannot grow. Pods selecting a node label value
named in config auto.capacity stay Pending (PodScheduled False, Unschedulable) for ever; their
events say why, with the reasons and message shapes the autoscaler uses:

  stockout  the scale-up was tried and GCE had no VMs: Warning FailedScaleUp "Node scale up in
            zones <zone> associated with this pod failed: GCE out of resources. Pod is at risk of
            not being scheduled." (GKE's message, as users quote it)
  backoff   the pool is in backoff after an earlier failed scale-up: Normal NotTriggerScaleUp
            "pod didn't trigger scale-up: 1 in backoff after failed scale-up" (the upstream
            cluster-autoscaler's shape; quoted in 2i2c-org/infrastructure#2185, cortexlabs/cortex#1685)
  never     no scale-up event at all (a fixed pool, no autoscaler): only FailedScheduling

What the real autoscaler also does and this does not: retry after its backoff, emit the events
again every few minutes, name node groups in TriggeredScaleUp first.
"""

SCHEDULING = "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector."
STOCKOUT = ("Node scale up in zones us-central1-a associated with this pod failed: GCE out of resources. "
            "Pod is at risk of not being scheduled.")
BACKOFF = "pod didn't trigger scale-up: 1 in backoff after failed scale-up"


def refusal(capacity, job):
    """The capacity entry that keeps `job`'s pods from scheduling, or None."""
    selector = (((job.get("spec") or {}).get("template") or {}).get("spec") or {}).get("nodeSelector") or {}
    for value in selector.values():
        if value in capacity:
            return capacity[value]
    return None


def explain(store, ns, pods, kind):
    """Records the events that say why `pods` wait; they stay Pending."""
    for pod in pods:
        if ("pods", ns, pod) not in store.objects:
            continue  # deleted meanwhile (its Job was)
        store.record_event(ns, pod, "Pod", "FailedScheduling", SCHEDULING, "Warning", component="default-scheduler")
        if kind == "stockout":
            store.record_event(ns, pod, "Pod", "FailedScaleUp", STOCKOUT, "Warning", component="cluster-autoscaler")
        elif kind == "backoff":
            store.record_event(ns, pod, "Pod", "NotTriggerScaleUp", BACKOFF, component="cluster-autoscaler")
