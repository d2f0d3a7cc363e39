#!/usr/bin/env python3
"""The solitaire convoy as a plain Python script, the way a designer would
write it to try a rule: tables typed in, one function for a journey, a
random choice of options. It plays the rule readings of
rules/solo-convoy/README.md and takes options like the random bot (at the
start of a turn with no option active, any unused option or none, each
equally likely), so its score distribution can be set beside
`portolan simulate solo-convoy --games 100000 --threads 1`. It uses its own
random numbers, so it plays other journeys than Portolan: the two
distributions agree only within sampling error.

Usage: python3 benches/solo_convoy.py [JOURNEYS] [SEED]   (100000, 1)
"""

import random
import statistics
import sys
import time

TYPES = ["cargo", "tanker", "carrier", "cruiser", "destroyer"]

# Contact roll (clamped to 1-8): (contact made, force size modifier,
# modifier to next turn's contact roll).
CONTACT = {
    1: (False, 0, -1),  # dumb luck
    2: (False, 0, 0),  # no contact
    3: (False, 0, 0),
    4: (False, 0, 2),  # reconnaissance plane
    5: (True, -1, 0),  # surprise contact
    6: (True, 0, 0),  # contact
    7: (True, 1, 0),  # sortie
    8: (True, 2, 0),  # attack force
}

# Enemy type roll: (force size modifier, attack roll modifier).
ENEMY = {
    1: (-1, 0),  # U-boats
    2: (0, -1),  # Italian air force
    3: (0, -1),
    4: (0, 1),  # German air force
    5: (0, 1),
    6: (1, 0),  # combined air force
}

# Attack roll (clamped to 1-6).
ATTACK = {1: None, 2: None, 3: "damaged", 4: "damaged", 5: "destroyed", 6: "destroyed"}

# Target roll (clamped to 1-6).
TARGET = {1: "tanker", 2: "cargo", 3: "carrier", 4: "carrier", 5: "cruiser", 6: "destroyer"}

# What each option adds to which roll while it is active.
OPTIONS = {
    "decoy": {"target": 2, "interception": -1},
    "split": {"force": -1, "contact": 1},
    "evade": {"contact": -2},  # and the journey grows by 1D3 turns
    "screen": {"interception": 2, "attack": 1},
}

LOST_POINTS = {"cargo": -2, "tanker": -3, "carrier": -5, "cruiser": -1, "destroyer": 0}


def clamp(value, low, high):
    return max(low, min(high, value))


def play_journey(rng):
    def d(sides):
        return rng.randint(1, sides)

    sailed = {
        "cargo": d(6) + d(6) + d(6),
        "tanker": d(6),
        "carrier": d(3),
        "cruiser": d(6) * 5,
        "destroyer": d(6) * 10,
    }
    afloat = dict(sailed)
    damaged = dict.fromkeys(TYPES, 0)
    lost = dict.fromkeys(TYPES, 0)
    length = 20 + d(6)
    friendly = d(6)
    next_turn = 0
    interceptions = 0
    halfway_done = False
    option = None
    option_until = 0
    unused = list(OPTIONS)

    def sink(kind):
        if damaged[kind] > 0:
            damaged[kind] -= 1
        afloat[kind] -= 1
        lost[kind] += 1

    def send_home(kind, n):
        damaged[kind] -= min(n, damaged[kind])
        afloat[kind] -= n

    turn = 1
    while turn <= length:
        # Options: at the start of a turn, never while one is active.
        if option and turn > option_until:
            option = None
        if option is None and unused:
            pick = rng.choice(unused + [None])
            if pick:
                unused.remove(pick)
                option = pick
                option_until = turn + d(6) - 1
                if pick == "evade":
                    length += d(3)
        mods = OPTIONS[option] if option else {}

        if turn > friendly:
            roll = clamp(d(6) + next_turn + mods.get("contact", 0), 1, 8)
            contact, force_mod, next_turn = CONTACT[roll]
            if contact:
                enemy_force, enemy_attack = ENEMY[d(6)]
                force = max(1, d(6) + force_mod + enemy_force + mods.get("force", 0))

                rolls = 3 + afloat["carrier"] + mods.get("interception", 0)
                if afloat["cruiser"] == 0:
                    rolls -= 1
                if afloat["destroyer"] == 0:
                    rolls -= 1
                for _ in range(max(0, rolls)):
                    if d(6) == 1 and force > 0:
                        force -= 1
                        interceptions += 1

                for _ in range(force):
                    result = ATTACK[clamp(d(6) + enemy_attack + mods.get("attack", 0), 1, 6)]
                    if result is None:
                        continue
                    kind = TARGET[clamp(d(6) + mods.get("target", 0), 1, 6)]
                    if kind == "carrier" and afloat["carrier"] == 0:
                        kind = "cargo"
                    if afloat[kind] == 0:
                        continue  # the hit falls on empty sea
                    if result == "destroyed":
                        sink(kind)
                    elif damaged[kind] == 0:
                        damaged[kind] += 1
                    elif d(6) <= 3:
                        sink(kind)
                    elif afloat[kind] > damaged[kind]:
                        damaged[kind] += 1

        # Halfway: each carrier may go home with 3+1D6 warships.
        if not halfway_done and turn >= (length + 1) // 2:
            halfway_done = True
            for _ in range(afloat["carrier"]):
                if d(6) >= 4:
                    escort = d(6) + 3
                    send_home("carrier", 1)
                    for kind in ("destroyer", "cruiser"):
                        n = min(escort, afloat[kind])
                        send_home(kind, n)
                        escort -= n
        turn += 1

    score = 100 + interceptions
    for kind in TYPES:
        score += lost[kind] * LOST_POINTS[kind]
    for kind in ("tanker", "cargo"):
        if sailed[kind] > 0 and lost[kind] == sailed[kind]:
            score -= 10
    return score


def main():
    journeys = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    start, cpu_start = time.perf_counter(), time.process_time()
    scores = [play_journey(rng) for _ in range(journeys)]
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start

    scores.sort()
    n = len(scores)
    # Same definitions as `portolan simulate`: population standard
    # deviation, and the score at index (n-1)*p/100 of the sorted list.
    pct = {p: scores[(n - 1) * p // 100] for p in (5, 50, 95)}
    # On a busy machine the wall clock includes waiting for a core; the
    # CPU time does not.
    print(
        f"{n} journeys in {seconds:.2f} s: {n / seconds:.0f} journeys/s "
        f"(CPU {cpu:.2f} s: {n / cpu:.0f}/s), seed {seed}"
    )
    mean, std_dev = statistics.fmean(scores), statistics.pstdev(scores)
    print(
        f"score: mean {mean:.2f} (standard error {std_dev / n ** 0.5:.2f}), std dev {std_dev:.2f}, "
        f"min {scores[0]}, max {scores[-1]}, p5 {pct[5]}, p50 {pct[50]}, p95 {pct[95]}"
    )


if __name__ == "__main__":
    main()
