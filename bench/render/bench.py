"""Driver of bench/render/run.sh: every case side by side, whole process and in process.

  bench.py GKEBUILD RENDER_BENCH WORKDIR [RUNS [CASES]]   (CASES: letters, e.g. "f"; all by default)

Cases: (a) a Job-list template over 1,000 records, (b) the same over 10,000 records,
(c) the 1,000-point project sweep of bench/render/sweep-1000.yaml through the shipped
job.yaml.j2, (d) a trivial template ("x", no values), (e) the heavy end: the Job list over
45,000 records (15.8 MB of JSON, just under the 16 MiB a values file may have), (f) a loop of
200,000 iterations with arithmetic, tests and loop variables (loop-200000.j2, no values): the
interpreter's own cost per iteration.
  whole process: gkebuild against Python jinja2 (interpreter start and imports included);
                 taking turns run by run; the median of RUNS wall and CPU times, and the
                 peak resident set size of one more run
  in process:    the render call only: gkebuild's engine (render_bench) against MiniJinja
                 (PyPI minijinja, the Rust engine), the median of RUNS
The contexts are generated here, deterministically.
"""
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time

import minijinja
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
JINJA2 = [sys.executable, os.path.join(HERE, "jinja2_render.py")]


def job_records(count):
    """`count` Job records of about 320 bytes of JSON each, the same on every run."""
    rng = random.Random(count)
    accelerators = ["nvidia-l4", "nvidia-tesla-a100", "nvidia-h100-80gb", ""]
    jobs = []
    for i in range(count):
        jobs.append({
            "name": "train-%05d" % i,
            "image": "europe-docker.pkg.dev/team/ml/trainer@sha256:%064x" % rng.getrandbits(256),
            "gpus": rng.choice([1, 2, 4, 8]),
            "accelerator": rng.choice(accelerators),
            "cpu": str(rng.choice([4, 8, 16])),
            "memory": "%dGi" % rng.choice([16, 32, 64]),
            "args": ["--epochs", str(rng.randint(1, 90)), "--lr", "%.4g" % rng.uniform(1e-5, 1e-2)],
            "env": {"SEED": str(i), "MODE": rng.choice(["train", "eval"])},
            "labels": {"team": "ml", "sweep": "s%d" % (i // 100)},
        })
    return {"namespace": "bench", "jobs": jobs}


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(command, out_path):
    """Wall and CPU seconds (user + system) of one run of `command`, its stdout to out_path."""
    with open(out_path, "wb") as out:
        start, start_cpu = time.perf_counter(), children_cpu_seconds()
        done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE)
        wall, cpu = time.perf_counter() - start, children_cpu_seconds() - start_cpu
    if done.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (done.returncode, " ".join(command), done.stderr.decode()))
    return wall, cpu


def peak_rss_kib(command, out_path):
    """The peak comes from one more run under /usr/bin/time: a child forked from this Python
    process would inherit Python's high-water mark across exec."""
    rss_file = out_path + ".rss"
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file] + command, stdout=subprocess.DEVNULL, check=True)
    with open(rss_file) as f:
        return int(f.read().split()[-1])


def whole_process(ours, peer, runs, ours_out, peer_out):
    """For gkebuild's command and its peer's: the median wall seconds of `runs` runs, the peak
    RSS in KiB, and the median CPU seconds (user + system; on a loaded machine wall time is
    mostly waiting for a core).

    The two commands take turns, run by run, so that both meet the same machine: five runs of
    gkebuild take a few milliseconds in all, and one busy moment of a shared machine would
    otherwise fall on all of them and on none of the peer's, whose runs span seconds.
    """
    times = {ours_out: [], peer_out: []}
    for _ in range(runs):
        for command, out_path in ((ours, ours_out), (peer, peer_out)):
            times[out_path].append(timed_run(command, out_path))
    results = []
    for command, out_path in ((ours, ours_out), (peer, peer_out)):
        walls, cpus = zip(*times[out_path])
        results.append((statistics.median(walls), peak_rss_kib(command, out_path), statistics.median(cpus)))
    return results


def in_process(render, runs):
    """The median wall and CPU seconds (this process's: MiniJinja renders on this thread) of
    `runs` calls of `render`."""
    walls, cpus = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        render()
        cpus.append(time.process_time() - start_cpu)
        walls.append(time.perf_counter() - start)
    return statistics.median(walls), statistics.median(cpus)


def render_bench_seconds(command):
    """render_bench's median wall and CPU seconds."""
    words = subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()
    return float(words[words.index("seconds") + 1]), float(words[words.index("cpu_seconds") + 1])


def minijinja_env(**templates):
    env = minijinja.Environment(templates=templates)
    env.trim_blocks = True
    env.lstrip_blocks = True
    env.undefined_behavior = "strict"
    return env


