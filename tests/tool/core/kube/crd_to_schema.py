#!/usr/bin/env python3
"""Writes the JSON schemas of a CustomResourceDefinition's versions in the CRDs-catalog layout
(<group>/<kind>_<version>.json) that `gkebuild validate --schema-location` reads: each version's
schema.openAPIV3Schema, with additionalProperties: false wherever properties are listed and no
additionalProperties is given (kubeconform's openapi2jsonschema.py in strict mode), so that an
unknown field is an error. Usage: crd_to_schema.py CRD.yaml OUT_DIR"""
import json
import os
import sys

import yaml


def strict(node):
    if isinstance(node, dict):
        if "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        for value in node.values():
            strict(value)
    elif isinstance(node, list):
        for value in node:
            strict(value)
    return node


def main(crd_file, out_dir):
    with open(crd_file) as f:
        crd = yaml.safe_load(f)
    group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
    os.makedirs(os.path.join(out_dir, group), exist_ok=True)
    for version in crd["spec"]["versions"]:
        schema = strict(version["schema"]["openAPIV3Schema"])
        path = os.path.join(out_dir, group, f"{kind.lower()}_{version['name']}.json")
        with open(path, "w") as f:
            json.dump(schema, f, sort_keys=True)
        print(path)


if __name__ == "__main__":
    main(*sys.argv[1:])
