"""Times the first exact evaluation of one icepool expression in a fresh process.

Usage: python icepool_dice.py EXPRESSION          -> seconds=... cpu=... total=... sum=... sumsq=...
       python icepool_dice.py --print EXPRESSION  -> the distribution, one `outcome count` a line
       python icepool_dice.py --version           -> icepool's version

EXPRESSION is Python evaluated with `icepool` and `d = icepool.d` in scope, e.g. `100 @ d(6)`
or `d(10).highest(100, 10)`. Only the evaluation is timed, in wall time and in the process's
CPU time: the interpreter start, the import of icepool and the compilation of the expression
text happen before the clocks start, and the fingerprint (exact total, sum of outcome*count,
sum of outcome^2*count, the same three numbers the Rust engines print) is computed after they
stop. icepool caches what it computes, so only the first evaluation in a process says what a
user waits for; the runner starts one process per measurement.
"""

import sys
import time

import icepool


def main(argv: list[str]) -> int:
    if argv == ["--version"]:
        print(icepool.__version__)
        return 0
    show = bool(argv) and argv[0] == "--print"
    if show:
        argv = argv[1:]
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    code = compile(argv[0], "<expression>", "eval")
    scope = {"icepool": icepool, "d": icepool.d}

    start, cpu_start = time.perf_counter(), time.process_time()
    die = eval(code, scope)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start

    if show:
        print("\n".join(f"{outcome} {count}" for outcome, count in die.items()))
        return 0
    total = sum_ = sum_squares = 0
    for outcome, count in die.items():
        total += count
        sum_ += outcome * count
        sum_squares += outcome * outcome * count
    print(f"seconds={seconds:e} cpu={cpu:e} total={total} sum={sum_} sumsq={sum_squares}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
