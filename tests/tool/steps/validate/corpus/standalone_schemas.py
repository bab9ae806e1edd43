#!/usr/bin/env python3
"""Standalone strict JSON schemas for kubeconform, made from kubernetes-validate's (PyPI):
kubeconform reads one self-contained file per kind, `<kind>[-<group>]-<version>.json` as in
yannh/kubernetes-json-schema's `-standalone-strict` folders, while kubernetes-validate's
`-local-strict` files refer to `/api/_definitions.json#/$defs/...`. Each reference is replaced by
the definition it names (references inside the definitions, `#/$defs/...`, too), recursively, as openapi2jsonschema --stand-alone does; a definition that
refers to itself (JSONSchemaProps, in CRDs) is cut to {} at the second level.

Usage: standalone_schemas.py VERSION OUT   (VERSION like 1.37: kubernetes-validate's v1.37.0-local-strict)
Writes OUT/<file>.json for every top-level kind (a file with x-kubernetes-group-version-kind).
"""
import copy
import json
import os
import sys

import kubernetes_validate

PREFIXES = ("/api/_definitions.json#/$defs/", "#/$defs/")  # the kinds' files, and inside _definitions.json


def inline(node, definitions, stack):
    if isinstance(node, dict):
        ref = node.get("$ref")
        prefix = next((p for p in PREFIXES if isinstance(ref, str) and ref.startswith(p)), None)
        if prefix is not None:
            name = ref[len(prefix):]
            if name in stack:
                return {}
            return inline(copy.deepcopy(definitions[name]), definitions, stack | {name})
        return {key: inline(value, definitions, stack) for key, value in node.items()}
    if isinstance(node, list):
        return [inline(item, definitions, stack) for item in node]
    return node


def main():
    version, out = sys.argv[1], sys.argv[2]
    base = os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema",
                        f"v{version}.0-local-strict")
    with open(os.path.join(base, "_definitions.json")) as f:
        definitions = json.load(f)["$defs"]
    os.makedirs(out, exist_ok=True)
    for name in sorted(os.listdir(base)):
        if not name.endswith(".json") or name.startswith("_") or name == "all.json":
            continue
        with open(os.path.join(base, name)) as f:
            schema = json.load(f)
        if "x-kubernetes-group-version-kind" not in schema:
            continue
        standalone = inline(schema, definitions, frozenset())
        # As yannh/kubernetes-json-schema's standalone files: no $id, and no $schema (kubeconform would
        # fetch the 2020-12 meta-schema; it reads them as draft 4, which these keywords are).
        standalone.pop("$id", None)
        standalone.pop("$schema", None)
        with open(os.path.join(out, name), "w") as f:
            json.dump(standalone, f)


if __name__ == "__main__":
    main()
