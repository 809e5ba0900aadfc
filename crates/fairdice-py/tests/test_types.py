"""The type stubs of the extension match it (mypy's stubtest), and the package
type-checks under mypy --strict. Skipped, saying so, where mypy is not installed
(scripts/test-python.sh installs it in its Python 3.11 environment)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("mypy", reason="mypy is not installed in this environment (pip install mypy)")


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True)


def test_the_stubs_match_the_extension():
    done = mypy("mypy.stubtest", "fairdice._native")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_package_type_checks_strictly():
    done = mypy("mypy", "--strict", "--no-incremental", "-p", "fairdice")
    assert done.returncode == 0, done.stdout + done.stderr
