"""Shared fixtures: brute-force enumeration of small dice, and the `fairdice`
command line for comparisons (built by scripts/test-python.sh)."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


def enumerate_rolls(dice: list[range], combine) -> dict[int, int]:
    """Every roll of `dice` (ranges of faces), combined into an outcome: exact counts."""
    return dict(Counter(combine(roll) for roll in itertools.product(*dice)))


@pytest.fixture(scope="session")
def cli() -> Path:
    """The `fairdice` binary: $FAIRDICE_CLI, target/release/fairdice, or one on PATH."""
    candidates = [os.environ.get("FAIRDICE_CLI"), str(REPO / "target" / "release" / "fairdice"), shutil.which("fairdice")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    pytest.skip("the fairdice command is not built (cargo build --release -p fairdice-cli); scripts/test-python.sh builds it")


def run_cli(cli: Path, *args: str, stdin: str | None = None) -> str:
    done = subprocess.run([str(cli), *args], capture_output=True, text=True, input=stdin, check=True)
    return done.stdout
