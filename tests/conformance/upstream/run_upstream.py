#!/usr/bin/env python3
"""Conformance against Jinja2's own test suite.

Runs the test files of the jinja2 3.1.6 source distribution under pytest with
record_plugin.py, which records every template those tests render with Jinja2's result;
then renders each recorded case that the case format can express with gkebuild's engine
(tests/conformance/case_runner) and compares: the same output, or an error of the same
kind (syntax, undefined, not_found, runtime) on both sides. Cases listed under
"Upstream cases" in INTENDED_DIFFERENCES.md must make gkebuild raise an error instead.

The sdist is not part of this repository: it is taken from --sdist, else from the cache
folder, else downloaded there with `pip download` (the cache is --cache, default
$GKEBUILD_UPSTREAM_CACHE or ~/.cache/gkebuild/jinja2-upstream).

  python3 run_upstream.py --runner build/tests/conformance/case_runner [-k TEXT] [--quiet]
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tarfile
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import jinja2  # noqa: E402
import jinja_ref  # noqa: E402

VERSION = "3.1.6"
SDIST = f"jinja2-{VERSION}.tar.gz"
INTENDED_SECTION = "## Upstream cases"


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runner", required=True, help="path of the case_runner executable")
    default_cache = os.environ.get("GKEBUILD_UPSTREAM_CACHE") or pathlib.Path.home() / ".cache/gkebuild/jinja2-upstream"
    parser.add_argument("--cache", default=str(default_cache), help="folder for the sdist and its tests")
    parser.add_argument("--sdist", help=f"path of {SDIST} (skips the cache and pip)")
    parser.add_argument("-k", dest="select", help="only cases whose name contains this")
    parser.add_argument("--quiet", action="store_true", help="names of mismatches only")
    return parser.parse_args()


def find_sdist(arguments):
    if arguments.sdist:
        return pathlib.Path(arguments.sdist)
    cache = pathlib.Path(arguments.cache)
    cached = cache / SDIST
    if not cached.exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                        "--no-binary", ":all:", "--no-deps", f"jinja2=={VERSION}", "--dest", str(cache)],
                       check=True)
    return cached


def unpack_tests(sdist, folder):
    """Extracts the sdist's tests/ folder into `folder`; returns the path of tests/."""
    with tarfile.open(sdist) as archive:
        members = [m for m in archive.getmembers() if m.name.startswith(f"jinja2-{VERSION}/tests/")]
        # The "data" filter refuses links and paths out of the folder; Pythons before 3.11.4
        # lack it, and the sdist comes from PyPI over TLS with pip's hash checks anyway.
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        archive.extractall(folder, members=members, **safe)
    return pathlib.Path(folder) / f"jinja2-{VERSION}" / "tests"


def record_upstream(tests, record_file):
    """Runs upstream's tests with the recording plugin; returns pytest's exit status."""
    python_path = [str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH")]
    environment = dict(os.environ, GKEBUILD_UPSTREAM_RECORD=str(record_file),
                       PYTHONPATH=os.pathsep.join(filter(None, python_path)))
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "record_plugin", "-p", "no:cacheprovider", str(tests)],
        cwd=tests.parent, env=environment, capture_output=True, text=True)
    print(completed.stdout.strip().splitlines()[-1] if completed.stdout.strip() else completed.stderr[-2000:])
    return completed.returncode


def load_records(record_file):
    if not pathlib.Path(record_file).exists():
        return []
    return [json.loads(line) for line in pathlib.Path(record_file).read_text(encoding="utf-8").split("\n") if line]


