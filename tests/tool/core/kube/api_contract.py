"""The Kubernetes API contract that every request and response of the test server is held to.

Two official sources, because neither alone is both exact and at hand here:
- operations (path templates, verbs, query parameters, request content types, response codes and
  content types) from the Kubernetes OpenAPI v3 documents under tests/tool/core/kube/openapi/ (see SOURCES
  there: the copies kept in client-go, descriptions stripped);
- object schemas for the Kubernetes version the server plays (1.33 unless told otherwise), from the
  JSON schemas that kubernetes-validate ships (generated from that release's OpenAPI definitions,
  "strict": unknown fields are errors).

Custom resources are not in those documents: Kueue's (kueue.x-k8s.io) are held to the schemas of
its CRDs (tests/tool/core/kube/kueue-schemas/, see the README there) - the path's shape, the verbs and query
parameters every resource path takes, and bodies against the kind's schema. Any other group is a
violation, as an unknown path is.

A violation is recorded, not raised: the server answers as it would anyway, and the test harness
reads the list through /_control/contract and fails the test when it is not empty.
"""

import json
import os
import re
from urllib.parse import parse_qs

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
DOCUMENTS = ("api__v1_openapi.json", "apis__batch__v1_openapi.json", "apis__apps__v1_openapi.json",
             "apis__rbac.authorization.k8s.io__v1_openapi.json",
             "api_openapi.json", "apis_openapi.json", "version_openapi.json")
# Errors are not documented per operation in the OpenAPI documents; a real server answers them
# with a meta/v1 Status body, which is what they are held to.
STATUS = "io.k8s.apimachinery.pkg.apis.meta.v1.Status"
# Query parameters a real API server decodes into the operation's options although the documents
# leave them out: PodLogOptions.sinceTime (`kubectl logs --since-time` sends it).
UNDOCUMENTED_QUERY = {"readCoreV1NamespacedPodLog": {"sinceTime"}}
# Taken by the API server's own filters on every request (client-go sends ?timeout=32s).
GLOBAL_QUERY = {"timeout"}
# Custom resource groups and where the schemas of their kinds are (<group>/<kind>_<version>.json).
CUSTOM_SCHEMAS = os.path.join(HERE, "kueue-schemas")
CUSTOM_PATH = re.compile(r"^/apis/(?P<group>[^/]+)/(?P<version>[^/]+)"
                         r"(?:/namespaces/[^/]+)?(?:/(?P<plural>[^/]+)(?:/(?P<name>[^/]+)(?:/(?P<sub>status))?)?)?/?$")
# What the API server takes on a custom resource path, by verb (its generic REST handlers).
CUSTOM_QUERY = {
    "GET": {"pretty", "resourceVersion", "resourceVersionMatch", "labelSelector", "fieldSelector", "limit",
            "continue", "watch", "timeoutSeconds", "allowWatchBookmarks", "sendInitialEvents"},
    "POST": {"pretty", "dryRun", "fieldManager", "fieldValidation"},
    "PUT": {"pretty", "dryRun", "fieldManager", "fieldValidation"},
    "PATCH": {"pretty", "dryRun", "fieldManager", "fieldValidation", "force"},
    "DELETE": {"pretty", "dryRun", "gracePeriodSeconds", "propagationPolicy", "orphanDependents"},
}
CUSTOM_BODIES = {"POST": ("application/json", "application/yaml"), "PUT": ("application/json", "application/yaml"),
                 "PATCH": ("application/apply-patch+yaml", "application/merge-patch+json", "application/json-patch+json")}


def _schemas_dir(version):
    import kubernetes_validate  # from PyPI, installed by scripts/setup.sh
    base = os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema")
    path = os.path.join(base, f"v{version}-local-strict")
    if not os.path.isdir(path):
        raise SystemExit(f"kubernetes-validate has no schemas for Kubernetes {version}")
    return path


