"""Shared fixtures. Real components: a redis-server on a free loopback port and SameDeal
server processes (``samedeal serve``) on loopback, started once per test run (each forked from
a process that imported the server: ``start_node``); the engine's hypothesis profile.

A module marked ``both_stores`` runs its tests that use the nodes (or ``store_url``) twice:
on the one redis-server, then on a real Redis Cluster (three primaries, three replicas,
tests/cluster.py)."""

from __future__ import annotations

import compileall
import gc
import itertools
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
from hypothesis import HealthCheck, settings

from tests.server.client import TLS, Node, Rest, Ws

if TYPE_CHECKING:
    from tests.beacon_server import LocalBeacon
    from tests.cluster import Cluster
    from tests.server.forks import ForkedProcess, Forks

    #: A node's process: started as a command, or forked (tests/server/forks.py).
    NodeProcess = subprocess.Popen[bytes] | ForkedProcess

# Deterministic in CI and locally: the same examples every run, no wall-clock deadline
# (the machines are noisy; speed is measured in bench/, never asserted here).
settings.register_profile(
    "samedeal", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("samedeal")

ROOT = Path(__file__).resolve().parents[1]
# The suite registers thousands of players from 127.0.0.1 (one registration bucket for every
# node on the shared Redis): every node it starts has the registration limit off, and the
# tests of the limit start nodes of their own (tests/server/test_signups.py).
#
# The suite also plays the day's deals with accounts made that day, so they rank. Every node on
# the shared Redis must agree on that: any node's sweep may record another node's ended game
# (server/followups.py), and one that did not let new accounts rank would leave it off the board.
# Its requests without a token (registrations, public pages) all come from that one address
# too: the origin limit is off on the same grounds (tests/server/test_limits.py tests it).
SUITE_ACCOUNTS = {"SAMEDEAL_SIGNUP_BURST": "0", "SAMEDEAL_DAILY_RANK_NEW_ACCOUNTS": "1",
                  "SAMEDEAL_ORIGIN_BURST": "0"}
# FAST also lifts the rate limits that would get in the way: a socket's, an account's, and
# the cap on an account's sockets (a load test opens 150 for one player).
#: A game is analysed when a test asks for it, not ahead (``analysis_ahead``): judged ahead,
#: every race and match the suite ends was judged in the background, a game for points
#: searching its whole budget (a bowler's frames, a Poker Square grid: 10 to 60 CPU s on the
#: busy machine), about 750 CPU s of a run's 5,400 on the busy machine. The tests of judging
#: ahead start nodes of their own with it on (tests/server/test_analysis.py). A budget the
#: suite's two cores spare (the tests are of who sees what; the search has its own), not
#: niced (tests wait for analyses, and a niced process on a busy machine waits for idle CPU).
#: Every node the suite starts has it unless the test gives its own: the queue is one per
#: store, and any node on it may judge any test's game, so two budgets would give two
#: analyses of one game.
SUITE_ANALYSIS = {"SAMEDEAL_ANALYSIS_POSITIONS": "20000", "SAMEDEAL_ANALYSIS_TOTAL": "40000",
                  "SAMEDEAL_ANALYSIS_NICE": "0", "SAMEDEAL_ANALYSIS_AHEAD": "0"}
#: The other worker pools not niced either, in a node (``SUITE_NICE_ENV``) or built in the
#: test's process (``SUITE_NICE``): a test waits for their work, and a niced process on the
#: suite's busy cores gets a sliver of them (the live edition's winnable test took 169 s
#: under the suite's load, 1.6 s alone).
SUITE_NICE = {"analysis_nice": 0, "winnable_nice": 0, "integrity_nice": 0}
SUITE_NICE_ENV = {f"SAMEDEAL_{k.upper()}": str(v) for k, v in SUITE_NICE.items()}
FAST = {"SAMEDEAL_RATE_PER_SECOND": "5000", "SAMEDEAL_RATE_BURST": "5000",
        "SAMEDEAL_ACCOUNT_PER_SECOND": "5000", "SAMEDEAL_ACCOUNT_BURST": "5000",
        "SAMEDEAL_SOCKETS_PER_ACCOUNT": "0",
        "SAMEDEAL_FLOOD_AFTER": "5000", "SAMEDEAL_ABSENT_PACE": "0.1",
        "SAMEDEAL_NODE_TIMEOUT": "4", **SUITE_ANALYSIS, **SUITE_NICE_ENV, **SUITE_ACCOUNTS}


def clear_of_midnight(margin: float = 300) -> date:
    """Today (UTC), with at least ``margin`` seconds of it left (past midnight if need be): a
    test that reads a node's day, on Redis's clock (the same machine's), runs within it."""
    now = datetime.now(UTC)
    midnight = datetime.combine(now.date() + timedelta(1), datetime.min.time(), UTC)
    left = (midnight - now).total_seconds()
    if left < margin:
        time.sleep(left + 1)
    return datetime.now(UTC).date()


def _port_band() -> range:
    """This test process's own ports: below the kernel's ephemeral range (from which it picks
    the local port of every outgoing connection, so a port found free there may be taken by
    one before the server it is for binds it), a band per pytest-xdist worker."""
    low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    start, end = (10_000, low) if low >= 20_000 else (high + 1, 65_536)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)
    size = (end - start) // max(1, workers)
    return range(start + worker * size, start + (worker + 1) * size)


