#!/usr/bin/env python3
"""Prints a Terraform file as plain JSON, parsed by python-hcl2 (PyPI): strings without
their HCL quotes, blocks as lists of objects, no "__is_block__" markers."""
import json
import sys

import hcl2


def clean(value):
    if isinstance(value, dict):
        return {key.strip('"'): clean(item) for key, item in value.items() if key != "__is_block__"}
    if isinstance(value, list):
        return [clean(item) for item in value]
    if isinstance(value, str) and len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        return value[1:-1]
    return value


with open(sys.argv[1]) as source:
    print(json.dumps(clean(hcl2.load(source))))
