"""What every benchmark needs: real processes on chosen cores, their CPU time and memory,
medians, and one shape for results."""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
CLK_TCK = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count() or 1


@dataclass
class Target:
    """A goal from the issue: what it asks, what was measured, and whether it was met."""

    goal: str
    measured: str
    met: bool
    note: str = ""


@dataclass
class Section:
    """One benchmark's results: a table (figures beside their baselines), its method, targets."""

    title: str
    method: str
    columns: list[str]
    rows: list[list[Any]]
    targets: list[Target] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)  # everything measured, for results.json


C = TypeVar("C")
Runs = dict[str, list[dict[str, Any]]]


def interleaved(configs: dict[str, C], runs: int,
                measure: Callable[[C], dict[str, Any]]) -> Runs:
    """Each configuration measured ``runs`` times, interleaved, so a noisy minute hits every
    configuration alike: the figures of each run by configuration."""
    raw: Runs = {name: [] for name in configs}
    for _ in range(runs):
        for name, config in configs.items():
            raw[name].append(measure(config))
    return raw


def phase_median(raw: Runs) -> Callable[[str, str, str], float]:
    """``med(configuration, phase, figure)``: the median over its runs."""
    def med(name: str, phase: str, key: str) -> float:
        return median([r[phase][key] for r in raw[name]])
    return med


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def percentile(xs: list[float], p: float) -> float:
    """The p-th percentile (0-100), nearest rank."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pinned(cpu: int | None) -> list[str]:
    """A command prefix running on one core (``taskset``), when there is one to choose."""
    if cpu is None or shutil.which("taskset") is None:
        return []
    return ["taskset", "-c", str(cpu % CORES)]


def wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port} after {timeout} s")


#: A node's settings for load from one address: rate limits out of the way, and the
#: registration limit off (every benchmark player registers from 127.0.0.1).
FAST = {"SAMEDEAL_RATE_PER_SECOND": "1000000", "SAMEDEAL_RATE_BURST": "1000000",
        "SAMEDEAL_FLOOD_AFTER": "1000000", "SAMEDEAL_SIGNUP_BURST": "0"}


def start_redis(cpu: int | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """A throwaway redis-server on a free loopback port: (process, URL)."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise RuntimeError("redis-server is not installed: run `make redis`")
    port = free_port()
    work = tempfile.mkdtemp(prefix="bench-redis-")
    proc = subprocess.Popen([*pinned(cpu), exe, "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no", "--dir", work],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    wait_port(port, proc)
    return proc, f"redis://127.0.0.1:{port}/0"


def start_server(kind: str, cpu: int | None = None, redis_url: str = "",
                 env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """``samedeal`` (the real server, on ``redis_url``), ``echo`` (the baseline: a bare
    starlette WebSocket echo on the same uvicorn) or ``floor`` (a move's input and output
    alone, bench/floor.py), one process on one core: (process, port)."""
    port = free_port()
    if kind == "samedeal":
        args = [sys.executable, "-m", "engine.cli", "serve", "--port", str(port),
                "--log-level", "warning", "--redis-url", redis_url]
    else:
        env = (env or {}) | {"SAMEDEAL_REDIS_URL": redis_url}
        args = [sys.executable, "-m", "uvicorn", f"bench.{kind}:app", "--port", str(port),
                "--log-level", "warning", "--ws", "websockets-sansio", "--no-access-log",
                "--ws-per-message-deflate", "false"]  # as `samedeal serve` runs by default
    proc = subprocess.Popen([*pinned(cpu), *args], cwd=ROOT, env=os.environ | (env or {}),
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    wait_port(port, proc)
    return proc, port


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def fmt(x: float, digits: int = 3) -> str:
    """A figure with ``digits`` significant digits; large ones whole, thousands grouped."""
    if x != x:  # nan
        return "n/a"
    if abs(x) >= 10 ** (digits - 1):
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"
