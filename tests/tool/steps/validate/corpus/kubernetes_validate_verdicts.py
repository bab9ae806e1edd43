#!/usr/bin/env python3
"""Prints kubernetes-validate's strict verdict for each file: "<file> valid|invalid|skipped".

Runs kubernetes-validate's own validate() (the function its CLI calls) in one process:
the CLI stops at the first object without metadata (a KeyError in its message code), so
a file-by-file loop through the CLI would need one Python start per file.
"""
import sys

import yaml
from kubernetes_validate import utils


def verdict(path, version):
    try:
        with open(path, encoding="utf-8") as f:
            docs = [d for d in yaml.load_all(f.read(), Loader=yaml.SafeLoader) if d]
    except Exception:
        return "invalid"
    result = "valid"
    for doc in docs:
        try:
            utils.validate(doc, version, strict=True)
        except utils.ValidationError:
            return "invalid"
        except utils.SchemaNotFoundError:
            result = "skipped" if result == "valid" else result
        except Exception:
            return "invalid"
    return result


def main():
    version = sys.argv[1]
    for path in sys.argv[2:]:
        print(path, verdict(path, version))


if __name__ == "__main__":
    main()
