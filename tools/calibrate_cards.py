#!/usr/bin/env python3
"""Victory cards that make every faction win about equally often against
fixed targets (Age of Darkness, whose targets the rule book gives).

Reads shard result files (`portolan simulate SCENARIO --shard 0/1 --out
FILE`) and the targets the games were played with. A game's points are its
net scores plus the targets. Each faction's card is scaled by one factor
(every territory and kill award of the card multiplied, then rounded):
the search moves one factor at a time (by 0.02, 0.05 or 0.2) while the
wins get more even, scoring the same games again with each faction's
points scaled. That is exact for bots whose play does not read the score
(random bots), and a first step for those that do (greedy): play again
under the new cards and run the tool again on those games.

With --write GAME_YAML the factors are applied to the `victory:` cards of
that file (every number of an `areas:` or `kills:` map, at least 1).

Usage:
  tools/calibrate_cards.py --targets white=147,yellow=195,green=194,orange=118 \\
      games.json [--write rules/mediterranea/game.yaml]
"""

import argparse
import re

from calibrate_targets import load_points, wins


def unevenness(games, targets, factors):
    scaled = [[p * f for p, f in zip(points, factors)] for points in games]
    counts, _ = wins(scaled, targets)
    share = len(games) / len(targets)
    return sum((c - share) ** 2 for c in counts)


def calibrate(games, targets):
    """One factor per faction, from 1: the mean points meet the targets
    first, then single steps while the wins even out."""
    means = [sum(g[i] for g in games) / len(games) for i in range(len(targets))]
    factors = [round(t / m, 2) if m > 0 else 1.0 for t, m in zip(targets, means)]
    best = unevenness(games, targets, factors)
    improved = True
    while improved:
        improved = False
        for i in range(len(factors)):
            for step in (0.02, -0.02, 0.05, -0.05, 0.2, -0.2):
                trial = list(factors)
                trial[i] = round(trial[i] + step, 2)
                if trial[i] <= 0:
                    continue
                score = unevenness(games, targets, trial)
                if score < best:
                    factors, best, improved = trial, score, True
    return factors


NUMBER = re.compile(r"((?:areas|kills): \{[^}]*\})")
VALUE = re.compile(r"(:\s*)(\d+)")


def write_cards(path, players, factors):
    """Scales each faction's card in game.yaml's `victory:` section: the
    card's total is multiplied by the factor and shared out over its
    numbers by largest remainder (each at least 1), so that a factor near
    1 still moves a card of small numbers."""
    lines = open(path).read().split("\n")
    by_player = dict(zip(players, factors))
    cards = {}  # faction -> [(line index, start, end, value)]
    in_victory, faction = False, None
    for i, line in enumerate(lines):
        if re.match(r"^  victory:\s*$", line):
            in_victory = True
            continue
        if in_victory and re.match(r"^  \S", line):
            in_victory = False
        if not in_victory:
            continue
        head = re.match(r"^    (\w+):\s*$", line)
        if head:
            faction = head.group(1)
        elif faction in by_player and line.lstrip().startswith("- {"):
            for block in NUMBER.finditer(line):
                for v in VALUE.finditer(block.group(1)):
                    start = block.start(1) + v.start(2)
                    cards.setdefault(faction, []).append(
                        (i, start, block.start(1) + v.end(2), int(v.group(2))))
    edits = []
    for faction, numbers in cards.items():
        k = by_player[faction]
        total = round(k * sum(n[3] for n in numbers))
        exact = [n[3] * k for n in numbers]
        new = [max(1, int(e)) for e in exact]
        order = sorted(range(len(numbers)), key=lambda j: exact[j] - new[j], reverse=True)
        for j in order:
            if sum(new) >= total:
                break
            new[j] += 1
        edits += [(n[0], n[1], n[2], v) for n, v in zip(numbers, new)]
    for i, start, end, value in sorted(edits, key=lambda e: (e[0], -e[1])):
        lines[i] = lines[i][:start] + str(value) + lines[i][end:]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="shard result files")
    parser.add_argument("--targets", required=True,
                        help="the scenario's targets: white=147,yellow=195,...")
    parser.add_argument("--write", metavar="GAME_YAML",
                        help="apply the factors to the cards of this game.yaml")
    args = parser.parse_args()
    targets = dict((k, int(v)) for k, v in (kv.split("=") for kv in args.targets.split(",")))
    players, games = load_points(args.files, targets)
    goal = [targets[p] for p in players]
    n = len(games)
    counts, draws = wins(games, goal)
    print("now: " + ", ".join(f"{p} {100 * c / n:.1f}%" for p, c in zip(players, counts))
          + f", draws {100 * draws / n:.1f}% ({n} games)")
    factors = calibrate(games, goal)
    print("factors: " + ", ".join(f"{p} {f}" for p, f in zip(players, factors)))
    scaled = [[p * f for p, f in zip(points, factors)] for points in games]
    counts, draws = wins(scaled, goal)
    print("scaled: " + ", ".join(f"{p} {100 * c / n:.1f}%" for p, c in zip(players, counts))
          + f", draws {100 * draws / n:.1f}%")
    if args.write:
        write_cards(args.write, players, factors)
        print(f"cards scaled in {args.write}")


if __name__ == "__main__":
    main()
