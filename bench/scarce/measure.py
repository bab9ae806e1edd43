#!/usr/bin/env python3
"""Issue 41's measures, against the Kubernetes test server (a MODEL, tests/tool/core/kube/): no real cluster.

1. Gang restart: a 2-node point whose rank 1 is preempted while both run. Polling the pods every
   5 ms, the time from rank 1 seen Failed to both ranks of the recreated Job seen Running. The
   model's own part is fixed: a new pod is pulling after one step and running after two, so
   gkebuild's part (notice the failure, delete, create) is the total less 2 steps.
2. A managed run: the API requests its controller makes (read from the server's counters), per
   point, for a sweep of POINTS single-node points that all succeed, and for one 2-node point with
   a gang restart.

Usage: bench/scarce/measure.py GKEBUILD [POINTS]   (python3 with PyYAML; kubernetes-validate as the
test server needs it). Prints one line per measure.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "..", "..", "tests", "tool", "core", "kube", "kube_test_server.py")
STEP = 0.5

PROJECT = """apiVersion: gkebuild/v1
project: scarce
registry: registry.test/scarce
cluster: {namespace: scarce}
images: {train: {from: scratch, workload: gpu-info}}
experiments:
  ddp: {image: train, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, spot: true, timeout: 10m}
  sweep:
    image: train
    accelerators: [nvidia-l4]
    args: ["--i", "{{ i }}"]
    sweep: {i: [%s]}
"""
PINNED = "registry.test/t@sha256:" + "0" * 64
RESULT = ('{"schema":"gkebuild.workload.v1","workload":"test","metric":"throughput","value":1.5,'
          '"unit":"TFLOP/s","extra":{}}')


class Server:
    def __init__(self, directory):
        self.process = subprocess.Popen([sys.executable, SERVER, "--dir", directory, "--plain"],
                                        stdout=subprocess.PIPE, text=True)
        self.port = int(self.process.stdout.readline().split()[1])
        self.base = f"http://127.0.0.1:{self.port}"

    def get(self, path):
        with urllib.request.urlopen(self.base + path) as answer:
            return json.load(answer)

    def control(self, action, body=None):
        request = urllib.request.Request(self.base + "/_control/" + action, json.dumps(body or {}).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)

    def stop(self):
        self.process.terminate()
        self.process.wait()


def kubeconfig(path, server):
    with open(path, "w") as out:
        out.write(f"""apiVersion: v1
kind: Config
clusters: [{{name: test, cluster: {{server: "{server.base}"}}}}]
users: [{{name: test, user: {{}}}}]
contexts: [{{name: test, context: {{cluster: test, user: test, namespace: scarce}}}}]
current-context: test
""")


def gang_restart(gkebuild, work, server, env):
    server.control("config", {"auto": {"step": STEP, "lines": ["rank $INDEX", RESULT],
                                       "fail": {"ddp-h100": {"rank": 1, "pod_failure": "Preempted"}}}})
    submit = subprocess.Popen([gkebuild, "submit", "ddp", "--image", "train=" + PINNED, "-q"], cwd=work, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failed_at = running_at = None
    while submit.poll() is None and running_at is None:
        pods = server.get("/api/v1/namespaces/scarce/pods")["items"]
        now = time.monotonic()
        if failed_at is None and any(p["status"].get("phase") == "Failed" for p in pods):
            failed_at = now
        if failed_at is not None:
            fresh = [p for p in pods if p["status"].get("phase") == "Running"]
            if len(fresh) == 2:
                running_at = now
        time.sleep(0.005)
    submit.wait()
    total = running_at - failed_at
    print(f"gang restart, model step {STEP} s: disruption seen -> both ranks running again {total:.3f} s; "
          f"gkebuild's part (less the model's 2 steps of pull and start) {total - 2 * STEP:.3f} s")


def managed(gkebuild, work, server, env, experiment, points):
    server.control("config", {"auto": {"step": 0.05, "lines": [RESULT],
                                       "fail": {"ddp-h100": {"rank": 1, "pod_failure": "Preempted"}}}})
    subprocess.run([gkebuild, "submit", experiment, "--image", "train=" + PINNED, "--managed",
                    "registry.test/c@sha256:" + "c" * 64, "-q"], cwd=work, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    runs = os.path.join(work, ".gkebuild", "runs")
    run_id = max(os.listdir(runs), key=lambda name: os.path.getmtime(os.path.join(runs, name)))
    server.control("reset_stats")
    subprocess.run([gkebuild, "controller", run_id, "--kubeconfig", env["KUBECONFIG"]], cwd=work, env=env,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    requests = server.control("stats")["requests"]
    total = sum(requests.values())
    detail = ", ".join(f"{k} {v}" for k, v in sorted(requests.items(), key=lambda kv: -kv[1])[:6])
    print(f"managed run, {experiment} ({points} point{'s' if points > 1 else ''}): the controller made {total} API "
          f"requests, {total / points:.1f} per point ({detail})")


def main():
    gkebuild = os.path.abspath(sys.argv[1])
    points = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    with tempfile.TemporaryDirectory() as work:
        server = Server(os.path.join(work, "server"))
        try:
            with open(os.path.join(work, "gkebuild.yaml"), "w") as out:
                out.write(PROJECT % ", ".join(str(i) for i in range(points)))
            env = dict(os.environ, KUBECONFIG=os.path.join(work, "kubeconfig"))
            kubeconfig(env["KUBECONFIG"], server)
            gang_restart(gkebuild, work, server, env)
            managed(gkebuild, work, server, env, "sweep", points)
            managed(gkebuild, work, server, env, "ddp", 1)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
