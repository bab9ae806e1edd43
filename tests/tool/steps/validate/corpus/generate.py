#!/usr/bin/env python3
"""Writes the validation corpus: valid manifests of many kinds and broken variants of
each (unknown fields, wrong types, missing required fields, bad enums, nulls), plus a
few files that are not valid YAML. Deterministic: rerun it and commit the output.

    python3 tests/tool/steps/validate/corpus/generate.py tests/tool/steps/validate/corpus

The corpus test runs kubernetes-validate --strict and gkebuild validate on every file
and requires the same schema verdict.
"""
import copy
import os
import sys

import yaml


def container(name="main", image="busybox:1.36", **extra):
    c = {"name": name, "image": image, "command": ["sh", "-c", "echo hello"]}
    c.update(extra)
    return c


def pod_spec(**extra):
    spec = {"restartPolicy": "Never", "containers": [container()]}
    spec.update(extra)
    return spec


def meta(name, **extra):
    m = {"name": name, "labels": {"app": name}}
    m.update(extra)
    return m


def template(name, **spec_extra):
    return {"metadata": {"labels": {"app": name}}, "spec": pod_spec(**spec_extra)}


def gpu_container():
    return container("train", "us-docker.pkg.dev/p/r/train:1", resources={
        "limits": {"nvidia.com/gpu": 1, "cpu": "4", "memory": "16Gi"},
        "requests": {"cpu": "4", "memory": "16Gi"}})


