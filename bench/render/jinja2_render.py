"""Python half of the render benchmark (bench/render/run.sh).

  jinja2_render.py whole CONTEXTS.json   render job.yaml.j2 once per context, print the YAML stream
  jinja2_render.py time CONTEXTS.json N  best of N rounds, per render (timeit)
  jinja2_render.py template T.j2 VALUES.json
                                         render one template over one JSON values file, like
                                         `gkebuild render --template T --values V --trim-blocks
                                         --lstrip-blocks`, and print it

The template is the shipped templates/job.yaml.j2. gkebuild's YAML filters are given
their natural Python equivalents: toyaml = yaml.safe_dump (block style, keys in order),
quote = a JSON string (a valid YAML double-quoted scalar).
"""
import json
import os
import sys
import timeit

import jinja2
import yaml

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "templates")


def environment():
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), undefined=jinja2.StrictUndefined)
    env.filters["toyaml"] = lambda value: yaml.safe_dump(value, default_flow_style=False, sort_keys=False)
    env.filters["quote"] = lambda value: json.dumps(str(value))
    return env


def render_template_file(template_file, values_file):
    folder, name = os.path.split(os.path.abspath(template_file))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    with open(values_file) as f:
        values = json.load(f)
    sys.stdout.write(env.get_template(name).render(values))


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "template":
        render_template_file(path, sys.argv[3])
        return
    with open(path) as f:
        contexts = json.load(f)
    template = environment().get_template("job.yaml.j2")
    if mode == "whole":
        out = sys.stdout
        for i, context in enumerate(contexts):
            if i:
                out.write("---\n")
            out.write(template.render(context) + "\n")
        return
    rounds = int(sys.argv[3])
    timer = timeit.Timer(lambda: [template.render(c) for c in contexts])
    best = min(timer.repeat(repeat=rounds, number=1))
    print("renders %d us_per_render %.3f" % (len(contexts), best / len(contexts) * 1e6))


if __name__ == "__main__":
    main()
