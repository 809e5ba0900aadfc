"""fairdice from Python against icepool 2.2.2, first call after import.

Every case runs in a fresh interpreter per engine and measurement: the child imports
its engine, compiles the case's code, then times only its first evaluation (wall
clock and the process's CPU time); icepool caches what it computes, so only a first
call says what a user waits for. Engines alternate, so a change in the machine's
load falls on all alike. Each child also prints a fingerprint of its answer, and
the runner refuses a case whose engines disagree.

    python benches/python/bench.py                 # every case, 7 processes each
    python benches/python/bench.py --runs 15 --case 4d6kh3 --case isaksen

Run it with a Python that has both fairdice and icepool 2.2.2 (scripts/test-python.sh
makes target/python/venv-3.12 with both). See benches/python/README.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHES = HERE.parent
GOAL = 20.0


def dice_cases() -> dict[str, dict[str, str]]:
    """The exact dice cases of benches/cases/dice.tsv, in each engine's spelling."""
    lines = [l for l in (BENCHES / "cases" / "dice.tsv").read_text().splitlines() if l and not l.startswith("#")]
    rows = csv.DictReader(lines, delimiter="\t")
    return {
        row["case"]: {
            "fairdice": f"fairdice.dist({row['fairdice']!r})",
            "fairdice Die API": row["icepool"],
            "icepool": row["icepool"],
        }
        for row in rows
    }


CONTESTS = {
    "isaksen": {"fairdice": "isaksen_fairdice()", "icepool": "isaksen_icepool()"},
    "5d6 v 5d6": {"fairdice": "contest_fairdice(6, 5)", "icepool": "contest_icepool(6, 5)"},
    "10d20 v 10d20": {"fairdice": "contest_fairdice(20, 10)", "icepool": "contest_icepool(20, 10)"},
    "20d6 v 20d6": {"fairdice": "contest_fairdice(6, 20)", "icepool": "contest_icepool(6, 20)"},
}


# ---------------------------------------------------------------- child side


def isaksen_games() -> list[tuple[str, str, str, str]]:
    """The 78 rows of Isaksen et al. (2016), as (pool A, pool B, pairing, ties), in
    the order of benches/peers/icepool_contests.py."""
    sizes, counts = [2, 4, 6, 8, 10], range(1, 6)
    rows = []

    def table(pairing: str, ties: str) -> None:
        rows.extend((f"5d{s}", f"5d{s}", pairing, ties) for s in sizes)

    def by_count(pairing: str, ties: str) -> None:
        rows.extend((f"{n}d6", f"{n}d6", pairing, ties) for n in counts)

    def mixed(parts: list[tuple[int, int]]) -> str:
        return "+".join(f"{n}d{s}" for s, n in parts if n)

    table("sorted", "stand"), by_count("sorted", "stand")
    table("unsorted", "stand"), by_count("unsorted", "stand")
    table("sorted", "a-wins"), table("unsorted", "a-wins")
    rows.extend((f"{a}d6", "5d6", "sorted", "a-wins") for a in range(2, 6))
    rows.extend((f"{a}d6", f"{a + 1}d6", "sorted", "a-wins") for a in range(1, 5))
    swaps = [mixed([(6, 5 - k), (8, k)]) for k in range(6)]
    rows.extend(("5d6", b, "sorted", "a-wins") for b in swaps)
    for named in ([(6, 3), (8, 1), (10, 1)], [(6, 2), (8, 3)], [(6, 3), (10, 2)]):
        rows.append(("5d6", mixed(named), "sorted", "a-wins"))
    rows.extend(("5d6", b, "unsorted", "a-wins") for b in swaps)
    for mix in ((3, 2, 0), (3, 1, 1), (2, 3, 0), (3, 0, 2), (2, 2, 1)):
        rows.append(("5d6", mixed([(6, mix[0]), (8, mix[1]), (10, mix[2])]), "unsorted", "a-wins"))
    table("sorted", "reroll"), by_count("sorted", "reroll")
    table("unsorted", "reroll"), by_count("unsorted", "reroll")
    return rows