def base_objects():
    """(name, object) pairs, each valid against the Kubernetes 1.37 schemas."""
    objs = []
    objs.append(("pod", {"apiVersion": "v1", "kind": "Pod", "metadata": meta("pod"), "spec": pod_spec()}))
    objs.append(("gpu-pod", {"apiVersion": "v1", "kind": "Pod", "metadata": meta("gpu-pod"),
                             "spec": pod_spec(containers=[gpu_container()],
                                              nodeSelector={"cloud.google.com/gke-accelerator": "nvidia-l4"})}))
    objs.append(("job", {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta("job"),
                         "spec": {"backoffLimit": 2, "ttlSecondsAfterFinished": 600,
                                  "template": template("job")}}))
    objs.append(("gpu-job", {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta("gpu-job"),
                             "spec": {"backoffLimit": 0, "activeDeadlineSeconds": 3600,
                                      "template": template("gpu-job", containers=[gpu_container()],
                                                           tolerations=[{"key": "nvidia.com/gpu", "operator": "Exists",
                                                                         "effect": "NoSchedule"}])}}))
    objs.append(("cronjob", {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta("cronjob"),
                             "spec": {"schedule": "0 * * * *", "concurrencyPolicy": "Forbid",
                                      "jobTemplate": {"spec": {"template": template("cronjob")}}}}))
    objs.append(("deployment", {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta("deployment"),
                                "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "deployment"}},
                                         "template": template("deployment", restartPolicy="Always")}}))
    objs.append(("statefulset", {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": meta("statefulset"),
                                 "spec": {"serviceName": "db", "replicas": 1,
                                          "selector": {"matchLabels": {"app": "statefulset"}},
                                          "template": template("statefulset", restartPolicy="Always")}}))
    objs.append(("daemonset", {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": meta("daemonset"),
                               "spec": {"selector": {"matchLabels": {"app": "daemonset"}},
                                        "template": template("daemonset", restartPolicy="Always",
                                                             tolerations=[{"operator": "Exists"}])}}))
    objs.append(("service", {"apiVersion": "v1", "kind": "Service", "metadata": meta("service"),
                             "spec": {"selector": {"app": "deployment"}, "type": "ClusterIP",
                                      "ports": [{"port": 80, "targetPort": 8080, "protocol": "TCP"}]}}))
    objs.append(("configmap", {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("configmap"),
                               "data": {"config.yaml": "a: 1\n", "mode": "fast"}}))
    objs.append(("secret", {"apiVersion": "v1", "kind": "Secret", "metadata": meta("secret"), "type": "Opaque",
                            "stringData": {"token": "not-a-real-token"}}))
    objs.append(("namespace", {"apiVersion": "v1", "kind": "Namespace", "metadata": meta("ml")}))
    objs.append(("serviceaccount", {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta("trainer")}))
    objs.append(("role", {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": meta("role"),
                          "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list"]}]}))
    objs.append(("rolebinding", {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
                                 "metadata": meta("rolebinding"),
                                 "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "role"},
                                 "subjects": [{"kind": "ServiceAccount", "name": "trainer", "namespace": "ml"}]}))
    objs.append(("pvc", {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": meta("pvc"),
                         "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}}}}))
    objs.append(("ingress", {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta("ingress"),
                             "spec": {"rules": [{"host": "a.example.com", "http": {"paths": [
                                 {"path": "/", "pathType": "Prefix",
                                  "backend": {"service": {"name": "service", "port": {"number": 80}}}}]}}]}}))
    objs.append(("networkpolicy", {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
                                   "metadata": meta("networkpolicy"),
                                   "spec": {"podSelector": {}, "policyTypes": ["Ingress"]}}))
    objs.append(("hpa", {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": meta("hpa"),
                         "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"},
                                  "minReplicas": 1, "maxReplicas": 4}}))
    objs.append(("pdb", {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": meta("pdb"),
                         "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "deployment"}}}}))
    objs.append(("priorityclass", {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                                   "metadata": meta("high"), "value": 1000, "description": "training"}))
    return objs


def pod_spec_path(obj):
    kind = obj["kind"]
    if kind == "Pod":
        return ["spec"]
    if kind == "CronJob":
        return ["spec", "jobTemplate", "spec", "template", "spec"]
    if kind in ("Job", "Deployment", "StatefulSet", "DaemonSet"):
        return ["spec", "template", "spec"]
    return None


def at(obj, path):
    for key in path:
        obj = obj[key]
    return obj


def broken_variants(name, obj):
    """Each (suffix, object) breaks the schema in one way."""
    out = []
    o = copy.deepcopy(obj)
    o["metafffdata"] = o.pop("metadata")
    out.append(("typo-metadata", o))
    o = copy.deepcopy(obj)
    o["metadata"]["labelz"] = {"a": "b"}
    out.append(("unknown-metadata-field", o))
    o = copy.deepcopy(obj)
    o["metadata"]["labels"] = ["app"]
    out.append(("labels-list", o))
    o = copy.deepcopy(obj)
    o["metadata"]["name"] = 12
    out.append(("name-integer", o))
    path = pod_spec_path(obj)
    if path:
        o = copy.deepcopy(obj)
        c = at(o, path)["containers"][0]
        c["resource"] = {"limits": {"cpu": "1"}}
        out.append(("container-resource-typo", o))
        o = copy.deepcopy(obj)
        del at(o, path)["containers"][0]["name"]
        out.append(("container-missing-name", o))
        o = copy.deepcopy(obj)
        at(o, path)["containers"][0]["ports"] = [{"containerPort": "http"}]
        out.append(("port-string", o))
        o = copy.deepcopy(obj)
        at(o, path)["containers"] = {"name": "main", "image": "busybox"}
        out.append(("containers-map", o))
        o = copy.deepcopy(obj)
        del at(o, path)["containers"]
        out.append(("missing-containers", o))
        o = copy.deepcopy(obj)
        at(o, path)["containers"][0]["env"] = [{"name": "A", "value": 1}]
        out.append(("env-value-int", o))
        o = copy.deepcopy(obj)
        at(o, path)["containers"][0]["resources"] = {"limits": {"cpu": True}}
        out.append(("quantity-bool", o))
        o = copy.deepcopy(obj)
        at(o, path)["containers"][0]["imagePullPolicy"] = "Sometimes"
        out.append(("pull-policy-enum", o))
        o = copy.deepcopy(obj)
        at(o, path)["nodeSelector"] = {"cloud.google.com/gke-accelerator": None}
        out.append(("node-selector-null", o))
    if obj["kind"] in ("Deployment", "StatefulSet"):
        o = copy.deepcopy(obj)
        o["spec"]["replicas"] = "three"
        out.append(("replicas-string", o))
        o = copy.deepcopy(obj)
        del o["spec"]["selector"]
        out.append(("missing-selector", o))
    if obj["kind"] == "Service":
        o = copy.deepcopy(obj)
        o["spec"]["ports"][0]["port"] = "eighty"
        out.append(("port-string", o))
        o = copy.deepcopy(obj)
        o["spec"]["type"] = "Loadbalancer"
        out.append(("type-enum", o))
    if obj["kind"] == "ConfigMap":
        o = copy.deepcopy(obj)
        o["data"]["count"] = 3
        out.append(("data-int", o))
    if obj["kind"] in ("Job", "CronJob"):
        o = copy.deepcopy(obj)
        spec = o["spec"] if obj["kind"] == "Job" else o["spec"]["jobTemplate"]["spec"]
        spec["backoffLimit"] = "2"
        out.append(("backoff-string", o))
    return out


def valid_variants(name, obj):
    """Valid objects in other shapes: nulls for optional fields, extra containers."""
    out = []
    o = copy.deepcopy(obj)
    o["metadata"]["annotations"] = {"team": "ml", "gkebuild.io/disable-rules": "gpu-zero"}
    out.append(("annotated", o))
    o = copy.deepcopy(obj)
    o["metadata"]["namespace"] = "ml"
    out.append(("namespaced", o))
    path = pod_spec_path(obj)
    if path:
        o = copy.deepcopy(obj)
        at(o, path)["containers"].append(container("sidecar", "busybox:1.36", env=[{"name": "MODE", "value": "x"}]))
        out.append(("two-containers", o))
        o = copy.deepcopy(obj)
        at(o, path)["initContainers"] = [container("init")]
        out.append(("init-container", o))
        o = copy.deepcopy(obj)
        at(o, path)["containers"][0]["resources"] = {"limits": {"cpu": 0.5, "memory": "1Gi"}}
        out.append(("number-quantity", o))
    return out


def dump(objs):
    return "---\n".join(yaml.safe_dump(o, sort_keys=False) for o in objs)


SYNTAX_BROKEN = {
    "bad-indent.yaml": "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n   labels: {}\n",
    "unclosed-flow.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\ndata: {}\n",
    "tab-indent.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: a\n",
    "unclosed-quote.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"a\ndata: {}\n",
    "bad-alias.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: *missing\n",
    "second-doc-broken.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\nkind: [\n",
}

SPECIAL = {
    # Multi-document streams, comments, empty documents, CRLF line ends.
    "multi-valid.yaml": None,
    "multi-one-broken.yaml": None,
    "crlf-valid.yaml": None,
    "empty-docs.yaml": "---\n# nothing\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\n",
    "crd-skipped.yaml": "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: a\nspec: {}\n",
    "quoted-int.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\nspec:\n  ports:\n  - port: '80'\n",
    "yaml11-bool-string.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  enabled: yes\n",
    "yaml11-quoted-bool.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  enabled: 'yes'\n",
    "octal-int.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  mode: 0755\n",
    "anchors.yaml": ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  labels: &l {app: a}\n"
                     "  annotations: *l\nspec:\n  restartPolicy: Never\n  containers:\n"
                     "  - &c {name: a, image: busybox}\n"),
    "merge-key.yaml": ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
                       "data:\n  <<: {x: '1'}\n  y: '2'\n"),
    "null-optional.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\ndata:\n",
}


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    files_dir = os.path.join(out_dir, "files")
    syntax_dir = os.path.join(out_dir, "syntax")
    os.makedirs(files_dir, exist_ok=True)
    os.makedirs(syntax_dir, exist_ok=True)
    files = {}
    objs = base_objects()
    for name, obj in objs:
        files[f"{name}.yaml"] = dump([obj])
        for suffix, variant in valid_variants(name, obj):
            files[f"{name}--{suffix}.yaml"] = dump([variant])
        for suffix, variant in broken_variants(name, obj):
            files[f"{name}--bad-{suffix}.yaml"] = dump([variant])
    files["multi-valid.yaml"] = "# a stream\n" + dump([o for _, o in objs[:6]])
    broken = copy.deepcopy(objs[2][1])
    broken["spec"]["template"]["spec"]["containers"][0]["imagee"] = "x"
    files["multi-one-broken.yaml"] = dump([objs[0][1], broken, objs[9][1]])
    files["crlf-valid.yaml"] = dump([objs[5][1]]).replace("\n", "\r\n")
    for name, text in SPECIAL.items():
        if text is not None:
            files[name] = text
    for name, text in sorted(files.items()):
        with open(os.path.join(files_dir, name), "w", newline="") as f:
            f.write(text)
    for name, text in sorted(SYNTAX_BROKEN.items()):
        with open(os.path.join(syntax_dir, name), "w", newline="") as f:
            f.write(text)
    print(f"{len(files)} manifests in {files_dir}, {len(SYNTAX_BROKEN)} in {syntax_dir}")


if __name__ == "__main__":
    main()
