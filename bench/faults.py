"""Faults, and what players saw through them: the fault tests (tests/deploy/test_failover.py
on one Redis behind nginx, tests/server/test_cluster.py on a three-shard Redis Cluster) run as
the suite runs them, each recording its figures (tests/fault_figures.py), tabulated here.

    python -m bench faults [--quick]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.fault_figures import rows

from .common import Section, Target

ROOT = Path(__file__).resolve().parent.parent
TESTS = ["tests/deploy/test_failover.py", "tests/server/test_cluster.py"]


def run(quick: bool = False) -> Section:
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "figures.jsonl")
        tests = TESTS[:1] if quick else TESTS
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *tests],
            cwd=ROOT, env={**os.environ, "SAMEDEAL_FAULT_FIGURES": out},
            capture_output=True, text=True)
        figures = rows(out) if os.path.exists(out) else []
    table = [[f["fault"], f["store"], f["acknowledged"], f["lost"], f["duplicated"],
              ", ".join(f"{c} {n}" for c, n in sorted(f["errors"].items())) or "none",
              f["no_close_frame"],
              "-" if f["recovery_s"] is None else f"{f['recovery_s']:.1f}"] for f in figures]
    clean = all(f["lost"] == f["duplicated"] == 0 and "server.error" not in f["errors"]
                for f in figures)
    return Section(
        "Faults: what players saw",
        "Each fault test plays a race (20 bots through nginx and two nodes on one Redis; 10 "
        "bots on two nodes on a 3-primary, 3-replica cluster) or daily attempts, and "
        "disrupts it a third of the way in. Lost: acknowledged moves missing from their "
        "stored game; duplicated: stored moves no request asked for at that revision; "
        "no close frame: connections the players lost without one (only a killed process "
        "leaves those: a node, or nginx); recovery: the longest any player waited for an "
        "acknowledgement from the fault on, in seconds. The tests fail on any loss, "
        "duplicate, `server.error`, or frameless close the fault does not explain. "
        f"pytest: {done.stdout.strip().splitlines()[-1] if done.stdout.strip() else '?'}.",
        ["fault", "store", "acknowledged", "lost", "duplicated", "errors", "no close frame",
         "recovery (s)"], table,
        [Target("every fault: nothing lost or duplicated, no server.error",
                f"{len(figures)} faults, {'all clean' if clean else 'not all clean'}",
                clean and done.returncode == 0 and bool(figures))],
        {"figures": figures, "returncode": done.returncode})
