"""Pod log options as the API server and the kubelet honour them, for the test server.

Logs are kept per container instance: STORE.logs[(ns, pod)] is the first container's current log
(what a request without `container` reads when the pod has one container), (ns, pod, name) another
container's, and (ns, pod, name, "previous") the log of a container's instance before its last
restart (`previous=true`). Each line is (nanoseconds, RFC 3339 stamp, text).

Options (PodLogOptions): container (required when the pod has more than one), previous,
tailLines (the last N lines, then follow), sinceSeconds and sinceTime (lines at or after),
limitBytes (the stream ends after that many bytes, mid-line if so), timestamps, follow.
Refusals are the API server's 400s with its messages.
"""

import copy
import time


class LogRefused(Exception):
    pass


def container_names(pod):
    return [c.get("name", "") for c in (pod.get("spec") or {}).get("containers") or []]


def log_key(ns, pod, query):
    """The key of the log a request reads, or LogRefused."""
    names = container_names(pod)
    name = pod["metadata"]["name"]
    container = query.get("container") or ""
    if not container:
        if len(names) > 1:
            raise LogRefused(f"a container name must be specified for pod {name}, choose one of: [{' '.join(names)}]")
        container = names[0] if names else ""
    elif container not in names:
        raise LogRefused(f"container {container} is not valid for pod {name}")
    current = (ns, name) if container == (names or [""])[0] else (ns, name, container)
    if query.get("previous") in ("1", "true"):
        return (ns, name, container, "previous")
    return current


def require_previous(logs, key, pod_name):
    if len(key) == 4 and key not in logs:
        raise LogRefused(f'previous terminated container "{key[2]}" in pod "{pod_name}" not found')


def first_lines(lines, query):
    """The lines a request starts with: since a time, then the last tailLines of those."""
    since = None
    if query.get("sinceSeconds"):
        since = time.time_ns() - int(query["sinceSeconds"]) * 1_000_000_000
    selected = [line for line in lines if since is None or line[0] >= since]
    tail = query.get("tailLines")
    if tail not in (None, ""):
        selected = selected[len(selected) - int(tail):] if int(tail) > 0 else []
    return selected


class ByteLimit:
    """limitBytes: how much of a line may still go out (None: no limit)."""

    def __init__(self, query):
        self.left = int(query["limitBytes"]) if query.get("limitBytes") else None

    def take(self, text):
        if self.left is None:
            return text
        data = text.encode()[: self.left]
        self.left -= len(data)
        return data.decode(errors="ignore")

    def spent(self):
        return self.left is not None and self.left <= 0


def restart_container(store, ns, pod_name, exit_code):
    """The kubelet restarts the pod's first container (restartPolicy OnFailure): its log becomes
    the previous instance's, restartCount goes up, lastState says how the old one ended."""
    pod = copy.deepcopy(store.objects[("pods", ns, pod_name)])
    status = pod["status"]["containerStatuses"][0]
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    store.logs[(ns, pod_name, status["name"], "previous")] = store.logs.get((ns, pod_name), [])
    store.logs[(ns, pod_name)] = []
    status["restartCount"] = status.get("restartCount", 0) + 1
    status["lastState"] = {"terminated": {"exitCode": exit_code, "reason": "Error", "finishedAt": stamp}}
    status["state"] = {"running": {"startedAt": stamp}}
    pod["status"]["phase"] = "Running"
    store.put("pods", ns, pod)
