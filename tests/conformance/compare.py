#!/usr/bin/env python3
"""Differential conformance: renders every corpus case with Python Jinja2 and with
gkebuild's engine (tests/conformance/case_runner) and compares the bytes.

Both raising an error counts as agreement; an error on one side only is a mismatch.
Cases listed in INTENDED_DIFFERENCES.md are not compared (their reason is printed);
gkebuild must raise an error on each of them instead.
Without --runner it only checks the corpus against Jinja2: every case renders, or
raises when it is marked "expect_error".

  python3 compare.py --runner build/conformance/tests/conformance/case_runner [-k SUBSTRING]
"""

import argparse
import difflib
import sys

import jinja_ref


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runner", help="path of the case_runner executable")
    parser.add_argument("--cases", default=str(jinja_ref.CASES_DIR), help="folder of *.json case files")
    parser.add_argument("--intended", default=str(jinja_ref.INTENDED_FILE), help="list of intended differences")
    parser.add_argument("-k", dest="select", help="only cases whose name contains this")
    parser.add_argument("--quiet", action="store_true", help="no diff for each mismatch, names only")
    return parser.parse_args()


def describe(result):
    if "error" in result:
        return f"error: {result['error']}"
    return f"output: {result['output']!r}"


def show_mismatch(case, reference, ours, quiet):
    print(f"MISMATCH {case['name']} ({case['file']})")
    if quiet:
        return
    print(f"  template: {case['template']!r}")
    if case["context"]:
        print(f"  context:  {case['context']!r}")
    changed = {k: v for k, v in case["options"].items() if jinja_ref.DEFAULT_OPTIONS[k] != v}
    if changed:
        print(f"  options:  {changed}")
    print(f"  jinja2    {describe(reference)}")
    print(f"  gkebuild  {describe(ours)}")
    if "output" in reference and "output" in ours:
        diff = difflib.unified_diff(
            reference["output"].splitlines(keepends=True),
            ours["output"].splitlines(keepends=True),
            "jinja2", "gkebuild", lineterm="",
        )
        for line in diff:
            print("    " + repr(line))


def check_corpus(cases, references):
    """Cases that Jinja2 does not treat as their author meant: unexpected errors or successes."""
    problems = 0
    for case, reference in zip(cases, references):
        if case["expect_error"] != ("error" in reference):
            problems += 1
            wanted = "an error" if case["expect_error"] else "an output"
            print(f"CORPUS {case['name']} ({case['file']}): expected {wanted}, jinja2 gave {describe(reference)}")
    return problems


def check_intended(skipped, intended, runner):
    """Every intended difference is gkebuild refusing what Jinja2 renders: it must raise."""
    failed = 0
    for case, ours in zip(skipped, jinja_ref.render_gkebuild(runner, skipped)):
        print(f"skipped {case['name']}: {intended[case['name']]}")
        if "error" not in ours or ours.get("crash"):
            failed += 1
            print(f"MISMATCH {case['name']}: listed as an intended difference, but gkebuild gave {describe(ours)}")
    return failed


def main():
    arguments = parse_arguments()
    cases = jinja_ref.load_cases(arguments.cases)
    # upstream/ names belong to upstream/run_upstream.py, which checks them against its cases.
    intended = {name: reason for name, reason in jinja_ref.load_intended_differences(arguments.intended).items()
                if not name.startswith("upstream/")}
    unknown = sorted(set(intended) - {case["name"] for case in cases})
    if unknown:
        print(f"INTENDED_DIFFERENCES.md names cases that do not exist: {', '.join(unknown)}")
        return 1
    if arguments.select:
        cases = [case for case in cases if arguments.select in case["name"]]
        intended = {name: reason for name, reason in intended.items() if arguments.select in name}
    references = [jinja_ref.render_reference(case) for case in cases]
    corpus_problems = check_corpus(cases, references)
    if not arguments.runner:
        print(f"corpus: {len(cases)} cases checked against jinja2, {corpus_problems} problems")
        return 1 if corpus_problems else 0

    skipped = [case for case in cases if case["name"] in intended]
    failed = check_intended(skipped, intended, arguments.runner)
    kept = [i for i, case in enumerate(cases) if case["name"] not in intended]
    cases, references = [cases[i] for i in kept], [references[i] for i in kept]

    ours = jinja_ref.render_gkebuild(arguments.runner, cases)
    for case, reference, result in zip(cases, references, ours):
        if not jinja_ref.agree(reference, result):
            failed += 1
            show_mismatch(case, reference, result, arguments.quiet)
    if corpus_problems:
        print(f"corpus: {corpus_problems} cases do not behave in jinja2 as marked")
    if skipped:
        print(f"{len(skipped)} intended differences: gkebuild must raise an error there, not match jinja2")
    print(f"conformance: {len(cases) + len(skipped) - failed} passed, {failed} failed")
    return 1 if failed or corpus_problems else 0


if __name__ == "__main__":
    sys.exit(main())
