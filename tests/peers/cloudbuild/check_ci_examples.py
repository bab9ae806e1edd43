#!/usr/bin/env python3
"""examples/ci/cloudbuild.yaml against Cloud Build's config schema (SchemaStore's, see SOURCE.md),
that a step installs gkebuild with pip, and a broken copy of it (a step's args a string, timeout without its unit) against the same schema,
which must fail. Usage: check_ci_examples.py SOURCE_ROOT"""
import copy
import json
import os
import sys

import jsonschema
import yaml

root = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "cloudbuild.schema.json")) as f:
    schema = json.load(f)
with open(os.path.join(root, "examples", "ci", "cloudbuild.yaml")) as f:
    config = yaml.safe_load(f)
# gkebuild comes from pip (a wheel), as the issue asks, not from an image built beforehand.
if not any("pip install" in " ".join(step.get("args", [])) for step in config["steps"]):
    sys.exit("examples/ci/cloudbuild.yaml: no step installs gkebuild with pip install")
validator = jsonschema.Draft7Validator(schema)
errors = sorted(validator.iter_errors(config), key=lambda e: list(e.path))
if errors:
    sys.exit("examples/ci/cloudbuild.yaml: " + "; ".join(f"{list(e.path)}: {e.message}" for e in errors))
broken = copy.deepcopy(config)
broken["steps"][0]["args"] = "-c echo"
broken["timeout"] = "600"
found = {tuple(e.path) for e in validator.iter_errors(broken)}
if ("steps", 0, "args") not in found or ("timeout",) not in found:
    sys.exit(f"the schema did not catch the broken copy: {found}")
print(f"examples/ci/cloudbuild.yaml: valid ({len(config['steps'])} steps); the broken copy: {len(found)} errors")
