"""Times icepool 2.2.2 on one sorted contest of mixed pools (issue 19) in a fresh process.

Usage: python icepool_mixed_contests.py SIDES_A SIDES_B
       e.g. `6,6,6,8,10 6,6,6,8,10` for 3d6+1d8+1d10 against the same.

Net score of a sorted contest, ties stand (fairdice's default `contest`), with the
evaluator of icepool_contests.py. Only the first evaluation is timed, in wall and process
CPU time, after importing icepool and building the pools. Prints
`seconds=... cpu=... total=... sum=...` (the net score's exact total and sum).
"""

import sys
import time

import icepool

from icepool_contests import build


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    sides = [[int(s) for s in side.split(",")] for side in argv]
    stand, _, _ = build(icepool)
    a, b = (icepool.standard_pool(s) for s in sides)
    start, cpu_start = time.perf_counter(), time.process_time()
    die = stand.evaluate(a, b)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    total = sum(count for _, count in die.items())
    sum_ = sum(outcome * count for outcome, count in die.items())
    print(f"seconds={seconds:e} cpu={cpu:e} total={total} sum={sum_}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
