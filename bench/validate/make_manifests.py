#!/usr/bin/env python3
"""Writes N manifests of mixed kinds (valid and broken, from the test corpus generator)
into a folder, one object per file: python3 make_manifests.py DIR N"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tests/tool/steps/validate/corpus"))
import generate  # noqa: E402


def main():
    out_dir, count = sys.argv[1], int(sys.argv[2])
    os.makedirs(out_dir, exist_ok=True)
    pool = []
    for name, obj in generate.base_objects():
        pool.append(obj)
        pool.extend(v for _, v in generate.valid_variants(name, obj))
        # kubernetes-validate's CLI stops at an object without metadata, so those stay out.
        pool.extend(v for suffix, v in generate.broken_variants(name, obj) if suffix != "typo-metadata")
    for i in range(count):
        obj = pool[i % len(pool)]
        with open(os.path.join(out_dir, f"m{i:05d}.yaml"), "w") as f:
            f.write(generate.dump([obj]))


if __name__ == "__main__":
    main()
