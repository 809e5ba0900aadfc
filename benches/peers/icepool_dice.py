"""Times the first exact evaluation of one icepool expression in a fresh process.

Usage: python icepool_dice.py EXPRESSION          -> seconds=... cpu=... total=... sum=... sumsq=...
       python icepool_dice.py --warm N EXPRESSION -> the same, medians of N evaluations after the first
       python icepool_dice.py --print EXPRESSION  -> the distribution, one `outcome count` a line
       python icepool_dice.py --calls N EXPRESSION -> total=... sum=... sumsq=..., untimed
       python icepool_dice.py --version           -> icepool's version

EXPRESSION is Python evaluated with `icepool` and `d = icepool.d` in scope, e.g. `100 @ d(6)`
or `d(10).highest(100, 10)`. Only the evaluation is timed, in wall time and in the process's
CPU time: the interpreter start, the import of icepool and the compilation of the expression
text happen before the clocks start, and the fingerprint (exact total, sum of outcome*count,
sum of outcome^2*count, the same three numbers the Rust engines print) is computed after they
stop. icepool caches what it computes, so only the first evaluation in a process says what a
user waits for; the runner starts one process per measurement.

`--warm N` is icepool's in-process figure, the peer of criterion's warm medians: after the
first evaluation, N more, each after emptying every cache icepool keeps between evaluations
(memoized functions such as `d`, each evaluator's table of finished evaluations, the
binomial rows), so each computes the whole answer again in a process whose code has run.

`--calls N` is for counting instructions under a tool (`benches/instructions.sh`): the first
evaluation, every cache emptied, then N - 1 more evaluations with the caches emptied between
them, and no clocks. Emptying the caches walks every object in the process, far more work than
a small evaluation, so it is done once after the first evaluation whatever N is: the count of
`--calls 2` less that of `--calls 1` is one warm evaluation and one comparison of results.
"""

import functools
import gc
import statistics
import sys
import time

import icepool
import icepool.math
from icepool.evaluator.multiset_evaluator_base import MultisetEvaluatorBase


def forget_everything() -> None:
    """Empties the caches icepool keeps from one evaluation to the next: its memoized
    functions (`d(6)` then makes a new die, whose own tables start empty), each evaluator's
    finished evaluations and the binomial rows."""
    for thing in gc.get_objects():
        if isinstance(thing, MultisetEvaluatorBase) and hasattr(thing, "_cache"):
            thing._cache.clear()
        elif isinstance(thing, functools._lru_cache_wrapper) and getattr(
            thing, "__module__", ""
        ).startswith("icepool"):
            thing.cache_clear()
    icepool.math.comb_row_cache.clear()


def timed(code, scope) -> tuple[object, float, float]:
    """The value of `code` with its wall-clock and CPU seconds."""
    start, cpu_start = time.perf_counter(), time.process_time()
    value = eval(code, scope)
    return value, time.perf_counter() - start, time.process_time() - cpu_start


def main(argv: list[str]) -> int:
    if argv == ["--version"]:
        print(icepool.__version__)
        return 0
    show = bool(argv) and argv[0] == "--print"
    if show:
        argv = argv[1:]
    warm = calls = 0
    if len(argv) == 3 and argv[0] == "--warm" and argv[1].isdigit() and int(argv[1]) > 0:
        warm, argv = int(argv[1]), argv[2:]
    if len(argv) == 3 and argv[0] == "--calls" and argv[1].isdigit() and int(argv[1]) > 0:
        calls, argv = int(argv[1]), argv[2:]
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    code = compile(argv[0], "<expression>", "eval")
    scope = {"icepool": icepool, "d": icepool.d}

    if calls:
        die = eval(code, scope)
        forget_everything()
        for later in range(1, calls):
            if later > 1:
                forget_everything()
            if eval(code, scope) != die:
                print("a later evaluation differed from the first", file=sys.stderr)
                return 1
        print(fingerprint(die))
        return 0

    die, seconds, cpu = timed(code, scope)
    if warm:
        walls, cpus = [], []
        for _ in range(warm):
            forget_everything()
            again, wall, cpu = timed(code, scope)
            if again != die:
                print("a warm evaluation differed from the first", file=sys.stderr)
                return 1
            walls.append(wall)
            cpus.append(cpu)
        seconds, cpu = statistics.median(walls), statistics.median(cpus)

    if show:
        print("\n".join(f"{outcome} {count}" for outcome, count in die.items()))
        return 0
    print(f"seconds={seconds:e} cpu={cpu:e} {fingerprint(die)}")
    return 0


def fingerprint(die) -> str:
    """The exact total, sum of outcome*count and sum of outcome^2*count, as the Rust engines
    print them."""
    total = sum_ = sum_squares = 0
    for outcome, count in die.items():
        total += count
        sum_ += outcome * count
        sum_squares += outcome * outcome * count
    return f"total={total} sum={sum_} sumsq={sum_squares}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