def child(engine: str, case: str) -> None:
    import importlib.util

    scope: dict = {}
    if engine.startswith("fairdice"):
        import fairdice

        scope["fairdice"] = fairdice
        scope["d"] = fairdice.d

        def contest_fairdice(sides: int, n: int) -> list[tuple]:
            r = fairdice.contest(f"{n}d{sides}", f"{n}d{sides}")
            return [(r.win_bias, r.tie_percent, r.closeness)]

        def isaksen_fairdice() -> list[tuple]:
            out = []
            for a, b, pairing, ties in isaksen_games():
                r = fairdice.contest(a, b, pairing=pairing, ties=ties)
                out.append((r.win_bias, r.tie_percent, r.closeness))
            return out

        scope.update(contest_fairdice=contest_fairdice, isaksen_fairdice=isaksen_fairdice)
    else:
        import icepool

        spec = importlib.util.spec_from_file_location("peer", BENCHES / "peers" / "icepool_contests.py")
        peer = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(peer)
        scope.update(icepool=icepool, d=icepool.d)
        scope["contest_icepool"] = lambda sides, n: [peer.sorted_contest(icepool, sides, n)]
        scope["isaksen_icepool"] = lambda: peer.isaksen(icepool)
    all_cases = {**dice_cases(), **CONTESTS}
    code = compile(all_cases[case][engine], "<case>", "eval")

    wall, cpu = time.perf_counter(), time.process_time()
    result = eval(code, scope)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu

    if isinstance(result, list):  # contests: the measures of every row
        fingerprint = [[round(x, 9) for x in row] for row in result]
    else:  # a die: total, sum of outcome*count, sum of outcome^2*count
        total = sum(c for _, c in result.items())
        fingerprint = [str(total), str(sum(int(o) * c for o, c in result.items())),
                       str(sum(int(o) ** 2 * c for o, c in result.items()))]
    print(json.dumps({"wall": wall, "cpu": cpu, "fingerprint": fingerprint}))


# ---------------------------------------------------------------- runner side


def measure(python: str, engine: str, case: str) -> dict:
    done = subprocess.run([python, __file__, "--child", engine, case], capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    return json.loads(done.stdout)


def duration(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="fresh processes per case and engine")
    parser.add_argument("--case", action="append", help="only these cases")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return 0

    import fairdice
    import icepool

    cases = {**dice_cases(), **CONTESTS}
    chosen = args.case or list(cases)
    print(f"fairdice from {Path(fairdice.__file__).parent}; icepool {icepool.__version__}; "
          f"Python {sys.version.split()[0]}; {args.runs} fresh processes per case and engine; medians\n")
    rows, failed = [], False
    for case in chosen:
        engines = list(cases[case])
        samples: dict[str, list[dict]] = {e: [] for e in engines}
        for _ in range(args.runs):
            for engine in engines:
                samples[engine].append(measure(sys.executable, engine, case))
        errors = {e: s[0]["error"] for e, s in samples.items() if "error" in s[0]}
        if errors:
            print(f"{case}: not measured: {errors}")
            failed = True
            continue
        fingerprints = {json.dumps(s["fingerprint"]) for e in engines for s in samples[e]}
        if len(fingerprints) != 1:
            print(f"{case}: the engines DISAGREE: {sorted(fingerprints)[:2]}")
            failed = True
            continue
        med = {e: {k: statistics.median(s[k] for s in samples[e]) for k in ("cpu", "wall")} for e in engines}
        ratio = med["icepool"]["cpu"] / med["fairdice"]["cpu"]
        rows.append((case, med, ratio))
    header = "| case | fairdice CPU | fairdice Die API CPU | icepool CPU | icepool/fairdice CPU | fairdice wall | icepool wall | icepool/fairdice wall | goal ≥ 20× |"
    print(header)
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for case, med, ratio in rows:
        die_api = duration(med["fairdice Die API"]["cpu"]) if "fairdice Die API" in med else "—"
        wall_ratio = med["icepool"]["wall"] / med["fairdice"]["wall"]
        verdict = "met" if ratio >= GOAL else "NOT met"
        failed |= ratio < GOAL
        print(f"| {case} | {duration(med['fairdice']['cpu'])} | {die_api} | {duration(med['icepool']['cpu'])} | "
              f"×{ratio:.0f} | {duration(med['fairdice']['wall'])} | {duration(med['icepool']['wall'])} | ×{wall_ratio:.0f} | {verdict} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
