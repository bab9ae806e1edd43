#!/usr/bin/env python3
"""Hunts for differences between gkebuild's Jinja engine and Python Jinja2.

Generates random templates and contexts (template_generator.py), renders each with
Jinja2 in process and with case_runner in batches, and compares them as compare.py
does. Every difference is minimised (dropping template chunks, context keys and
options while the difference stays) and appended to cases/found_by_fuzzer.json, so
it becomes a corpus case; --no-record only reports it. A difference already recorded
there is counted but is not new (compare.py fails on it). Deterministic for a --seed;
--iterations and --seconds bound the run. Exit status 1 if a new difference was found.

  python3 fuzz.py --runner build/conformance/tests/conformance/case_runner --seconds 60
"""

import argparse
import json
import random
import re
import sys
import time

import jinja_ref
from template_generator import TemplateGenerator

FOUND_FILE = jinja_ref.CASES_DIR / "found_by_fuzzer.json"
BATCH = 100


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runner", required=True, help="path of the case_runner executable")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: time based, printed)")
    parser.add_argument("--iterations", type=int, default=1000, help="number of random cases")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this many seconds")
    parser.add_argument("--no-record", action="store_true", help="report differences without adding them to the corpus")
    parser.add_argument("--show", type=int, default=0, help="print this many generated templates (to inspect the generator)")
    return parser.parse_args()


def to_case(name, chunks, context, options, templates):
    return jinja_ref.normalise({"name": name, "template": "".join(chunks), "context": context,
                                "options": options, "templates": templates})


def differs(cases, runner):
    """For each case: True when Jinja2 and gkebuild disagree."""
    references = [jinja_ref.render_reference(case) for case in cases]
    ours = jinja_ref.render_gkebuild(runner, cases)
    return [not jinja_ref.agree(r, o) for r, o in zip(references, ours)]


OUTPUT_TAG = re.compile(r"\{\{-? .*? -?\}\}", re.DOTALL)


def smaller_values(value):
    """Simpler stand-ins for one context value: fewer items, an empty string."""
    if isinstance(value, list) and value:
        return [value[:1]] if len(value) > 1 else [[]]
    if isinstance(value, str) and value:
        return [""]
    return []


def reductions(chunks, context, options):
    """Every one-step simplification of a case, most drastic first."""
    for i in range(len(chunks)):
        if len(chunks) > 1:
            yield chunks[:i] + chunks[i + 1:], context, options
    for i, chunk in enumerate(chunks):
        for output in OUTPUT_TAG.findall(chunk):
            if output != chunk:
                yield chunks[:i] + [output] + chunks[i + 1:], context, options
    for key, value in context.items():
        yield chunks, {k: v for k, v in context.items() if k != key}, options
        for smaller in smaller_values(value):
            yield chunks, dict(context, **{key: smaller}), options
    for key, default in jinja_ref.DEFAULT_OPTIONS.items():
        if options[key] != default:
            yield chunks, context, dict(options, **{key: default})


def minimise(name, chunks, context, options, templates, runner):
    """Simplifies a differing case (chunks, context, options) while the difference stays.

    Each round renders all one-step reductions in one runner call and keeps the first
    that still differs; stops when none does.
    """
    for _ in range(30):
        candidates = list(reductions(chunks, context, options))
        if not candidates:
            break
        cases = [to_case(f"{name}.{i}", *candidate, templates) for i, candidate in enumerate(candidates)]
        flags = differs(cases, runner)
        if not any(flags):
            break
        chunks, context, options = candidates[flags.index(True)]
    return chunks, context, options


def case_key(case):
    """Cases with the same template and options count as one difference, whatever the context."""
    return case["template"], json.dumps(case["options"], sort_keys=True)


def recorded_cases():
    return json.loads(FOUND_FILE.read_text(encoding="utf-8")) if FOUND_FILE.exists() else []


def record(found):
    """Appends new cases to found_by_fuzzer.json, skipping those already there."""
    existing = recorded_cases()
    seen = {case_key(jinja_ref.normalise(case)) for case in existing}
    names = {case["name"] for case in existing}
    added = 0
    for case in found:
        key = case_key(case)
        if key in seen:
            continue
        seen.add(key)
        entry = {k: case[k] for k in ("name", "template", "context", "options", "templates")}
        while entry["name"] in names:
            entry["name"] += "_again"
        names.add(entry["name"])
        if "error" in jinja_ref.render_reference(case):
            entry["expect_error"] = True
        existing.append(entry)
        added += 1
    FOUND_FILE.write_text(jinja_ref.format_cases(existing), encoding="utf-8")
    return added


def generate(generator, seed, index):
    raw = generator.case()
    return f"found_by_fuzzer/seed{seed}_{index}", raw["chunks"], raw["context"], raw["options"], raw["templates"]


def main():
    arguments = parse_arguments()
    seed = arguments.seed if arguments.seed is not None else int(time.time())
    generator = TemplateGenerator(random.Random(seed))
    started = time.monotonic()
    known = {case_key(jinja_ref.normalise(case)) for case in recorded_cases()}
    found, already, done = [], 0, 0
    while done < arguments.iterations:
        if arguments.seconds is not None and time.monotonic() - started > arguments.seconds:
            break
        batch = [generate(generator, seed, done + i) for i in range(min(BATCH, arguments.iterations - done))]
        done += len(batch)
        for name, chunks, *_ in batch[:max(0, arguments.show - done + len(batch))]:
            print(f"{name}: {''.join(chunks)!r}")
        flags = differs([to_case(*item) for item in batch], arguments.runner)
        for (name, chunks, context, options, templates), flag in zip(batch, flags):
            if not flag:
                continue
            small = to_case(name, *minimise(name, chunks, context, options, templates, arguments.runner), templates)
            if case_key(small) in known:
                already += 1
                continue
            reference = jinja_ref.render_reference(small)
            ours = jinja_ref.render_gkebuild(arguments.runner, [small])[0]
            print(f"DIFFERENCE {name}\n  template: {small['template']!r}\n  context:  {small['context']!r}\n"
                  f"  options:  {small['options']}\n  jinja2    {reference}\n  gkebuild  {ours}")
            found.append(small)
    if found and not arguments.no_record:
        print(f"recorded {record(found)} new cases in {FOUND_FILE.name}")
    print(f"fuzz: seed {seed}, {done} cases, {len(found)} new differences"
          + (f" ({already} more already in {FOUND_FILE.name})" if already else ""))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
