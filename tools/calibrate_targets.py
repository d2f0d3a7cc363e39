#!/usr/bin/env python3
"""Victory targets that make every faction win about equally often.

Reads shard result files of greedy games (`portolan simulate SCENARIO
--bots greedy,... --shard 0/1 --out FILE`), whose scores are net scores
(points less the scenario's targets), and the targets those games were
played with. A game's raw points are its net scores plus the targets;
the greedy bots play the same whatever the targets (their heuristic is
their own net score, and a target only shifts it), so the same games can
be scored again under any other targets.

The search starts from each faction's mean points and moves one target at
a time (by 1, 3 or 10 points), while the wins get more even (the sum of the
squared distances of each faction's win rate from the mean win rate).
With --check FILE..., the targets found are scored on other games too
(played on another seed), to show how well they hold out of sample;
--holdout does the same within the files: targets found from the
even-numbered games are scored on the odd-numbered ones.

Usage:
  tools/calibrate_targets.py --targets white=29,yellow=1,green=1,orange=13 \\
      calib.json [--holdout] [--check other.json] [--fixed orange]
"""

import argparse
import json


def load_points(paths, targets):
    players, games = None, []
    for path in paths:
        with open(path) as f:
            shard = json.load(f)
        players = shard["run"]["players"]
        for result in shard["results"]:
            scores = result["outcome"]["scores"]
            games.append([s + targets[p] for s, p in zip(scores, players)])
    return players, games


def wins(games, targets):
    """Win counts per faction and draws: the top net score wins, a tie for
    the top is a draw."""
    counts, draws = [0] * len(targets), 0
    for points in games:
        net = [p - t for p, t in zip(points, targets)]
        best = max(net)
        leaders = [i for i, n in enumerate(net) if n == best]
        if len(leaders) == 1:
            counts[leaders[0]] += 1
        else:
            draws += 1
    return counts, draws


def unevenness(games, targets, evened):
    """How far the wins of the `evened` factions are from an equal share of
    every game each: a draw is nobody's win, so targets that make games
    drawn are not even."""
    counts, _ = wins(games, targets)
    share = len(games) / len(evened)
    return sum((counts[i] - share) ** 2 for i in evened)


def calibrate(games, players, fixed):
    """Targets from the games; a faction in `fixed` keeps its target
    (from `fixed`) and is left out of the evening."""
    targets = [fixed.get(p, round(sum(g[i] for g in games) / len(games)))
               for i, p in enumerate(players)]
    evened = [i for i, p in enumerate(players) if p not in fixed]
    best = unevenness(games, targets, evened)
    improved = True
    while improved:
        improved = False
        for i in evened:
            for step in (1, -1, 3, -3, 10, -10):
                trial = list(targets)
                trial[i] += step
                score = unevenness(games, trial, evened)
                if score < best:
                    targets, best, improved = trial, score, True
    return targets


def show(label, players, games, targets):
    counts, draws = wins(games, targets)
    n = len(games)
    rates = ", ".join(f"{p} {100 * c / n:.1f}%" for p, c in zip(players, counts))
    print(f"{label}: {rates}, draws {100 * draws / n:.1f}% ({n} games)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="shard result files of the calibration games")
    parser.add_argument("--targets", required=True,
                        help="the targets the games were played with: white=29,yellow=1,...")
    parser.add_argument("--check", nargs="*", default=[],
                        help="shard result files of other games to score the new targets on")
    parser.add_argument("--fixed", default="",
                        help="factions that keep their target and are not evened "
                             "(one with no army in the scenario): orange,...")
    parser.add_argument("--holdout", action="store_true",
                        help="also calibrate on the even games and score on the odd ones")
    args = parser.parse_args()
    old = dict((k, int(v)) for k, v in (kv.split("=") for kv in args.targets.split(",")))
    players, games = load_points(args.files, old)
    before = [old[p] for p in players]
    show("with the old targets", players, games, before)
    means = ", ".join(f"{p} {sum(g[i] for g in games) / len(games):.1f}"
                      for i, p in enumerate(players))
    print(f"mean points: {means}")
    fixed = {p: old[p] for p in args.fixed.split(",") if p}
    targets = calibrate(games, players, fixed)
    print("new targets: " + ", ".join(f"{p} {t}" for p, t in zip(players, targets)))
    show("with the new targets", players, games, targets)
    if args.holdout:
        even, odd = games[0::2], games[1::2]
        half = calibrate(even, players, fixed)
        print("targets from the even games: "
              + ", ".join(f"{p} {t}" for p, t in zip(players, half)))
        show("old targets, odd games", players, odd, before)
        show("even games' targets, odd games", players, odd, half)
    if args.check:
        _, checks = load_points(args.check, old)
        show("old targets, check games", players, checks, before)
        show("new targets, check games", players, checks, targets)


if __name__ == "__main__":
    main()
