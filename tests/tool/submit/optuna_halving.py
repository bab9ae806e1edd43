#!/usr/bin/env python3
"""Scenarios for comparing gkebuild's successive halving with Optuna's SuccessiveHalvingPruner (PyPI),
defined alike: trials run at once, each step every trial still running reports in a random order (the
order is part of the scenario: in asynchronous halving it decides), min_resource given (not "auto"),
bootstrap_count 0 and no max_resource (Optuna's pruner has none). Prints one JSON object per line:
  {"minimize": bool, "min_resource": R, "reduction_factor": ETA, "min_early_stopping_rate": S,
   "curves": [[v_step1, v_step2, ...], ...], "orders": [[trial, ...] per step],
   "optuna_prunes_at": [step or null per trial]}
Usage: optuna_halving.py SEED COUNT
"""
import json
import random
import sys

import optuna


def optuna_prunes_at(scenario):
    pruner = optuna.pruners.SuccessiveHalvingPruner(
        min_resource=scenario["min_resource"], reduction_factor=scenario["reduction_factor"],
        min_early_stopping_rate=scenario["min_early_stopping_rate"])
    study = optuna.create_study(direction="minimize" if scenario["minimize"] else "maximize", pruner=pruner)
    curves = scenario["curves"]
    trials = [study.ask() for _ in curves]
    pruned = [None] * len(curves)
    for step_index, order in enumerate(scenario["orders"]):
        for t in order:
            if pruned[t] is not None:
                continue
            trials[t].report(curves[t][step_index], step_index + 1)
            if trials[t].should_prune():
                pruned[t] = step_index + 1
                study.tell(trials[t], state=optuna.trial.TrialState.PRUNED)
    return pruned


def main():
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    rng = random.Random(int(sys.argv[1]))
    for _ in range(int(sys.argv[2])):
        count, steps = rng.randint(2, 10), rng.randint(2, 12)
        scenario = {"minimize": rng.random() < 0.5, "min_resource": rng.randint(1, 2),
                    "reduction_factor": rng.randint(2, 4), "min_early_stopping_rate": rng.randint(0, 1),
                    # Ties happen (values of 2 decimals): both keep a value equal to the cut.
                    "curves": [[round(rng.uniform(0, 1), 2) for _ in range(steps)] for _ in range(count)],
                    "orders": [rng.sample(range(count), count) for _ in range(steps)]}
        scenario["optuna_prunes_at"] = optuna_prunes_at(scenario)
        print(json.dumps(scenario))


if __name__ == "__main__":
    main()
