"""Prometheus metrics, one registry per app (so tests and workers never share globals)."""

from __future__ import annotations

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from starlette.requests import Request
from starlette.responses import Response


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.moves = Counter("samedeal_moves", "Moves accepted, undone or resigned",
                             ["op"], registry=r)
        self.errors = Counter("samedeal_errors", "Errors sent to clients", ["code"],
                              registry=r)
        self.sockets = Gauge("samedeal_sockets", "Open WebSocket connections", registry=r)
        self.races = Counter("samedeal_races", "Race transitions", ["event"], registry=r)
        self.latency = Histogram(
            "samedeal_move_seconds", "Time from a move's arrival to its acknowledgement",
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0),
            registry=r)
        self.loop = Gauge("samedeal_event_loop", "The event loop this process runs on (1)",
                          ["loop"], registry=r)
        self._moves_by_op: dict[str, Counter] = {}

    def moved(self, op: str, seconds: float) -> None:
        """One accepted change: on every move's path, so the labelled child is kept."""
        child = self._moves_by_op.get(op)
        if child is None:
            child = self._moves_by_op[op] = self.moves.labels(op)
        child.inc()
        self.latency.observe(seconds)

    async def endpoint(self, request: Request) -> Response:
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)
