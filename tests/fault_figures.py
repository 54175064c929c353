"""What a run under a fault measured, the same way for every fault and both stores: moves
acknowledged, acknowledged moves missing from their transcript (lost), stored moves no request
asked for at that revision (duplicated), the error codes players met, connections lost with no
close frame, and the recovery: the longest any player waited for an acknowledgement from the
fault on.

Each fault test records its figures (printed, and appended as a JSON line to the file named by
``SAMEDEAL_FAULT_FIGURES`` when set: ``python -m bench faults`` runs the tests that way and
tabulates them) and then holds them to the promise: nothing lost, nothing duplicated, no
``server.error``, and no connection lost without a close frame unless the fault killed the
process holding it (a node killed, the balancer restarted)."""

from __future__ import annotations

import itertools
import json
import os
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Tally:
    """One player's side of a fault run."""

    sent: list[tuple[int, str]] = field(default_factory=list)  # (rev chosen at, move)
    acked: list[tuple[int, str]] = field(default_factory=list)  # (rev after, move)
    acked_at: list[float] = field(default_factory=list)  # loop time of each acknowledgement
    errors: Counter[str] = field(default_factory=Counter)


@dataclass
class Figures:
    fault: str
    store: str
    acknowledged: int
    lost: int
    duplicated: int
    errors: dict[str, int]
    no_close_frame: int
    recovery_s: float | None

    def line(self) -> str:
        errors = ", ".join(f"{c} {n}" for c, n in sorted(self.errors.items())) or "none"
        recovery = "-" if self.recovery_s is None else f"{self.recovery_s:.1f} s"
        return (f"{self.fault} ({self.store}): {self.acknowledged} acknowledged, {self.lost} "
                f"lost, {self.duplicated} duplicated; errors: {errors}; "
                f"{self.no_close_frame} closed with no frame; recovered in {recovery}")


def measure(fault: str, store: str, runs: list[tuple[Tally, list[str]]], lost_codes: list[int],
            began: float | None) -> Figures:
    """``runs``: each player's tally with its session's stored moves, read after the run."""
    lost = duplicated = 0
    errors: Counter[str] = Counter()
    recovered: list[float] = []
    for tally, moves in runs:
        lost += sum(1 for rev, move in tally.acked
                    if len(moves) < rev or moves[rev - 1] != move)
        asked = set(tally.sent)
        duplicated += sum(1 for i, move in enumerate(moves) if (i, move) not in asked)
        errors += tally.errors
        if began is not None:  # the longest this player waited for an ack from the fault on
            times = [began, *(t for t in tally.acked_at if t >= began)]
            recovered.append(max((b - a for a, b in itertools.pairwise(times)), default=0.0))
    return Figures(fault, store, sum(len(t.acked) for t, _ in runs), lost, duplicated,
                   dict(errors), sum(1 for c in lost_codes if c == 1006),
                   max(recovered) if recovered else None)


def record(figures: Figures, frames_may_drop: bool = False) -> None:
    """Report the figures, then hold them to the promise (the module's docstring)."""
    print("\n" + figures.line())
    path = os.environ.get("SAMEDEAL_FAULT_FIGURES")
    if path:
        with open(path, "a") as out:
            out.write(json.dumps(asdict(figures)) + "\n")
    assert figures.lost == 0 and figures.duplicated == 0, figures.line()
    assert "server.error" not in figures.errors, figures.line()
    if not frames_may_drop:
        assert figures.no_close_frame == 0, figures.line()


def rows(path: str) -> list[dict[str, Any]]:
    with open(path) as lines:
        return [json.loads(line) for line in lines if line.strip()]
