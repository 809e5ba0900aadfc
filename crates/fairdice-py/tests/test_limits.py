"""Work too large for the budget is refused before it starts, with a
`TooLargeError` that names its size: never an allocation that aborts the
interpreter (a notebook's kernel) or a loop that Ctrl-C cannot stop. Each case runs
in its own interpreter under a 3 GiB address-space cap and a time limit, so a
regression fails the test instead of the test run."""

from __future__ import annotations

import resource
import subprocess
import sys
import textwrap

import pytest

import fairdice

CAP = 3 << 30
SECONDS = 60


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def refused(code: str) -> str:
    """Runs `code` (which must raise) in a capped interpreter; the error's message."""
    script = textwrap.dedent(
        """
        import fairdice
        from fairdice import d, Die
        try:
        {body}
        except fairdice.TooLargeError as error:
            print("TooLargeError:", error)
        else:
            print("answered")
        """
    ).format(body=textwrap.indent(textwrap.dedent(code), "    "))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=SECONDS, preexec_fn=_capped
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("TooLargeError:"), done.stdout + done.stderr
    return done.stdout


def test_products_of_large_dice_are_priced_before_their_pairs_are_made():
    message = refused(
        """
        x = d(1000)
        for _ in range(3):
            x = x * d(1000)
        """
    )
    assert "of memory (the limit is 2.0 GiB)" in message


@pytest.mark.parametrize("sides", ["10**9", "2**70"])
def test_a_die_too_large_to_hold_is_refused_with_its_size(sides):
    assert "of memory" in refused(f"d({sides})")
    assert "of memory" in refused(f"Die(range({sides}))")


def test_a_deep_explosion_is_refused_with_its_estimate():
    message = refused("d(6).explode(depth=10**6)")
    assert "it would take about" in message and "steps" in message


def test_what_fits_still_answers():
    assert fairdice.d(6).explode(depth=100).max_outcome() == 606
    x = fairdice.d(100) * fairdice.d(100)
    assert x.total == 10_000 and len(fairdice.d(10**6)) == 10**6

