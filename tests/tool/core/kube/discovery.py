"""What a Kubernetes API server answers to clients that discover it before they act (kubectl):
/version, /api, /apis, the resource lists of each group version, and the OpenAPI v3 documents
(/openapi/v3 and one document per group version, served from tests/tool/core/kube/openapi/)."""

import hashlib
import os

HERE = os.path.dirname(os.path.abspath(__file__))
VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]
SHORT_NAMES = {"namespaces": ["ns"], "pods": ["po"], "services": ["svc"], "configmaps": ["cm"],
               "persistentvolumes": ["pv"], "persistentvolumeclaims": ["pvc"], "events": ["ev"],
               "daemonsets": ["ds"], "deployments": ["deploy"], "serviceaccounts": ["sa"]}
# Group version -> the OpenAPI document that describes it.
DOCUMENTS = {"api/v1": "api__v1_openapi.json", "apis/batch/v1": "apis__batch__v1_openapi.json",
             "apis/apps/v1": "apis__apps__v1_openapi.json",
             "apis/rbac.authorization.k8s.io/v1": "apis__rbac.authorization.k8s.io__v1_openapi.json"}


def version_info(version):
    major, minor = version.split(".")[:2]
    return {"major": major, "minor": minor, "gitVersion": f"v{version}", "gitCommit": "0" * 40,
            "gitTreeState": "clean", "buildDate": "2025-04-22T00:00:00Z", "goVersion": "go1.24.2",
            "compiler": "gc", "platform": "linux/amd64"}


def group_versions(resources):
    return sorted({api_version for _, api_version, _ in resources.values() if "/" in api_version})


def core_versions(address):
    return {"kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": address}]}


def group_list(resources):
    groups = []
    for group_version in group_versions(resources):
        group, version = group_version.split("/")
        entry = {"groupVersion": group_version, "version": version}
        groups.append({"name": group, "versions": [entry], "preferredVersion": entry})
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


def resource_list(resources, group_version):
    """The APIResourceList of `group_version` ("v1", "batch/v1"), or None when it is not served."""
    listed = []
    for plural, (kind, api_version, namespaced) in sorted(resources.items()):
        if api_version != group_version:
            continue
        entry = {"name": plural, "singularName": kind.lower(), "namespaced": namespaced, "kind": kind,
                 "verbs": VERBS}
        if plural in SHORT_NAMES:
            entry["shortNames"] = SHORT_NAMES[plural]
        listed.append(entry)
        if plural == "pods":
            listed.append({"name": "pods/log", "singularName": "", "namespaced": True, "kind": "Pod",
                           "verbs": ["get"]})
        if plural in ("jobs", "pods", "daemonsets", "deployments", "namespaces"):
            listed.append({"name": f"{plural}/status", "singularName": "", "namespaced": namespaced,
                           "kind": kind, "verbs": ["get", "patch", "update"]})
    if not listed:
        return None
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version, "resources": listed}


def openapi_document(name):
    with open(os.path.join(HERE, "openapi", name), "rb") as f:
        return f.read()


def openapi_index():
    paths = {}
    for group_version, name in DOCUMENTS.items():
        digest = hashlib.sha512(openapi_document(name)).hexdigest()[:128].upper()
        paths[group_version] = {"serverRelativeURL": f"/openapi/v3/{group_version}?hash={digest}"}
    return {"paths": paths}