#: This process's ports (free_port's).
PORTS = _port_band()
_NEXT = itertools.count(random.randrange(len(PORTS)))


def free_port() -> int:
    """A loopback port nobody listens on now, each one in turn from this process's band."""
    for _ in range(len(PORTS)):
        port = PORTS[next(_NEXT) % len(PORTS)]
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS}")


#: How long a test waits for a process to come up or for something to happen at most: a cap
#: against hanging, not a speed; generous, since a busy machine may be many times slower.
PATIENCE = 120.0


def answers(url: str, timeout: float = 1) -> int:
    """The status of a GET of ``url``, as the suite's polls for a server ask it: with the
    suite's TLS context, since ``httpx.get`` without one loads the CA bundle at every call
    (about 20 ms of CPU), and a poll every 50 ms then took half a core while it waited."""
    return httpx.get(url, timeout=timeout, verify=TLS).status_code


def wait_for(check, what: str, timeout: float = PATIENCE) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (OSError, httpx.HTTPError):
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not come up in {timeout} s")


@pytest.fixture(autouse=True)
def stated_replies() -> Iterator[None]:
    """After each test, every message its sockets received and every reply its REST clients
    got holds only fields the reply schema states (tests/server/stated.py): a field the
    server starts sending belongs in the schema, where the OpenAPI and AsyncAPI documents
    tell clients what to rely on."""
    yield
    from tests.server.stated import unstated, unstated_rest

    opened, Ws.opened[:] = list(Ws.opened), []
    made, Rest.made[:] = list(Rest.made), []
    fields = {f for ws in opened for m in ws.received for f in unstated(m)}
    fields |= {f for rest in made for reply in rest.replies for f in unstated_rest(*reply)}
    assert not fields, f"fields the reply schema does not state: {sorted(fields)}"


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.fail("redis-server is not installed: run the README's test command (make test)")
    port = free_port()
    work = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(work)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

    def ping() -> bool:
        with socket.create_connection(("127.0.0.1", port), 0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")

    wait_for(ping, "redis-server")
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(10)


def pytest_configure(config: pytest.Config) -> None:
    """The project's modules compiled to bytecode once, by the process that hands out the
    tests: the suite starts hundreds of Python processes (nodes, their worker pools, command
    lines), and each then reads the compiled modules, where on a machine set to write none
    (``PYTHONDONTWRITEBYTECODE``) each would compile every source again (about a second of
    CPU per process). And pytest's own cache of the test modules with their asserts
    rewritten is kept as such a machine would not: every worker collects every test module,
    and rewriting them all took each about five seconds of CPU, in every run."""
    if not hasattr(config, "workerinput"):
        for room in ("engine", "server", "clients", "bench", "tests"):
            compileall.compile_dir(ROOT / room, quiet=1)
    sys.dont_write_bytecode = False


#: Under pytest-xdist these files are handed out first, in this order: the longest first (their
#: time in a whole run on the two-core machine), with a file that mostly waits (a soak, a
#: failover, a day's instant, a dead network) after every second one. The run ends when its
#: last file does, so none of the long ones may come last; and four workers share two cores,
#: so a waiting file costs nothing while three others keep the cores busy, but two or three
#: waiting together leave a core idle. The other files follow, those with more tests first
#: (pytest-xdist's own order, whose reordering `make test` turns off so that this one stands).
#: Measured (the cores' busy share, two-second samples, up to the last file's end): 92.8% in
#: the order by test counts alone, where the waiting files came last together; 96.1% in this.
LONGEST_FIRST = (
    "e2e/test_fit.py", "bench/test_soak.py", "server/test_fuzz.py", "server/test_matches.py",
    "clients/test_docs_examples.py", "engine/test_solver_lost.py", "clients/test_greedy.py",
    "deploy/test_failover.py", "engine/test_cli.py", "server/test_crash_points.py",
    "e2e/test_daily_live_edition.py", "engine/test_steps.py", "server/test_hidden.py",
    "e2e/test_dead_network.py", "engine/test_depth.py", "server/test_arenas.py",
    "server/test_races.py", "server/test_analysis.py", "server/test_boards_live.py",
    "e2e/test_arenas.py", "server/test_lifecycle.py", "e2e/test_pages.py",
    "server/test_exactly_once.py", "server/test_daily_live.py", "e2e/test_rule_sets.py",
    "deploy/test_first_run.py", "e2e/test_board_geometry.py", "server/test_followups.py",
    "deploy/test_manifests.py", "engine/test_analysis.py", "server/test_bowling_frames.py",
    "server/test_challenges.py", "server/test_protocol_v2.py", "server/test_outage.py",
    "server/test_cluster.py", "e2e/test_analysis.py", "server/test_daily.py",
    "engine/test_solver_independent.py", "server/test_own_redis.py", "server/test_node_memory.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each file's tests kept together, the files in the order above (only in a worker of a
    distributed run: a run in one process keeps the files' own order)."""
    if not hasattr(config, "workerinput"):
        return
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0].removeprefix("tests/"), []).append(item)
    first = {name: i for i, name in enumerate(LONGEST_FIRST)}
    order = sorted(files, key=lambda f: (first.get(f, len(first)), -len(files[f])))
    items[:] = [item for f in order for item in files[f]]


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (the test modules, what they import, the items) lives as long
    as the run: moved out of the collector's way, so that a collection during a test walks
    only what the tests made (in the solver and bot tests it halved the collector's time)."""
    gc.collect()
    gc.freeze()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.get_closest_marker("both_stores") and (
            "store" in metafunc.fixturenames):
        metafunc.parametrize("store", ["redis", "cluster"], indirect=True, scope="session")


@pytest.fixture(scope="session")
def store(request: pytest.FixtureRequest) -> str:
    """Which store the nodes share: ``redis`` unless the module is marked ``both_stores``."""
    return getattr(request, "param", "redis")


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    from tests.cluster import Cluster

    c = Cluster(tmp_path_factory.mktemp("cluster"))
    yield c
    c.close()


@pytest.fixture(scope="session")
def store_url(store: str, request: pytest.FixtureRequest) -> str:
    """The nodes' store: the redis-server's database 0, or the cluster's seed nodes."""
    if store == "cluster":
        return request.getfixturevalue("cluster").url  # type: ignore[no-any-return]
    return request.getfixturevalue("redis_url")  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def clocked_redis_url(redis_url: str) -> str:
    """A database of its own for the tests whose clock is set (years ahead, or back): on the
    one the nodes share, every real daily attempt still in flight would be due to their
    sweeps, and they would close other tests' games."""
    return redis_url.rsplit("/", 1)[0] + "/2"


#: How long a node may take to stop: its drain waits up to 10 s for each socket to finish its
#: close handshake (server/transport/drain.py; a browser on a busy machine can be that slow to
#: answer), then its lifespan ends what runs in the background; a busy machine slows both.
NODE_STOP_SECONDS = 90


def stop_node(proc: NodeProcess, log: Path | None = None) -> None:
    """Stop a node as an operator does (SIGTERM); one still running after
    ``NODE_STOP_SECONDS`` is killed, and the failure shows the end of its log."""
    proc.terminate()
    try:
        proc.wait(NODE_STOP_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        tail = log.read_text(errors="replace")[-3000:] if log else "(no log)"
        raise AssertionError(f"node {proc.pid} did not stop within {NODE_STOP_SECONDS} s; "
                             f"its log ends:\n{tail}") from None


#: Settings a node reads as it imports (the engine's pure-Python switch): a node given one is
#: started as a command, not forked from a process that imported the server without it.
IMPORT_SETTINGS = ("SAMEDEAL_PURE_PYTHON",)
#: This process's forking process (tests/server/forks.py), started with its first node.
_FORKS: list[Forks] = []


def start_node(redis_url: str, log: Path, **env: str) -> tuple[Node, NodeProcess]:
    """``samedeal serve`` on ``redis_url`` with ``env`` over this process's environment, once
    it answers. Forked from a process that imported the server once: a node's start is then a
    fork, not seconds of imports; its settings are read as a started node reads them. A node
    with no Redis URL (it runs its own redis-server) or with a setting read at import is
    started as a command."""
    whole = os.environ | SUITE_ANALYSIS | SUITE_NICE_ENV | env
    if redis_url and not any(k in env for k in IMPORT_SETTINGS):
        from tests.server.forks import ForkedProcess, Forks

        if not _FORKS:
            _FORKS.append(Forks(redis_url, log.parent, {}))
        forks = _FORKS[0]
        port, pid = forks.fork(redis_url, whole, log, whole=True)
        node = Node(f"http://127.0.0.1:{port}", pid, log)
        forks.up(node)
        return node, ForkedProcess(forks, pid)
    port = free_port()
    args = [sys.executable, "-m", "engine.cli", "serve", "--port", str(port),
            "--log-level", "warning"]
    if redis_url:
        args += ["--redis-url", redis_url]
    out = open(log, "wb")  # noqa: SIM115 - the process writes it until the end of the run
    proc = subprocess.Popen(args, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=whole)
    node = Node(f"http://127.0.0.1:{port}", proc.pid, log)

    def healthy() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
        return answers(f"{node.url}/healthz") == 200

    wait_for(healthy, f"samedeal serve on port {port}")
    return node, proc


def pytest_sessionfinish(session: pytest.Session) -> None:
    for forks in _FORKS:
        forks.close()


@pytest.fixture(scope="session")
def nodes(store_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Node]]:
    """Two server processes sharing one Redis (or one Redis Cluster), with rate limits out of
    the way."""
    logs = tmp_path_factory.mktemp("nodes")
    started = [start_node(store_url, logs / f"node{i}.log", **FAST) for i in range(2)]
    yield [n for n, _ in started]
    for node, proc in started:
        stop_node(proc, node.log)


@pytest.fixture(scope="session")
def strict_node(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Node]:
    """A node with small limits: a low rate limit, a short event window, a short hello."""
    logs = tmp_path_factory.mktemp("strict")
    node, proc = start_node(redis_url, logs / "strict.log", SAMEDEAL_RATE_PER_SECOND="5",
                            SAMEDEAL_RATE_BURST="10", SAMEDEAL_FLOOD_AFTER="20",
                            SAMEDEAL_EVENT_WINDOW="4", SAMEDEAL_HELLO_TIMEOUT="1",
                            **SUITE_ACCOUNTS)
    yield node
    stop_node(proc, node.log)


@pytest.fixture
def node(nodes: list[Node]) -> Node:
    return nodes[0]


@pytest.fixture
def local_beacon() -> Iterator[LocalBeacon]:
    """A drand beacon on loopback (tests/beacon_server.py) with quicknet's scheme and a key
    made for the test; its genesis is the start of yesterday (UTC), so the round of today's
    opening is published."""
    from tests.beacon_server import LocalBeacon, serving  # py_ecc: only where it is used

    today = int(time.time()) // 86400 * 86400
    with serving(LocalBeacon(secret=0x5A3E_DEA1_2026, genesis=today - 86400), free_port()) as b:
        yield b