class Contract:
    def __init__(self, version="1.33.0"):
        self.version = version
        self.operations = []  # (compiled path template, path item)
        # The documents' own schemas, for answers that kubernetes-validate has none for (discovery).
        self.document_schemas = {}
        for name in DOCUMENTS:
            with open(os.path.join(HERE, "openapi", name)) as f:
                text = f.read().replace('"#/components/schemas/', '"#/$defs/')
            doc = json.loads(text)
            self.document_schemas.update(doc["components"].get("schemas", {}))
            for template, item in doc["paths"].items():
                pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
                self.operations.append((re.compile(pattern), item))
        with open(os.path.join(_schemas_dir(version), "_definitions.json")) as f:
            self.definitions = json.load(f)
        self.validators = {}
        self.violations = []
        self.enabled = True
        self.custom = {}  # (group, version, kind lower-case) -> validator

    # --- custom resources ----------------------------------------------------------------------
    def custom_route(self, path):
        """(group, version, kind) of a path in a custom group we hold schemas for, else None."""
        match = CUSTOM_PATH.match(path)
        if not match or not os.path.isdir(os.path.join(CUSTOM_SCHEMAS, match["group"])):
            return None
        plural = match["plural"] or ""
        return match["group"], match["version"], plural[:-1] if plural.endswith("s") else plural

    def custom_validator(self, group, version, kind):
        key = (group, version, kind.lower())
        if key not in self.custom:
            file = os.path.join(CUSTOM_SCHEMAS, group, f"{kind.lower()}_{version}.json")
            self.custom[key] = None
            if os.path.exists(file):
                with open(file) as f:
                    self.custom[key] = jsonschema.Draft202012Validator(json.load(f))
        return self.custom[key]

    def check_custom_object(self, where, group, version, kind, body, partial=False):
        validator = self.custom_validator(group, version, kind)
        if validator is None:
            return self.violate(where, f"no schema for {kind} {group}/{version} under {CUSTOM_SCHEMAS}")
        for error in list(validator.iter_errors(body))[:3]:
            if partial and error.validator == "required":
                continue
            at = "/".join(str(p) for p in error.absolute_path) or "(top)"
            self.violate(where, f"{group}/{version} {kind} at {at}: {error.message[:300]}")

    def check_custom_request(self, where, method, route, query_string, content_type, body):
        group, version, kind = route
        for name in parse_qs(query_string, keep_blank_values=True):
            if name not in CUSTOM_QUERY.get(method, set()) | GLOBAL_QUERY:
                self.violate(where, f"query parameter '{name}' is not taken by {method} on a custom resource")
        if not body:
            return
        media = (content_type or "").split(";")[0].strip()
        if media not in CUSTOM_BODIES.get(method, ()):
            return self.violate(where, f"content type '{media}' is not one of {CUSTOM_BODIES.get(method, ())}")
        document = self.parse(where, media, body)
        if document is not None and not media.endswith(("merge-patch+json", "json-patch+json")):
            self.check_custom_object(where, group, version, kind, document,
                                     partial=media == "application/apply-patch+yaml")

    def check_custom_response(self, where, status, media, body):
        if media != "application/json":
            return self.violate(where, f"content type '{media}' is not application/json")
        document = self.parse(where, media, body) if body is not None else None
        if not isinstance(document, dict):
            return
        if document.get("kind", "").endswith("List"):
            for item in document.get("items") or []:
                self.check_custom_kind_of(where, item)
        elif document.get("kind") == "Status":
            self.check_object(where, STATUS, document)
        elif "/" in document.get("apiVersion", ""):  # not a discovery document
            self.check_custom_kind_of(where, document)

    def check_custom_kind_of(self, where, obj):
        group, _, version = obj.get("apiVersion", "").rpartition("/")
        self.check_custom_object(where, group, version, obj.get("kind", ""), obj)

    # --- lookups -------------------------------------------------------------------------------
    def operation(self, method, path):
        for pattern, item in self.operations:
            if pattern.match(path) or pattern.match(path + "/"):
                return item, item.get(method.lower())
        return None, None

    def known(self, definition):
        return definition in self.definitions["$defs"] or definition in self.document_schemas

    def validator(self, definition):
        if definition not in self.validators:
            if definition in self.definitions["$defs"]:
                schema = dict(self.definitions)
            else:
                schema = {"$defs": self.document_schemas}
            schema["$ref"] = "#/$defs/" + definition
            self.validators[definition] = jsonschema.Draft202012Validator(schema)
        return self.validators[definition]

    @staticmethod
    def definition_of(content, content_type):
        media = content.get(content_type) or content.get("*/*")
        ref = (media or {}).get("schema", {}).get("$ref", "")
        return ref.rsplit("/", 1)[-1] if ref else None

    def check_object(self, where, definition, body):
        if not self.known(definition):
            return self.violate(where, f"no schema named {definition} in Kubernetes {self.version}")
        errors = sorted(self.validator(definition).iter_errors(body), key=lambda e: list(e.absolute_path))
        for error in errors[:3]:
            at = "/".join(str(p) for p in error.absolute_path) or "(top)"
            self.violate(where, f"{definition} at {at}: {error.message[:300]}")

    def violate(self, where, message):
        self.violations.append(f"{where}: {message}")

    # --- the checks ------------------------------------------------------------------------------
    def check_request(self, method, path, query_string, content_type, body):
        if not self.enabled:
            return
        where = f"request {method} {path}"
        custom = self.custom_route(path)
        if custom is not None:
            return self.check_custom_request(where, method, custom, query_string, content_type, body)
        item, operation = self.operation(method, path)
        if item is None:
            return self.violate(where, "no such path in the OpenAPI documents")
        if operation is None:
            return self.violate(where, f"the path has no {method} operation")
        declared = {p["name"] for p in item.get("parameters", []) + operation.get("parameters", [])
                    if p.get("in") == "query"} | UNDOCUMENTED_QUERY.get(operation["operationId"], set()) | GLOBAL_QUERY
        for name in parse_qs(query_string, keep_blank_values=True):
            if name not in declared:
                self.violate(where, f"query parameter '{name}' is not declared for {operation['operationId']}")
        request_body = operation.get("requestBody")
        if not body:
            return
        if request_body is None:
            return self.violate(where, "a body where the operation takes none")
        media = (content_type or "").split(";")[0].strip()
        content = request_body["content"]
        if media not in content and "*/*" not in content:
            return self.violate(where, f"content type '{media}' is not one of {sorted(content)}")
        document = self.parse(where, media, body)
        if document is None:
            return
        if media == "application/apply-patch+yaml":
            # An apply configuration is a partial object of the path's kind: no field it does
            # not have, no value of the wrong type; required fields may be left to the server.
            definition = self.definition_of(content, "application/json") or self.definition_of(content, "*/*")
            gvk = operation.get("x-kubernetes-group-version-kind", {})
            definition = self.kind_definition(gvk) or definition
            return self.check_partial(where, definition, document)
        definition = self.definition_of(content, media)
        if definition:
            self.check_object(where, definition, document)

    def check_response(self, method, path, status, content_type, body):
        if not self.enabled:
            return
        where = f"response {status} to {method} {path}"
        media = (content_type or "").split(";")[0].strip()
        if status >= 400:
            if media != "application/json":
                return self.violate(where, f"an error with content type '{media}', not a JSON Status")
            document = self.parse(where, media, body)
            if document is not None:
                self.check_object(where, STATUS, document)
            return
        if self.custom_route(path) is not None:
            return self.check_custom_response(where, status, media, body)
        item, operation = self.operation(method, path)
        if operation is None:
            return  # already recorded for the request
        response = operation["responses"].get(str(status))
        if response is None:
            return self.violate(where, f"{status} is not a documented answer of {operation['operationId']}")
        content = response.get("content", {})
        if media not in content:
            return self.violate(where, f"content type '{media}' is not one of {sorted(content)}")
        definition = self.definition_of(content, media)
        if definition and media.startswith("application/json") and body is not None:
            document = self.parse(where, media, body)
            if document is not None:
                self.check_object(where, definition, document)

    def check_watch_event(self, path, event):
        if not self.enabled:
            return
        where = f"watch event on {path}"
        self.check_object(where, "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent", event)
        obj = event.get("object") or {}
        if event.get("type") not in ("ERROR", "BOOKMARK") and self.custom_route(path) is not None:
            return self.check_custom_kind_of(where, obj)
        definition = STATUS if event.get("type") == "ERROR" else self.kind_definition_of(obj)
        if definition:
            self.check_object(where, definition, obj)

    # --- helpers -------------------------------------------------------------------------------
    def parse(self, where, media, body):
        try:
            if media.endswith("yaml"):
                import yaml
                return yaml.safe_load(body)
            return json.loads(body)
        except Exception as error:  # noqa: BLE001 - any parse failure is the finding
            self.violate(where, f"the body is not {media}: {error}")
            return None

    def kind_definition(self, gvk):
        if not gvk:
            return None
        group = gvk.get("group", "")
        prefix = "io.k8s.api.core." if group == "" else f"io.k8s.api.{group.split('.')[0]}."
        name = f"{prefix}{gvk['version']}.{gvk['kind']}"
        return name if name in self.definitions["$defs"] else None

    def kind_definition_of(self, obj):
        api_version = obj.get("apiVersion", "")
        group, _, version = api_version.rpartition("/")
        return self.kind_definition({"group": group, "version": version, "kind": obj.get("kind", "")})

    def check_partial(self, where, definition, document):
        """Types and known fields only: `required` does not bind an apply configuration."""
        if definition is None:
            return
        for error in self.validator(definition).iter_errors(document):
            if error.validator == "required":
                continue
            at = "/".join(str(p) for p in error.absolute_path) or "(top)"
            self.violate(where, f"{definition} at {at}: {error.message[:300]}")
