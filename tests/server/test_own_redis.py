"""``samedeal serve`` without a Redis URL runs a private redis-server on its data directory
(server/store/own_redis.py): the data survives a restart and a SIGKILL, the redis-server never
outlives the server, ``--workers`` share it, and a missing redis-server is told clearly.
Real processes throughout: the server as a subprocess, its own redis-server, HTTP over TCP."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from tests.conftest import ROOT, SUITE_ACCOUNTS, free_port, start_node, wait_for
from tests.server.client import TLS

ENV = {k: v for k, v in os.environ.items() if k != "SAMEDEAL_REDIS_URL"} | SUITE_ACCOUNTS


@dataclass
class Served:
    url: str
    proc: subprocess.Popen[bytes]
    log: Path

    def call(self, method: str, path: str, token: str = "", body: Any = None) -> Any:
        """A fresh connection each time (so ``--workers`` spread them): (status, body)."""
        headers = {"authorization": f"Bearer {token}"} if token else {}
        r = httpx.request(method, f"{self.url}/api/v1{path}", json=body, headers=headers,
                          timeout=10, verify=TLS)
        return r.status_code, r.json()

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM, as Ctrl-C or a service manager: its exit code once it is gone."""
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)


def serve(data: Path, log: Path, *extra: str, env: dict[str, str] | None = None) -> Served:
    """``samedeal serve`` on ``data``, once it is ready (its Redis reached), in a process
    group of its own, as a terminal's foreground job is (``env``: settings added)."""
    url = f"http://127.0.0.1:{free_port()}"
    out = open(log, "ab")  # noqa: SIM115 - the process writes it until it ends
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", "--port",
                             url.rsplit(":", 1)[1], "--data-dir", str(data), *extra],
                            cwd=ROOT, env=ENV | (env or {}), stdout=out,
                            stderr=subprocess.STDOUT, start_new_session=True)
    out.close()

    def up() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
        return httpx.get(f"{url}/readyz", timeout=1, verify=TLS).status_code == 200

    wait_for(up, "samedeal serve")
    return Served(url, proc, log)


