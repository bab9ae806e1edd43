"""Conformance cases and their reference rendering by Python Jinja2.

A case is {"name", "template", "context", "options", "templates"} plus an optional
"expect_error": true for cases that Jinja2 must reject. Options are trim_blocks,
lstrip_blocks, keep_trailing_newline and undefined ("strict" = StrictUndefined,
"lenient" = Undefined). "templates" holds named sources for include/import/extends.
Shared by compare.py (the corpus) and fuzz.py (random cases).
"""

import json
import pathlib
import re
import subprocess

import jinja2

HERE = pathlib.Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
INTENDED_FILE = HERE / "INTENDED_DIFFERENCES.md"

DEFAULT_OPTIONS = {
    "trim_blocks": False,
    "lstrip_blocks": False,
    "keep_trailing_newline": False,
    "undefined": "strict",
}
UNDEFINED_CLASSES = {"strict": jinja2.StrictUndefined, "lenient": jinja2.Undefined}


def normalise(case):
    """Fills in the optional fields of a case and checks their types."""
    if not isinstance(case.get("name"), str) or not isinstance(case.get("template"), str):
        raise ValueError(f"case without a string name and template: {case!r:.200}")
    options = dict(DEFAULT_OPTIONS)
    options.update(case.get("options", {}))
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown or options["undefined"] not in UNDEFINED_CLASSES:
        raise ValueError(f"case {case['name']}: bad options {case.get('options')!r}")
    return {
        "name": case["name"],
        "template": case["template"],
        "context": case.get("context", {}),
        "options": options,
        "templates": case.get("templates", {}),
        "expect_error": bool(case.get("expect_error", False)),
    }


def load_cases(directory=CASES_DIR):
    """Every case of every cases/*.json file, in file then list order; names are unique."""
    cases, seen = [], {}
    for path in sorted(pathlib.Path(directory).glob("*.json")):
        for raw in json.loads(path.read_text(encoding="utf-8")):
            case = normalise(raw)
            if case["name"] in seen:
                raise ValueError(f"duplicate case name {case['name']} in {path.name} and {seen[case['name']]}")
            seen[case["name"]] = path.name
            case["file"] = path.name
            cases.append(case)
    return cases


def format_cases(cases):
    """The corpus file layout: one case per block, one field per line."""
    blocks = []
    for case in cases:
        fields = [f'    "{key}": {json.dumps(value, ensure_ascii=False)}' for key, value in case.items()]
        blocks.append("  {\n" + ",\n".join(fields) + "\n  }")
    return "[\n" + ",\n".join(blocks) + "\n]\n"


def load_intended_differences(path=INTENDED_FILE):
    """{case name: reason} from the "- `name`: reason" lines of INTENDED_DIFFERENCES.md."""
    if not pathlib.Path(path).exists():
        return {}
    pattern = re.compile(r"^- `([^`]+)`: (.+)$")
    found = {}
    for line in pathlib.Path(path).read_text(encoding="utf-8").splitlines():
        match = pattern.match(line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def make_environment(case):
    options = case["options"]
    return jinja2.Environment(
        loader=jinja2.DictLoader(case["templates"]),
        undefined=UNDEFINED_CLASSES[options["undefined"]],
        trim_blocks=options["trim_blocks"],
        lstrip_blocks=options["lstrip_blocks"],
        keep_trailing_newline=options["keep_trailing_newline"],
        extensions=["jinja2.ext.loopcontrols"],
    )


def error_kind(error):
    """The kind of a Jinja2 exception, named as case_runner names gkebuild's (jinja::ErrorKind)."""
    # SyntaxError: Jinja2 compiles `break` outside a loop into Python that does not compile.
    if isinstance(error, (jinja2.TemplateSyntaxError, SyntaxError)):
        return "syntax"
    if isinstance(error, jinja2.UndefinedError):
        return "undefined"
    if isinstance(error, jinja2.TemplateNotFound):
        return "not_found"
    return "runtime"


def render_reference(case):
    """{"output": text} or {"error": "Class: message", "kind": error_kind} from Jinja2."""
    try:
        environment = make_environment(case)
        return {"output": environment.from_string(case["template"]).render(case["context"])}
    except Exception as error:  # any failure of Jinja2 is an "error" result to compare
        return {"error": f"{type(error).__name__}: {error}", "kind": error_kind(error)}


def for_runner(case):
    """The case as the C++ runner reads it (no bookkeeping fields)."""
    return {key: case[key] for key in ("name", "template", "context", "options", "templates")}


def _run_batch(runner, cases, timeout):
    payload = json.dumps([for_runner(case) for case in cases], ensure_ascii=False)
    completed = subprocess.run(
        [str(runner)], input=payload.encode("utf-8"), capture_output=True, timeout=timeout
    )
    if completed.returncode != 0:
        raise RuntimeError(f"runner exited {completed.returncode}: {completed.stderr.decode(errors='replace')[-500:]}")
    results = json.loads(completed.stdout.decode("utf-8", errors="surrogateescape"))
    if [r.get("name") for r in results] != [c["name"] for c in cases]:
        raise RuntimeError("runner returned results for other cases than it was given")
    return results


def render_gkebuild(runner, cases, timeout=120):
    """Results of gkebuild's engine, one runner process for all cases.

    If that process crashes or hangs, the batch is split in halves and retried, so a
    bad case costs a few extra processes and cannot hide the results of the others;
    a case that crashes the runner alone gets an error result marked as a crash.
    """
    if not cases:
        return []
    try:
        return _run_batch(runner, cases, timeout)
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as error:
        if len(cases) == 1:
            reason = f"runner timed out after {timeout}s" if isinstance(error, subprocess.TimeoutExpired) \
                else f"runner failed: {error}"
            return [{"name": cases[0]["name"], "error": reason, "crash": True}]
    middle = len(cases) // 2
    return render_gkebuild(runner, cases[:middle], timeout) + render_gkebuild(runner, cases[middle:], timeout)


def agree(reference, ours):
    """Equal outputs, or errors of the same kind. A crash of the runner never agrees."""
    if ours.get("crash"):
        return False
    if "error" in reference or "error" in ours:
        return "error" in reference and "error" in ours and reference["kind"] == ours.get("kind")
    return reference["output"] == ours["output"]
