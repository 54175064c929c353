"""Server processes started cheaply, for tests that start and kill many: this process imports
the server once, then forks a real node (``samedeal serve`` on a Redis URL) per request. A node
is a real process, killed as any other; only its start skips the imports (seconds on a busy
machine, against milliseconds for a fork).

Run as ``python -m tests.server.forked_nodes``; speaks JSON lines. In: ``{"port": P, "url":
U, "env": {...}, "log": path}``, a node to start, its output to ``log``, ``env`` over this
process's environment (with ``"whole": true``, its whole environment). Out: ``{"ready":
pid}`` once the imports are done, ``{"started": pid}`` for each node, and, whenever a node
ends, ``{"ended": pid, "code": status}`` (a negative status: the signal that ended it).
"""

from __future__ import annotations

import json
import os
import sys
import threading

import engine
import engine.cli  # the server's whole import, done once here
import server.app  # noqa: F401 - imported before forking, not in each node

# And what a node's start would do first: the command line's parser (it imports the SDK's
# commands) and the registry of rule sets (every game module loaded).
engine.cli.build_parser()
engine.rule_sets()

#: Held while writing a line and while forking: a node never starts with the lock taken.
LOCK = threading.Lock()


def say(message: dict[str, int]) -> None:
    with LOCK:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def reap() -> None:
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            threading.Event().wait(0.05)
            continue
        say({"ended": pid, "code": os.waitstatus_to_exitcode(status)})


def main() -> None:
    reaper: threading.Thread | None = None
    say({"ready": os.getpid()})
    for line in sys.stdin:
        ask = json.loads(line)
        with LOCK:
            pid = os.fork()
        if pid == 0:  # the node: no thread of this process came along
            out = os.open(ask["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            os.dup2(out, 1)
            os.dup2(out, 2)
            if ask.get("whole"):  # the node's whole environment, not settings over this one's
                os.environ.clear()
            os.environ.update(ask["env"])
            code = engine.cli.main(["serve", "--port", str(ask["port"]), "--redis-url",
                                    ask["url"], "--log-level", "warning"])
            os._exit(code)
        say({"started": pid})
        if reaper is None:  # started after the first fork: a node never inherits it
            reaper = threading.Thread(target=reap, daemon=True)
            reaper.start()


if __name__ == "__main__":
    main()
