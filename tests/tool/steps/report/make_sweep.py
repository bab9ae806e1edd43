#!/usr/bin/env python3
"""Writes a local run of a 12-point sweep (lr x hidden x dropout) that prints val_loss and
val_accuracy per epoch for 20 epochs and a train_time: the learning curves' case at the size the
report must still draw legibly. Deterministic, so tests can count what the charts hold.

usage: make_sweep.py PROJECT_DIR [POINTS]   writes PROJECT_DIR/.gkebuild/runs/sweep-20261125-100000
"""
import json
import math
import os
import sys

RUN = "sweep-20261125-100000"


def points(count):
    out = []
    for lr in (0.1, 0.03, 0.01, 0.003):
        for hidden in (64, 256, 1024):
            out.append({"lr": lr, "hidden": hidden})
    return out[:count]


def main():
    project, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 12
    run_dir = os.path.join(project, ".gkebuild", "runs", RUN)
    os.makedirs(run_dir, exist_ok=True)
    jobs, lines = [], []
    for index, point in enumerate(points(count)):
        name = f"sweep-{index}"
        jobs.append({"name": name, "accelerator": None, "gpus": 0, "machine_type": "local", "spot": False,
                     "nodes": 1, "parameters": point, "state": "succeeded", "reason": "",
                     "start": "2026-11-25T10:00:00.000Z", "end": "2026-11-25T10:10:00.000Z", "pods": []})
        rate = point["lr"] ** 0.5 * (1 + math.log2(point["hidden"]) / 10)
        floor = 0.1 + 0.4 / math.log2(point["hidden"]) + (0.15 if point["lr"] >= 0.1 else 0)
        for epoch in range(1, 21):
            loss = floor + 2.2 * math.exp(-rate * epoch)
            for metric, value, unit in (("val_loss", loss, "nats"), ("val_accuracy", 1 - loss / 2.5, "fraction")):
                lines.append({"schema": "gkebuild.workload.v1", "workload": "mlp", "metric": metric,
                              "value": round(value, 4), "unit": unit, "job": name, "parameters": point,
                              "epoch": epoch})
        lines.append({"schema": "gkebuild.workload.v1", "workload": "mlp", "metric": "train_time",
                      "value": round(30 + point["hidden"] / 16, 1), "unit": "s", "job": name, "parameters": point})
    record = {"schema": "gkebuild.run.v1", "run": RUN, "project": "sweep", "experiment": "sweep", "target": "local",
              "context": "", "namespace": "", "created": "2026-11-25T10:00:00.000Z",
              "finished": "2026-11-25T10:10:00.000Z", "images": {}, "jobs": jobs}
    with open(os.path.join(run_dir, "run.json"), "w") as out:
        json.dump(record, out, indent=2)
    with open(os.path.join(run_dir, "results.jsonl"), "w") as out:
        for line in lines:
            out.write(json.dumps(line) + "\n")
    print(run_dir)


if __name__ == "__main__":
    main()
