"""The move counter and latency histogram, counted without prometheus_client's locks
(server/metrics.py ``Moves``), scrape exactly as prometheus_client's own Counter and Histogram
fed the same moves: the same series, labels and values."""

from __future__ import annotations

import gc
import random

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from server.metrics import MOVE_BUCKETS, Metrics


def series(exposition: bytes) -> list[str]:
    """The scrape's sample lines, without the ``_created`` timestamps (when each started)."""
    return sorted(line for line in exposition.decode().splitlines()
                  if line.startswith(("samedeal_moves", "samedeal_move_seconds"))
                  and "_created" not in line)


def test_moves_scrape_as_prometheus_clients_own_metrics() -> None:
    ours = Metrics()
    registry = CollectorRegistry()
    counter = Counter("samedeal_moves", "Moves accepted, undone or resigned", ["op"],
                      registry=registry)
    histogram = Histogram("samedeal_move_seconds",
                          "Time from a move's arrival to its acknowledgement",
                          buckets=MOVE_BUCKETS, registry=registry)
    assert series(generate_latest(ours.registry)) == series(generate_latest(registry))
    rng = random.Random(25)
    # Values on the bounds too: a bucket counts what is at most its bound.
    seconds = [*MOVE_BUCKETS, 0.0, 2.5, *(rng.uniform(0, 1.2) for _ in range(500))]
    for s in seconds:
        op = rng.choice(["move", "move", "undo", "resign"])
        ours.moved(op, s)
        counter.labels(op).inc()
        histogram.observe(s)
    got, expected = series(generate_latest(ours.registry)), series(generate_latest(registry))
    assert got == expected
    assert 'samedeal_move_seconds_bucket{le="0.0005"} 2.0' in got  # 0.0 and 0.0005
    text = generate_latest(ours.registry).decode()
    for created in ('samedeal_moves_created{op="undo"}', "samedeal_move_seconds_created"):
        assert created in text


def test_collector_pauses_are_timed_while_watched() -> None:
    """Each garbage collection is one observation of its generation's pause, while the
    metrics watch the collector, and none after."""
    ours = Metrics()

    def count(generation: str) -> float:
        for line in generate_latest(ours.registry).decode().splitlines():
            if line.startswith(f'samedeal_gc_pause_seconds_count{{generation="{generation}"}}'):
                return float(line.split()[-1])
        return 0.0

    unwatch = ours.watch_collector()
    gc.collect(2)
    gc.collect(0)
    unwatch()
    full, young = count("2"), count("0")
    assert full >= 1 and young >= 1
    gc.collect(2)
    assert count("2") == full  # no longer watched