def processes(data: Path, program: bytes = b"") -> list[int]:
    """The pids of processes whose command line names ``data`` and ``program`` (a
    redis-server shows its socket's path there, a server its ``--data-dir``)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and entry.name != str(os.getpid()):
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if str(data).encode() in cmdline and program in cmdline:
                pids.append(int(entry.name))
    return pids


def redis_servers(data: Path) -> list[int]:
    return processes(data, b"redis-server")


def none_left(data: Path, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while redis_servers(data):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def data(tmp_path: Path) -> Iterator[Path]:
    d = tmp_path / "data"
    yield d
    for pid in processes(d):  # only if a test failed: leave nothing running
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def played(s: Served) -> dict[str, Any]:
    """An account, a finished practice game, a ranked daily attempt on the day's board, and
    what each reads as now."""
    status, reg = s.call("POST", "/players", body={"name": "Ann", "kind": "human"})
    assert status == 201, reg
    token = reg["token"]
    status, solo = s.call("POST", "/solo", token, {"game": "klondike", "variant": "easy",
                                                   "seed": "00ff"})
    assert status == 201, solo
    for _ in range(3):
        status, solo = s.call("POST", f"/sessions/{solo['session']}/moves", token,
                              {"move": solo["legal"][0]})
        assert status == 200, solo
    assert s.call("POST", f"/sessions/{solo['session']}/resign", token, {})[0] == 200
    status, attempt = s.call("POST", "/daily", token, {"game": "golf", "variant": "easy"})
    assert status == 201, attempt
    assert s.call("POST", f"/sessions/{attempt['session']}/resign", token, {})[0] == 200

    def on_board() -> bool:
        return s.call("GET", "/boards/daily/today/golf/easy", token)[1]["total"] == 1

    wait_for(on_board, "the attempt on the daily board")
    return {"token": token, "solo": solo["session"], "attempt": attempt["session"],
            **kept(s, token, solo["session"], attempt["session"])}


def kept(s: Served, token: str, solo: str, attempt: str) -> dict[str, Any]:
    """What must read the same after a restart."""
    _, daily = s.call("GET", "/daily")
    return {"me": s.call("GET", "/players/me", token),
            "transcript": s.call("GET", f"/sessions/{solo}/moves", token),
            "attempt_moves": s.call("GET", f"/sessions/{attempt}/moves", token),
            "board": s.call("GET", "/boards/daily/today/golf/easy", token),
            "daily": (daily["day"], daily["deals"])}


def again(s: Served, before: dict[str, Any]) -> dict[str, Any]:
    return kept(s, before["token"], before["solo"], before["attempt"])


def test_a_restart_keeps_accounts_boards_transcripts_and_the_daily_deals(
        data: Path, tmp_path: Path) -> None:
    s = serve(data, tmp_path / "serve.log")
    assert len(redis_servers(data)) == 1
    sock = data / "redis.sock"  # only this user reaches it, and there is no TCP port
    assert stat.S_IMODE(sock.stat().st_mode) == 0o700
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    with redis.Redis(unix_socket_path=str(sock), decode_responses=True) as r:
        assert r.config_get("port") == {"port": "0"}
        assert r.config_get("appendonly") == {"appendonly": "yes"}
        assert r.config_get("appendfsync") == {"appendfsync": "always"}
    before = played(s)
    assert before["me"][0] == 200 and before["transcript"][0] == 200
    assert len(before["transcript"][1]["moves"]) == 4  # three moves and the resignation
    assert before["board"][1]["entries"][0]["session"] == before["attempt"]
    assert s.stop() == 0
    assert none_left(data, 1.0)  # stopped with the server, not after it
    assert (data / "appendonlydir").is_dir()

    s = serve(data, tmp_path / "serve.log")
    try:
        after = again(s, before)
        assert after == {k: before[k] for k in after}
    finally:
        s.stop()


def test_ctrl_c_stops_the_server_and_its_worker_processes_with_no_traceback(
        data: Path, tmp_path: Path) -> None:
    """The terminal's Ctrl-C reaches every process of the job: the server, its hint workers
    and the winnable-daily job's (here judging Klondike easy, its batch told in one line a
    day). Only the server acts on it; each of them is gone, and nothing but log lines and no
    traceback was printed."""
    log = tmp_path / "serve.log"
    s = serve(data, log, env={"SAMEDEAL_DAILY_WINNABLE": "true",
                              "SAMEDEAL_WINNABLE_ONLY": "klondike/easy"})
    told = "its 2 deals are decided"  # tomorrow's (the rule's first day): daily and live
    wait_for(lambda: told in log.read_text(), "the winnable-daily batch")
    group = os.getpgid(s.proc.pid)
    workers = in_group(processes(Path("multiprocessing.spawn")), group)
    assert len(workers) >= 2, "no worker processes to interrupt"  # hints', the job's
    before = len(log.read_text())
    os.killpg(group, signal.SIGINT)
    assert s.proc.wait(30) == 0
    said = log.read_text()[before:]
    assert said == f"INFO:     Finished server process [{s.proc.pid}]\n", said
    assert none_left(data, 5.0)
    assert gone(workers, 5.0), "a worker outlived the server"
    text = log.read_text()
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text[-3000:]
    assert text.count("winnable daily") == 1 and "leaked" not in text


def in_group(pids: list[int], group: int) -> list[int]:
    out = []
    for p in pids:
        with contextlib.suppress(ProcessLookupError):
            if os.getpgid(p) == group:
                out.append(p)
    return out


def gone(pids: list[int], within: float) -> bool:
    deadline = time.monotonic() + within
    while any(Path(f"/proc/{p}").exists() for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_private_server_does_not_limit_its_owners_registrations(
        data: Path, tmp_path: Path) -> None:
    """The production limit (a burst of 10) holds for everyone else (tests/server/
    test_throwaways.py); the README's and the guides' examples, run here, register a dozen."""
    s = serve(data, tmp_path / "serve.log", env={"SAMEDEAL_SIGNUP_BURST": "10"})
    try:
        made = [s.call("POST", "/players", body={"name": f"Ann{i}", "kind": "human"})[0]
                for i in range(14)]
        assert made == [201] * 14
    finally:
        s.stop()


def test_a_port_taken_is_told_in_one_line_before_anything_starts(
        data: Path, tmp_path: Path) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "engine.cli", "serve", "--port", str(port),
                              "--data-dir", str(data)], cwd=ROOT, env=ENV, capture_output=True,
                             text=True, timeout=60)
    assert out.returncode == 1 and out.stdout == "", out.stdout
    assert out.stderr == (f"samedeal serve: port {port} on 127.0.0.1 is taken (another server "
                          "is on it): stop that one, or choose another port with --port\n")
    assert not data.exists()  # no redis-server was started for it


def test_sigterm_to_a_server_on_a_redis_url_is_a_clean_stop(redis_url: str,
                                                            tmp_path: Path) -> None:
    _, proc = start_node(redis_url, tmp_path / "node.log")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0
    assert "Traceback" not in (tmp_path / "node.log").read_text()


def test_a_killed_server_leaves_no_redis_server_and_its_data_intact(
        data: Path, tmp_path: Path) -> None:
    s = serve(data, tmp_path / "serve.log")
    before = played(s)
    time.sleep(1.5)  # past the AOF's fsync every second: the kill may not lose these writes
    s.proc.send_signal(signal.SIGKILL)
    s.proc.wait(10)
    assert none_left(data), f"redis-server still running: {redis_servers(data)}"

    s = serve(data, tmp_path / "serve.log")
    try:
        after = again(s, before)
        assert after == {k: before[k] for k in after}
    finally:
        s.stop()
    assert none_left(data)


def test_the_server_stops_when_its_redis_server_dies_and_starts_again_with_the_data(
        data: Path, tmp_path: Path) -> None:
    s = serve(data, tmp_path / "serve.log")
    _, reg = s.call("POST", "/players", body={"name": "Cy", "kind": "human"})
    [pid] = redis_servers(data)
    os.kill(pid, signal.SIGKILL)  # no shutdown: what was written must be there anyway
    assert s.proc.wait(20) == 1  # not left answering 503 with no store behind it
    assert "its redis-server stopped" in s.log.read_text()

    s = serve(data, tmp_path / "serve.log")
    try:
        assert s.call("GET", "/players/me", reg["token"])[0] == 200
    finally:
        s.stop()


def test_workers_share_the_one_private_redis_server(data: Path, tmp_path: Path) -> None:
    s = serve(data, tmp_path / "serve.log", "--workers", "2")
    try:
        assert len(redis_servers(data)) == 1
        status, reg = s.call("POST", "/players", body={"name": "Bo", "kind": "human"})
        assert status == 201
        for _ in range(20):  # each on a new connection, whichever worker takes it
            assert s.call("GET", "/players/me", reg["token"])[0] == 200

        def both_started() -> bool:
            return s.log.read_text().count("Started server process") == 2

        wait_for(both_started, "two workers")
    finally:
        s.stop()
    assert none_left(data)


def test_a_second_server_on_the_same_data_refuses_and_a_stale_socket_is_cleared(
        data: Path, tmp_path: Path) -> None:
    data.mkdir()
    stale = socket.socket(socket.AF_UNIX)  # a socket file nobody listens on, as after a crash
    stale.bind(str(data / "redis.sock"))
    stale.close()
    s = serve(data, tmp_path / "serve.log")
    try:
        second = subprocess.run([sys.executable, "-m", "engine.cli", "serve", "--port",
                                 str(free_port()), "--data-dir", str(data)],
                                cwd=ROOT, env=ENV, capture_output=True, timeout=30)
        assert second.returncode == 1
        assert b"another samedeal serve is using" in second.stderr
        assert s.call("GET", "/daily")[0] == 200  # the first one is unharmed
        assert len(redis_servers(data)) == 1
    finally:
        s.stop()


def test_no_redis_server_installed_is_one_clear_sentence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from engine.cli import main
    from server.store import own_redis

    monkeypatch.setenv("PATH", str(tmp_path))  # nothing there
    monkeypatch.setattr(own_redis, "FALLBACK", str(tmp_path / "redis-server"))
    monkeypatch.delenv("SAMEDEAL_REDIS_URL", raising=False)
    monkeypatch.delenv("SAMEDEAL_REDIS_SERVER", raising=False)
    assert main(["serve", "--data-dir", str(tmp_path / "data")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("samedeal serve: redis-server is not installed")
    assert "apt-get install redis-server" in err and "make serve" in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "data").exists()  # nothing made before it knew


def test_a_named_redis_server_that_is_not_there_is_refused(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "engine.cli", "serve", "--port",
                        str(free_port()), "--data-dir", str(tmp_path / "data")], cwd=ROOT,
                       env=ENV | {"SAMEDEAL_REDIS_SERVER": str(tmp_path / "none")},
                       capture_output=True, timeout=30)
    assert r.returncode == 1
    assert b"apt-get install redis-server" in r.stderr


def test_the_server_code_has_no_store_without_a_url() -> None:
    from server import store

    with pytest.raises(ValueError, match="no Redis URL"):
        store.connect("")