def to_cases(records):
    """Unique expressible cases, each with Jinja2's recorded result; named after their test."""
    cases, seen, per_test = [], set(), {}
    for record in records:
        if "unexpressible" in record:
            continue
        case = {"template": record["template"], "context": record["context"],
                "options": record["options"], "templates": record["templates"]}
        key = json.dumps(case, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        test = record["test"].removeprefix("tests/")
        per_test[test] = per_test.get(test, 0) + 1
        case["name"] = f"upstream/{test}#{per_test[test]}"
        case["recorded"] = {"error": record["error"]} if "error" in record else {"output": record["output"]}
        cases.append(jinja_ref.normalise(case) | {"recorded": case["recorded"]})
    return cases


def reference_result(case):
    """Jinja2's result for the case as the case format states it (jinja_ref's environment)."""
    try:
        environment = jinja_ref.make_environment(case)
        return {"output": environment.from_string(case["template"]).render(case["context"])}
    except Exception as error:
        return {"error": {"kind": jinja_ref.error_kind(error), "message": f"{type(error).__name__}: {error}"}}


def same_result(a, b):
    """Equal outputs, or errors of the same kind."""
    if "error" in a or "error" in b:
        return "error" in a and "error" in b and a["error"]["kind"] == b["error"]["kind"]
    return a["output"] == b["output"]


def comparable(case):
    """A recorded case is comparable when the case format reproduces Jinja2's own result:
    rendered again through jinja_ref's environment, Jinja2 gives what the upstream test got
    (this catches what the recorder cannot see, such as a missing extension)."""
    return same_result(case["recorded"], reference_result(case))


def ours_as_result(ours):
    if "error" in ours:
        return {"error": {"kind": ours.get("kind", "crash" if ours.get("crash") else "internal"),
                          "message": ours["error"]}}
    return {"output": ours["output"]}


def describe(result):
    if "error" in result:
        return f"{result['error']['kind']} error: {result['error'].get('message') or result['error'].get('type')}"
    return f"output: {result['output']!r}"


def load_intended():
    """{case name: reason} of the "Upstream cases" section of INTENDED_DIFFERENCES.md."""
    text = jinja_ref.INTENDED_FILE.read_text(encoding="utf-8")
    section = text.split(INTENDED_SECTION, 1)[1] if INTENDED_SECTION in text else ""
    section = section.split("\n## ", 1)[0]
    path = pathlib.Path(tempfile.mkdtemp()) / "section.md"
    path.write_text(section, encoding="utf-8")
    return jinja_ref.load_intended_differences(path)


def compare(cases, runner, intended, quiet):
    """Prints each mismatch; returns (agreeing, intended and refused, failures)."""
    results = jinja_ref.render_gkebuild(runner, [jinja_ref.for_runner(case) for case in cases])
    agreeing = refused = failed = 0
    for case, raw in zip(cases, results):
        ours, theirs = ours_as_result(raw), case["recorded"]
        if case["name"] in intended:
            if "error" in ours and ours["error"]["kind"] not in ("internal", "crash"):
                refused += 1
                continue
            print(f"MISMATCH {case['name']}: an intended difference ({intended[case['name']]}), "
                  f"but gkebuild gave {describe(ours)}")
        elif same_result(theirs, ours):
            agreeing += 1
            continue
        else:
            print(f"MISMATCH {case['name']}")
        failed += 1
        if not quiet:
            print(f"  template: {case['template']!r}")
            if case["context"]:
                print(f"  context:  {json.dumps(case['context'], ensure_ascii=False)[:300]}")
            if case["templates"]:
                print(f"  templates: {json.dumps(case['templates'], ensure_ascii=False)[:300]}")
            print(f"  jinja2    {describe(theirs)}")
            print(f"  gkebuild  {describe(ours)}")
    return agreeing, refused, failed


def main():
    arguments = parse_arguments()
    if jinja2.__version__ != VERSION:
        print(f"upstream: jinja2 {jinja2.__version__} is installed; the recorded results need {VERSION}")
        return 1
    with tempfile.TemporaryDirectory(prefix="gkebuild-upstream-") as scratch:
        tests = unpack_tests(find_sdist(arguments), scratch)
        record_file = pathlib.Path(scratch) / "records.jsonl"
        status = record_upstream(tests, record_file)
        records = load_records(record_file)
    if status != 0 or not records:
        print(f"upstream: pytest exited {status} with {len(records)} renders recorded")
        return 1
    cases = to_cases(records)
    kept = [case for case in cases if comparable(case)]
    intended = load_intended()
    unknown = sorted(set(intended) - {case["name"] for case in kept})
    if arguments.select:
        kept = [case for case in kept if arguments.select in case["name"]]
    agreeing, refused, failed = compare(kept, arguments.runner, intended, arguments.quiet)
    print(f"upstream: {len(records)} renders recorded, {len(cases)} unique cases in the case format, "
          f"{len(kept)} comparable; {agreeing} agree, {refused} refused as documented differences, "
          f"{failed} differ")
    if unknown:
        print(f"INTENDED_DIFFERENCES.md names upstream cases that are not comparable: {', '.join(unknown)}")
    return 1 if failed or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
