"""The node's worker processes ignore the terminal's Ctrl-C from the moment they are made
(server/workers): interrupts sent to them while they are still starting up change nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from server import workers


def test_ctrl_c_while_a_worker_starts_up_does_not_reach_it() -> None:
    pool = workers.pool(2)
    try:
        done = pool.submit(os.getpid)
        processes = list(pool._processes.values())  # made by the first task
        assert processes
        sent = 0
        while not done.done():  # from the first instructions of each until the task is done
            for p in processes:
                if p.pid is not None and p.is_alive():
                    os.kill(p.pid, signal.SIGINT)
                    sent += 1
            time.sleep(0.001)
        assert done.result() in {p.pid for p in processes}
        assert sent > 0 and all(p.is_alive() for p in processes)
    finally:
        workers.stop(pool)


def test_what_a_worker_runs_imports_nothing_of_the_servers_io() -> None:
    """A spawned worker imports the module of the function it is handed, with its package: the
    modules of the pools' functions bring the engine alone, not Redis or the web stack."""
    modules = ["server.workers.hints", "server.workers.analyses", "server.fairplay.integrity",
               "engine.winnable"]
    code = (f"import sys, {', '.join(modules)}; "
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    assert "engine" in loaded
    assert not loaded & {"redis", "starlette", "uvicorn", "msgpack", "httpx", "websockets"}, loaded
