"""A stand-in for your training script: reads its hyper-parameters, "trains", and reports its
final loss as one JSON line on stdout, which gkebuild collects into the run's results.jsonl
(and `gkebuild report` tabulates). Replace the loop with your own; keep the last print."""
import argparse
import json
import math


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    loss = 2.3
    for epoch in range(1, args.epochs + 1):
        loss = loss * math.exp(-args.lr * 5) + 0.01
        print(f"epoch {epoch}: loss {loss:.4f}", flush=True)
    print(json.dumps({"schema": "gkebuild.workload.v1", "workload": "train.py",
                      "metric": "train_loss", "value": round(loss, 6), "unit": "nats"}))


if __name__ == "__main__":
    main()
