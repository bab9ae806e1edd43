"""pytest plugin that records every template Jinja2's own tests render.

Loaded with `pytest -p record_plugin` while upstream's test files run. It wraps
Environment.from_string (to remember each template's source) and Template.render (to
record the source, the context, the loader's templates, the environment's options and
Jinja2's own result: the output, or the exception's class). One JSON object per line
goes to the file named by $GKEBUILD_UPSTREAM_RECORD. A render whose inputs cannot be
written in the case format is still recorded, with the reason in "unexpressible".
"""

import json
import os

import jinja2
from jinja2 import environment as jinja_environment
from jinja2 import nodes

from jinja_ref import error_kind  # tests/conformance, on PYTHONPATH beside this folder

RECORD_FILE = os.environ.get("GKEBUILD_UPSTREAM_RECORD")
PLAIN_TYPES = (str, int, float, bool, type(None))
DEFAULT_ENVIRONMENT = jinja2.Environment()


def plain_copy(value, depth=0):
    """A copy made only of dict/list/str/int/float/bool/None, or raises TypeError.

    Exact types only: a tuple, a Markup string or a dict subclass would render
    differently from the JSON value that stands for it."""
    if depth > 64:
        raise TypeError("nested too deeply")
    if type(value) in PLAIN_TYPES:
        if type(value) is float and value != value:
            raise TypeError("NaN")
        return value
    if type(value) is list:
        return [plain_copy(item, depth + 1) for item in value]
    if type(value) is dict and all(type(key) is str for key in value):
        return {key: plain_copy(item, depth + 1) for key, item in value.items()}
    raise TypeError(f"a {type(value).__name__}")


def loader_templates(loader):
    """{name: source} of every template the loader can list, or raises TypeError."""
    if loader is None:
        return {}
    if isinstance(loader, jinja2.DictLoader):
        return {name: source for name, source in loader.mapping.items() if type(source) is str}
    raise TypeError(f"a {type(loader).__name__}")


def changed_options(env, used):
    """The environment's settings that the case format cannot carry (differences from the
    defaults). enable_async is not among them: it changes how Jinja2 runs a template, not what
    it prints, and run_upstream.py re-renders every case without it before comparing."""
    changes = []
    if type(env) is not jinja2.Environment:
        changes.append(type(env).__name__)
    for option in ("block_start_string", "block_end_string", "variable_start_string", "variable_end_string",
                   "comment_start_string", "comment_end_string", "line_statement_prefix",
                   "line_comment_prefix", "newline_sequence", "optimized", "autoescape", "finalize",
                   "policies"):
        if getattr(env, option) != getattr(DEFAULT_ENVIRONMENT, option):
            changes.append(option)
    if set(env.extensions) - {"jinja2.ext.LoopControlExtension"}:
        changes.append("extensions")
    for table in ("filters", "tests"):
        ours, default = getattr(env, table), getattr(DEFAULT_ENVIRONMENT, table)
        if ours.keys() != default.keys() or any(ours[k] is not default[k] for k in ours):
            changes.append(table)
    if any(env.globals.get(k) is not DEFAULT_ENVIRONMENT.globals.get(k) for k in env.globals if k in used):
        changes.append("globals")
    if env.undefined not in (jinja2.Undefined, jinja2.StrictUndefined):
        changes.append(env.undefined.__name__)
    return changes


def is_random(env, sources):
    """True when a source calls the random filter or lipsum(): its output changes each run."""
    for source in sources:
        try:
            tree = env.parse(source)
        except Exception:
            continue
        if any(node.name == "random" for node in tree.find_all(nodes.Filter)) or \
                any(node.name == "lipsum" for node in tree.find_all(nodes.Name)):
            return True
    return False


def names_used(env, sources):
    """Every variable name the sources read (a superset of their free names), or None
    when one does not parse. Only walks the syntax tree: the code generator behind
    jinja2.meta would run the environment's custom tests and filters."""
    used = set()
    for source in sources:
        try:
            tree = env.parse(source)
        except Exception:
            return None
        used |= {node.name for node in tree.find_all(nodes.Name)}
    return used


def describe_inputs(template, args, kwargs):
    """The case fields of one render, or {"unexpressible": reason}."""
    env = template.environment
    source = getattr(template, "_gkebuild_source", None)
    if source is None and isinstance(env.loader, jinja2.DictLoader) and template.name in env.loader.mapping:
        source = env.loader.mapping[template.name]
    if type(source) is not str:
        return {"unexpressible": "template source unknown (not from_string or a DictLoader)"}
    record = {"template": source, "name_in_loader": template.name}
    try:
        record["templates"] = loader_templates(env.loader)
    except TypeError as error:
        record["unexpressible"] = f"loader is {error}"
        return record
    # Values the templates never name cannot change the output: tests often pass a
    # fixed set of values (objects among them) to templates that use only some.
    if is_random(env, [source, *record["templates"].values()]):
        record["unexpressible"] = "output is random (random filter, lipsum)"
        return record
    used = names_used(env, [source, *record["templates"].values()])
    context = dict(*args, **kwargs)
    if used is not None:
        context = {key: value for key, value in context.items() if key in used}
    problems = changed_options(env, used if used is not None else set(env.globals))
    if getattr(template, "_gkebuild_globals", None):
        problems.append("template globals")
    if problems:
        record["unexpressible"] = "options: " + ", ".join(problems)
        return record
    try:
        record["context"] = plain_copy(context)
    except TypeError as error:
        record["unexpressible"] = f"context holds {error}"
        return record
    record["options"] = {
        "trim_blocks": env.trim_blocks,
        "lstrip_blocks": env.lstrip_blocks,
        "keep_trailing_newline": env.keep_trailing_newline,
        "undefined": "strict" if env.undefined is jinja2.StrictUndefined else "lenient",
    }
    return record


def write(record):
    with open(RECORD_FILE, "a", encoding="utf-8") as out:
        out.write(json.dumps(record, ensure_ascii=False) + "\n")


original_from_string = jinja_environment.Environment.from_string
original_render = jinja_environment.Template.render


def recording_from_string(self, source, globals=None, template_class=None):
    try:
        template = original_from_string(self, source, globals, template_class)
    except Exception as error:
        # A template that does not compile is never rendered: record it as rendered with an
        # empty context, so that what Jinja2 refuses is compared too.
        record_render(_Unparsed(self, source), (), {}, lambda: _raise(error))
        raise
    template._gkebuild_source = source if isinstance(source, str) else None
    template._gkebuild_globals = globals
    return template


class _Unparsed:
    """Stands for the template that from_string failed to make."""

    def __init__(self, environment, source):
        self.environment, self._gkebuild_source, self.name = environment, source, None


def _raise(error):
    raise error


def record_render(template, args, kwargs, render):
    """Runs render() and writes the record of it; returns or raises what render() does."""
    record = {"test": os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]}
    try:
        record.update(describe_inputs(template, args, kwargs))
    except Exception as error:  # recording must never change what the upstream test sees
        record["unexpressible"] = f"recorder failed: {error!r}"
    try:
        output = render()
    except Exception as error:
        record["error"] = {"kind": error_kind(error), "type": type(error).__name__, "message": str(error)[:500]}
        write(record)
        raise
    record["output"] = output if isinstance(output, str) else None
    write(record)
    return output


def recording_render(self, *args, **kwargs):
    return record_render(self, args, kwargs, lambda: original_render(self, *args, **kwargs))


if RECORD_FILE:
    jinja_environment.Environment.from_string = recording_from_string
    jinja_environment.Template.render = recording_render
