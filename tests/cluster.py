"""A real Redis Cluster on loopback: three primaries and three replicas, each a redis-server in
cluster mode, joined by ``redis-cli --cluster create``; and the failover a test asks of it."""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
from pathlib import Path

from tests.conftest import free_port, wait_for

PRIMARIES = 3


class Cluster:
    def __init__(self, work: Path, ports: list[int] | None = None) -> None:
        self.work = work
        self.ports = ports or [free_port() for _ in range(2 * PRIMARIES)]
        exe = shutil.which("redis-server")
        assert exe is not None, "redis-server is not installed: run the README's test command"
        self.procs = []
        self.dead: set[int] = set()
        for port in self.ports:
            home = work / str(port)
            home.mkdir()
            self.procs.append(subprocess.Popen(
                [exe, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(home),
                 "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                 # the bus (the nodes' own link) on a port of this process's too: the
                 # default, port + 10000, lies outside a worker's band once there are three
                 "--cluster-port", str(free_port()),
                 # a failed primary is replaced within seconds, not the default 15
                 "--cluster-node-timeout", "2000", "--save", "", "--appendonly", "no"],
                stdout=open(home / "log", "wb"), stderr=subprocess.STDOUT))  # noqa: SIM115
        try:
            for port in self.ports:
                wait_for(lambda p=port: self.cli(p, "PING") == "PONG", f"redis-server :{port}")
            subprocess.run(["redis-cli", "--cluster", "create",
                            *(f"127.0.0.1:{p}" for p in self.ports),
                            "--cluster-replicas", "1", "--cluster-yes"],
                           check=True, capture_output=True, timeout=60)
            wait_for(self.settled, "the cluster")
        except BaseException:  # none left behind
            self.close()
            raise

    @property
    def url(self) -> str:
        """Every seed node, in the form ``--redis-url`` takes for a cluster (docs/operations.md)."""
        return "redis-cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports[:PRIMARIES])

    def cli(self, port: int, *args: str) -> str:
        out = subprocess.run(["redis-cli", "-p", str(port), *args], capture_output=True,
                             timeout=10, text=True)
        return out.stdout.strip()

    def info(self, port: int, section: str) -> dict[str, str]:
        text = self.cli(port, "INFO", section) if section else ""
        return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)

    def settled(self) -> bool:
        """Every node sees the cluster whole, and every replica is in sync with its primary."""
        for port in self.live:
            state = dict(line.split(":", 1) for line in
                         self.cli(port, "CLUSTER", "INFO").splitlines() if ":" in line)
            if state.get("cluster_state") != "ok":
                return False
            repl = self.info(port, "replication")
            if repl.get("role") == "slave" and repl.get("master_link_status") != "up":
                return False
        return True

    def owner(self, key: str) -> tuple[int, int]:
        """The ports of the primary that owns ``key`` and of its replica (0 if it has none
        left), by the cluster's own map."""
        slot = int(self.cli(self.live[0], "CLUSTER", "KEYSLOT", key))
        nodes = [line.split() for line in
                 self.cli(self.live[0], "CLUSTER", "NODES").splitlines()]
        port = {f[0]: int(f[1].split("@")[0].rpartition(":")[2]) for f in nodes}
        for f in nodes:
            if "master" not in f[2] or "fail" in f[2]:
                continue
            for span in f[8:]:
                lo, _, hi = span.partition("-")
                if lo.isdigit() and int(lo) <= slot <= int(hi or lo):
                    replicas = [port[r[0]] for r in nodes
                                if r[3] == f[0] and "fail" not in r[2]]
                    return port[f[0]], replicas[0] if replicas else 0
        raise AssertionError(f"no primary owns slot {slot}")

    def replica_of(self, primary: int) -> int:
        """The port of a live replica of the primary at ``primary``."""
        me = self.node_id(primary)
        for line in self.cli(self.live[0], "CLUSTER", "NODES").splitlines():
            f = line.split()
            if f[3] == me and "fail" not in f[2]:
                return int(f[1].split("@")[0].rpartition(":")[2])
        raise AssertionError(f"the primary at {primary} has no replica")

    def node_id(self, port: int) -> str:
        return self.cli(port, "CLUSTER", "MYID")

    def migrate(self, key: str) -> tuple[int, int]:
        """Move the slot of ``key`` to another primary while it is in use, as a resharding
        does (``CLUSTER SETSLOT`` IMPORTING/MIGRATING, ``MIGRATE`` its keys a few at a time,
        then the new owner for everyone): returns (old, new) primary ports."""
        source, target, slot = self.start_migrating(key)
        while keys := self.cli(source, "CLUSTER", "GETKEYSINSLOT", slot, "3").split():
            out = self.cli(source, "MIGRATE", "127.0.0.1", str(target), "", "0", "5000",
                           "KEYS", *keys)
            assert out in ("OK", "NOKEY"), out
            time.sleep(0.01)  # the game goes on between batches, redirected by ASK
        self.end_migrating(key, source, target, slot)
        return source, target

    def start_migrating(self, key: str) -> tuple[int, int, str]:
        """The slot of ``key`` set migrating from its primary to another (ASK answers a
        command whose key has gone): (old, new) primary ports and the slot."""
        source, _ = self.owner(key)
        slot = self.cli(source, "CLUSTER", "KEYSLOT", key)
        target = next(p for p in self.live if p != source
                      and self.info(p, "replication").get("role") == "master")
        src, dst = self.node_id(source), self.node_id(target)
        assert self.cli(target, "CLUSTER", "SETSLOT", slot, "IMPORTING", src) == "OK"
        assert self.cli(source, "CLUSTER", "SETSLOT", slot, "MIGRATING", dst) == "OK"
        return source, target, slot

    def end_migrating(self, key: str, source: int, target: int, slot: str) -> None:
        """The slot's new owner for everyone (MOVED answers the old one's commands)."""
        dst = self.node_id(target)
        for port in (target, source):
            assert self.cli(port, "CLUSTER", "SETSLOT", slot, "NODE", dst) == "OK"
        wait_for(lambda: self.owner(key)[0] == target, "the slot's new owner")

    def fail_over(self, key: str) -> tuple[int, int]:
        """``CLUSTER FAILOVER`` on the replica of the shard that owns ``key``: the replica
        becomes its primary once it has every write (the old primary waits for it). Returns
        (old primary, new primary) once every node agrees."""
        primary, replica = self.owner(key)
        assert self.cli(replica, "CLUSTER", "FAILOVER") == "OK"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.info(replica, "replication").get("role") == "master" and self.settled():
                return primary, replica
            time.sleep(0.05)
        raise AssertionError("the failover did not complete in 30 s")

    @property
    def live(self) -> list[int]:
        return [p for p in self.ports if p not in self.dead]

    def kill_primary(self, key: str) -> tuple[int, int]:
        """SIGKILL the primary that owns ``key``: its replica takes over once the others see
        it fail (the node timeout, 2 s), with what had reached it. Returns (dead, new
        primary) once the cluster is whole again."""
        primary, replica = self.owner(key)
        self.procs[self.ports.index(primary)].kill()
        self.dead.add(primary)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.info(replica, "replication").get("role") == "master" and self.settled():
                return primary, replica
            time.sleep(0.1)
        raise AssertionError("the replica did not take over in 60 s")

    def close(self) -> None:
        for proc in self.procs:
            proc.send_signal(signal.SIGCONT)  # a paused one would not act on SIGTERM
            proc.terminate()
        for proc in self.procs:
            proc.wait(10)
