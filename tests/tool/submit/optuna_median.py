#!/usr/bin/env python3
"""Scenarios for comparing gkebuild's median stopping with Optuna's MedianPruner (PyPI), where the two
are defined the same way: every other trial has completed (Optuna compares with completed trials
only; gkebuild with running ones too). Prints one JSON object per line:
  {"minimize": bool, "warmup": W, "min_points": M, "completed": [[v0, v1, ...], ...],
   "trial": [v0, v1, ...], "optuna_prunes_at": step or null}
Usage: optuna_median.py SEED COUNT
"""
import json
import random
import sys

import optuna
from optuna.distributions import FloatDistribution
from optuna.trial import TrialState, create_trial


def optuna_prunes_at(minimize, warmup, min_points, completed, trial_values):
    pruner = optuna.pruners.MedianPruner(n_startup_trials=0, n_warmup_steps=warmup, interval_steps=1,
                                         n_min_trials=min_points)
    study = optuna.create_study(direction="minimize" if minimize else "maximize", pruner=pruner)
    for curve in completed:
        study.add_trial(create_trial(state=TrialState.COMPLETE, value=curve[-1], params={"x": 0.5},
                                     distributions={"x": FloatDistribution(0, 1)},
                                     intermediate_values=dict(enumerate(curve))))
    trial = study.ask()
    for step, value in enumerate(trial_values):
        trial.report(value, step)
        if trial.should_prune():
            return step
    return None


def main():
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    rng = random.Random(int(sys.argv[1]))
    for _ in range(int(sys.argv[2])):
        steps = rng.randint(2, 8)
        completed = [[round(rng.uniform(0, 1), 3) for _ in range(steps)] for _ in range(rng.randint(1, 7))]
        # Curves of several lengths: a completed trial that stopped reporting early counts only where it reported.
        completed = [curve[:rng.randint(1, steps)] if rng.random() < 0.3 else curve for curve in completed]
        scenario = {"minimize": rng.random() < 0.5, "warmup": rng.randint(0, 3), "min_points": rng.randint(1, 4),
                    "completed": completed, "trial": [round(rng.uniform(0, 1), 3) for _ in range(steps)]}
        scenario["optuna_prunes_at"] = optuna_prunes_at(scenario["minimize"], scenario["warmup"],
                                                        scenario["min_points"], completed, scenario["trial"])
        print(json.dumps(scenario))


if __name__ == "__main__":
    main()
