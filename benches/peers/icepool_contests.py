"""Times icepool 2.2.2 on the contest benchmarks of fairdice, one case per fresh process.

icepool caches evaluations, so each case runs once in a new interpreter and only
that first call is timed (after importing icepool and building the dice). Prints one
JSON object per case: {"case", "seconds", "cpu_seconds"}.

    benches/.venv/bin/python benches/peers/icepool_contests.py          # every case
    benches/.venv/bin/python benches/peers/icepool_contests.py 20d6     # one case
"""

import json
import subprocess
import sys
import time
from math import sqrt

CASES = ["isaksen", "5d6", "10d20", "20d6"]


def metrics(die):
    """Win bias, tie % and closeness of a net-score die (forces the computation)."""
    bias = 100.0 * ((die > 0).mean() - (die < 0).mean())
    tie = 100.0 * (die == 0).mean()
    close = 1.0 / sqrt(die.map(lambda x: x * x).mean())
    return bias, tie, close


def build(icepool):
    """The evaluators: net score of a sorted contest, three tie rules."""

    class Descending(icepool.MultisetEvaluator):
        # Sorted pairing walks the outcomes from the highest down.
        def initial_state(self, order, outcomes, *sizes):
            if order != icepool.Order.Descending:
                raise icepool.UnsupportedOrder()
            return self.start

    class SortedTiesStand(Descending):
        # State: (net score, dice of A seen minus dice of B seen).
        start = (0, 0)

        def next_state(self, state, order, outcome, a, b):
            net, lead = state
            if lead > 0:
                net += min(b, lead)
            elif lead < 0:
                net -= min(a, -lead)
            return net, lead + a - b

        def final_outcome(self, state, *_):
            return state[0]

    class SortedAWinsTies(SortedTiesStand):
        def next_state(self, state, order, outcome, a, b):
            net, lead = state
            if lead < 0:
                net -= min(a, -lead)
            if lead + a > 0:
                net += min(b, lead + a)
            return net, lead + a - b

    class SortedCountingTies(Descending):
        # State: (net score, tied pairs, lead); all-tied rolls are rerolled.
        start = (0, 0, 0)

        def next_state(self, state, order, outcome, a, b):
            net, ties, lead = state
            if lead > 0:
                decided = min(b, lead)
                net += decided
                ties += min(a, b - decided)
            elif lead < 0:
                decided = min(a, -lead)
                net -= decided
                ties += min(b, a - decided)
            else:
                ties += min(a, b)
            return net, ties, lead + a - b

        def final_outcome(self, state, order, outcomes, *sizes):
            net, ties, _ = state
            if ties == min(sizes):
                return icepool.Reroll
            return net, ties

    return SortedTiesStand(), SortedAWinsTies(), SortedCountingTies()


def isaksen(icepool):
    """Everything the paper's tables need, as in seed 004."""
    stand, a_wins, counting = build(icepool)
    rows = []
    for sides in [2, 4, 6, 8, 10]:
        pool = icepool.d(sides).pool(5)
        rows.append(stand.evaluate(pool, pool))
    for n in range(1, 6):
        pool = icepool.d6.pool(n)
        rows.append(stand.evaluate(pool, pool))
    for sides in [2, 4, 6, 8, 10]:
        die = icepool.d(sides)
        rows.append(5 @ (die - die).sign())
    for n in range(1, 6):
        rows.append(n @ (icepool.d6 - icepool.d6).sign())
    for sides in [2, 4, 6, 8, 10]:
        pool = icepool.d(sides).pool(5)
        rows.append(a_wins.evaluate(pool, pool))
    for sides in [2, 4, 6, 8, 10]:
        die = icepool.d(sides)
        rows.append(5 @ ((die - die) >= 0).map({False: -1}))
    for n in range(2, 6):
        rows.append(a_wins.evaluate(icepool.d6.pool(n), icepool.d6.pool(5)))
    for n in range(1, 5):
        rows.append(a_wins.evaluate(icepool.d6.pool(n), icepool.d6.pool(n + 1)))
    five = icepool.d6.pool(5)
    for d8 in range(6):
        sizes = (8,) * d8 + (6,) * (5 - d8)
        rows.append(a_wins.evaluate(five, icepool.standard_pool(sizes)))
    for sizes in ([6, 6, 6, 8, 10], [6, 6, 8, 8, 8], [6, 6, 6, 10, 10]):
        rows.append(a_wins.evaluate(five, icepool.standard_pool(sizes)))
    vs = {s: ((icepool.d6 - icepool.d(s)) >= 0).map({False: -1}) for s in (6, 8, 10)}
    for d8 in range(6):
        rows.append((5 - d8) @ vs[6] + d8 @ vs[8])
    for mix in ((3, 2, 0), (3, 1, 1), (2, 3, 0), (3, 0, 2), (2, 2, 1)):
        rows.append(mix[0] @ vs[6] + mix[1] @ vs[8] + mix[2] @ vs[10])

    def rerolled(die, n):
        def sub_game(state):
            net, ties = state
            if ties == 0:
                return net, 0
            pool = die.pool(ties)
            return counting(pool, pool).map(lambda o: (o[0] + net, o[1]))

        return icepool.Die([(0, n)]).map(sub_game, repeat=n).marginals[0]

    for sides in [2, 4, 6, 8, 10]:
        rows.append(rerolled(icepool.d(sides), 5))
    for n in range(1, 6):
        rows.append(rerolled(icepool.d6, n))
    for sides in [2, 4, 6, 8, 10]:
        die = icepool.d(sides)
        rows.append(5 @ (die - die).sign().reroll([0], depth='inf'))
    for n in range(1, 6):
        rows.append(n @ (icepool.d6 - icepool.d6).sign().reroll([0], depth='inf'))
    return [metrics(r) for r in rows]


def sorted_contest(icepool, sides, n):
    stand, _, _ = build(icepool)
    pool = icepool.d(sides).pool(n)
    return metrics(stand.evaluate(pool, pool))


def run_case(case):
    import icepool

    cases = {
        "isaksen": lambda: isaksen(icepool),
        "5d6": lambda: sorted_contest(icepool, 6, 5),
        "10d20": lambda: sorted_contest(icepool, 20, 10),
        "20d6": lambda: sorted_contest(icepool, 6, 20),
    }
    wall, cpu = time.perf_counter(), time.process_time()
    result = cases[case]()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(json.dumps({"case": case, "seconds": wall, "cpu_seconds": cpu, "rows": len(result) if case == "isaksen" else 1}))


def main():
    if len(sys.argv) > 1:
        run_case(sys.argv[1])
        return
    for case in CASES:
        # A fresh interpreter per case: icepool's caches must not carry over.
        subprocess.run([sys.executable, __file__, case], check=True)


if __name__ == "__main__":
    main()