def template_case(label, gkebuild, render_bench, template, values, work, runs):
    ours_out, py_out = os.path.join(work, "ours.out"), os.path.join(work, "py.out")
    options = ["--trim-blocks", "--lstrip-blocks"]
    ours, py = whole_process([gkebuild, "render", "--template", template, "--values", values] + options,
                             JINJA2 + ["template", template, values], runs, ours_out, py_out)
    with open(ours_out, "rb") as a, open(py_out, "rb") as b:
        same = a.read() == b.read()
    engine = render_bench_seconds([render_bench, "template", template, values, str(runs)])
    with open(template) as f:
        env = minijinja_env(t=f.read())
    with open(values) as f:
        context = json.load(f)
    mini = in_process(lambda: env.render_template("t", **context), runs)
    return label, ours, py, engine, mini, same


def sweep_case(gkebuild, render_bench, work, runs):
    project = os.path.join(HERE, "sweep-1000.yaml")
    contexts_file = os.path.join(work, "contexts.json")
    subprocess.run([render_bench, "contexts", project, contexts_file], check=True)
    ours, py = whole_process([gkebuild, "render", "-f", project, "--run-id", "bench"], JINJA2 + ["whole", contexts_file],
                             runs, os.path.join(work, "o"), os.path.join(work, "p"))
    engine = render_bench_seconds([render_bench, "time", contexts_file, str(runs)])
    shipped = os.path.join(ROOT, "templates")
    templates = {}
    for name in os.listdir(shipped):
        with open(os.path.join(shipped, name)) as f:
            templates[name] = f.read()
    env = minijinja.Environment(templates=templates)
    env.undefined_behavior = "strict"
    # The natural Python equivalents of gkebuild's YAML filters, as jinja2_render.py gives them.
    env.add_filter("toyaml", lambda value: yaml.safe_dump(value, default_flow_style=False, sort_keys=False))
    env.add_filter("quote", lambda value: json.dumps(str(value)))
    with open(contexts_file) as f:
        contexts = json.load(f)
    mini = in_process(lambda: [env.render_template("job.yaml.j2", **c) for c in contexts], runs)
    return "(c) 1,000-point sweep", ours, py, engine, mini, None


def main():
    gkebuild, render_bench, work = sys.argv[1:4]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    cases = sys.argv[5] if len(sys.argv) > 5 else "abcdef"  # the letters of the cases to run
    job_list = os.path.join(HERE, "job-list.yaml.j2")
    rows = []
    for letter, label, count in (("a", "(a) 1,000 records", 1000), ("b", "(b) 10,000 records", 10000)):
        if letter not in cases:
            continue
        values = os.path.join(work, "jobs-%d.json" % count)
        with open(values, "w") as f:
            json.dump(job_records(count), f)
        rows.append(template_case(label, gkebuild, render_bench, job_list, values, work, runs))
    if "c" in cases:
        rows.append(sweep_case(gkebuild, render_bench, work, runs))
    trivial, empty = os.path.join(work, "trivial.j2"), os.path.join(work, "empty.json")
    with open(trivial, "w") as f:
        f.write("x")
    with open(empty, "w") as f:
        f.write("{}")
    if "d" in cases:
        rows.append(template_case("(d) trivial template", gkebuild, render_bench, trivial, empty, work, runs))
    if "e" in cases:
        values = os.path.join(work, "jobs-45000.json")
        with open(values, "w") as f:
            json.dump(job_records(45000), f)
        rows.append(template_case("(e) 45,000 records", gkebuild, render_bench, job_list, values, work, runs))
    if "f" in cases:
        rows.append(template_case("(f) 200,000 iterations", gkebuild, render_bench,
                                  os.path.join(HERE, "loop-200000.j2"), empty, work, runs))

    print("whole process: median of %d runs (wall, and CPU = user + system), peak RSS; in process: the "
          "render call only, median of %d; load average %.1f" % (runs, runs, os.getloadavg()[0]))
    print("%-22s %10s %10s %7s | %9s %9s %6s | %10s %10s %7s | %9s %9s %6s | %9s %9s | %s" % (
        "case", "gkebuild", "jinja2", "ratio", "CPU ours", "CPU py", "ratio", "engine", "minijinja", "ratio",
        "CPU eng.", "CPU mini", "ratio", "MiB ours", "MiB py", "same output"))
    for label, ours, py, engine, mini, same in rows:
        print("%-22s %8.1fms %8.1fms %6.1fx | %7.1fms %7.1fms %5.1fx | %8.3fms %8.3fms %6.1fx | %7.3fms %7.3fms "
              "%5.1fx | %9.1f %9.1f | %s" % (
                  label, ours[0] * 1e3, py[0] * 1e3, py[0] / ours[0], ours[2] * 1e3, py[2] * 1e3,
                  py[2] / max(ours[2], 1e-6), engine[0] * 1e3, mini[0] * 1e3, mini[0] / engine[0],
                  engine[1] * 1e3, mini[1] * 1e3, mini[1] / max(engine[1], 1e-9),
                  ours[1] / 1024, py[1] / 1024, {None: "n/a", True: "yes", False: "NO"}[same]))
    print("targets: (a)(b)(c) >= 20x jinja2 whole process; engine >= 2x MiniJinja; (d) < 5 ms; "
          "(b) peak memory <= jinja2's; (e) the heavy end, no target; (f) engine >= 2x MiniJinja")


if __name__ == "__main__":
    main()
