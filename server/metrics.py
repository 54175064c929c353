"""Prometheus metrics, one registry per app (so tests and workers never share globals)."""

from __future__ import annotations

import bisect
import gc
import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.metrics_core import (
    CounterMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from prometheus_client.samples import Sample
from starlette.requests import Request
from starlette.responses import Response

#: The move latency histogram's upper bounds, in seconds.
MOVE_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0)
#: The garbage collector's pause histogram's upper bounds, in seconds.
GC_BUCKETS = (0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1)


class Moves(Collector):
    """``samedeal_moves_total{op}`` and ``samedeal_move_seconds``, counted on every move's path
    in plain integers and floats (one event loop writes and scrapes them: no lock, where
    prometheus_client's own counter and histogram take one per update), and shown at a scrape
    as those would be."""

    def __init__(self) -> None:
        self.created = time.time()
        self.by_op: dict[str, int] = {}
        self.op_created: dict[str, float] = {}
        self.buckets = [0] * (len(MOVE_BUCKETS) + 1)  # the last: above every bound
        self.total_seconds = 0.0

    def moved(self, op: str, seconds: float) -> None:
        count = self.by_op.get(op)
        if count is None:
            count = 0
            self.op_created[op] = time.time()
        self.by_op[op] = count + 1
        self.buckets[bisect.bisect_left(MOVE_BUCKETS, seconds)] += 1
        self.total_seconds += seconds

    def collect(self) -> Iterator[Metric]:
        moves = CounterMetricFamily("samedeal_moves", "Moves accepted, undone or resigned",
                                    labels=["op"])
        for op, count in self.by_op.items():
            moves.add_metric([op], count, created=self.op_created[op])
        yield moves
        latency = HistogramMetricFamily(
            "samedeal_move_seconds", "Time from a move's arrival to its acknowledgement")
        so_far, cumulative = 0, []
        for bound, count in zip([*map(str, MOVE_BUCKETS), "+Inf"], self.buckets, strict=True):
            so_far += count
            cumulative.append((bound, so_far))
        latency.add_metric([], cumulative, self.total_seconds)
        latency.samples.append(Sample("samedeal_move_seconds_created", {}, self.created))
        yield latency


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.moves = Moves()
        r.register(self.moves)
        self.errors = Counter("samedeal_errors", "Errors sent to clients", ["code"],
                              registry=r)
        self.sockets = Gauge("samedeal_sockets", "Open WebSocket connections", registry=r)
        self.cached_sessions = Gauge("samedeal_cached_sessions", "Game states in play this "
                                     "process keeps (at most cache_size)", registry=r)
        self.races = Counter("samedeal_races", "Race transitions", ["event"], registry=r)
        self.board_reads = Counter("samedeal_board_reads", "Reads of a watched board (one per "
                                   "board per second at most, however many sockets watch it)",
                                   registry=r)
        self.board_updates = Counter("samedeal_board_updates", "board.update events sent",
                                     registry=r)
        self.hints = Counter("samedeal_hints", "Hints served, by source (solver: the next "
                             "move of a winning line; heuristic: a likely move; none: no "
                             "legal move) and whether a search ran for it", ["source", "searched"],
                             registry=r)
        self.analyses = Counter("samedeal_analyses", "Post-game analyses: computed by this "
                                "node's job, and requests answered ready or pending",
                                ["what"], registry=r)
        # The winnable daily deals' job (server/daily/winnable.py): decisions only, never how many
        # candidates each took (that would say which candidate was dealt before the reveal).
        self.winnable_decided = Counter(
            "samedeal_winnable_decided",
            "Daily (day, rule set) choices this node decided, the live edition's too",
            registry=r)
        self.loop = Gauge("samedeal_event_loop", "The event loop this process runs on (1)",
                          ["loop"], registry=r)
        self.gc_pauses = Histogram(
            "samedeal_gc_pause_seconds", "Garbage-collector pauses (every request in the "
            "process waits them out), by generation", ["generation"], buckets=GC_BUCKETS,
            registry=r)

    def watch_collector(self) -> Callable[[], None]:
        """Time every garbage collection from now on; returns how to stop. A slow move with no
        slow step of its own may have waited behind one (bench/results.md, the p99)."""
        started = [0.0]

        def timed(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                started[0] = time.perf_counter()
            else:
                self.gc_pauses.labels(str(info["generation"])).observe(
                    time.perf_counter() - started[0])

        gc.callbacks.append(timed)
        return lambda: gc.callbacks.remove(timed)

    def moved(self, op: str, seconds: float) -> None:
        """One accepted change (undo, resignation), ``seconds`` after it arrived."""
        self.moves.moved(op, seconds)

    async def endpoint(self, request: Request) -> Response:
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)
