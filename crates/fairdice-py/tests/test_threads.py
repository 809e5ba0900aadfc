"""Long computations release the GIL, and Ctrl-C (KeyboardInterrupt) stops them
through the shared Control's cancel switch."""

from __future__ import annotations

import _thread
import signal
import threading
import time

import pytest

import fairdice


@pytest.fixture(autouse=True)
def ctrl_c_raises_keyboard_interrupt():
    """Python's own SIGINT handler, as in a terminal or a notebook: a process
    started in the background (a CI job, `cmd &`) begins with SIGINT ignored, and
    then neither Ctrl-C nor `_thread.interrupt_main()` raises anything."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)

# About two seconds of exact work on this project's 2-core machines. The face 1
# weighs twice: sums of equal-weight dice take a recurrence that answers `60d1000`
# in a tenth of a second, too soon to be interrupted.
LONG = "60d{1,1..1000}"
UNEVEN_D1000 = fairdice.Die([1, *range(1, 1001)])


def test_another_thread_keeps_running_during_a_computation():
    finished = []
    worker = threading.Thread(target=lambda: finished.append(fairdice.dist("25d{1,1..1000}")))
    worker.start()
    start = time.perf_counter()
    iterations = 0
    seen_running = 0.0
    while worker.is_alive():
        iterations += 1
        seen_running = time.perf_counter() - start
    worker.join()
    assert finished and finished[0].total == 1001**25
    # The main thread ran Python code the whole time the computation did.
    assert seen_running > 0.1, seen_running
    assert iterations > 10_000, iterations


def test_two_computations_run_at_once():
    results = {}

    def compute(name):
        results[name] = fairdice.dist("3d6", runs=2_000_000, seed=len(name))

    threads = [threading.Thread(target=compute, args=(n,)) for n in ("a", "bb")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {k: v.total for k, v in results.items()} == {"a": 2_000_000, "bb": 2_000_000}


def test_ctrl_c_stops_a_long_computation():
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        fairdice.dist(LONG)
    stopped = time.perf_counter() - start
    timer.join()
    assert stopped < 1.2, stopped
    # The worker stopped too: the process is idle afterwards.
    cpu = time.process_time()
    time.sleep(0.3)
    assert time.process_time() - cpu < 0.1
    # And the next computation runs normally.
    assert fairdice.dist("3d6").total == 216


def test_ctrl_c_stops_a_monte_carlo_run_and_dice_arithmetic():
    for compute in (lambda: fairdice.dist("3d6", runs=10**8, max_steps=10**10), lambda: 60 @ UNEVEN_D1000):
        timer = threading.Timer(0.3, _thread.interrupt_main)
        start = time.perf_counter()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            compute()
        timer.join()
        assert time.perf_counter() - start < 1.2
