"""The node's worker processes ignore the terminal's Ctrl-C from the moment they are made
(server/workers.py): interrupts sent to them while they are still starting up change nothing."""

from __future__ import annotations

import os
import signal
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
