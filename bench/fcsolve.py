"""Beleaguered Castle difficult beside Freecell Solver (``fc-solve``, installed by ``make
system``) on the same deals.

``python -m bench.fcsolve [--deals N] [--seconds S] [--jobs J] [--deal I ...]``: each deal
(seed ``i`` as four big-endian bytes, as bench/winnability.py deals them) goes to ``fc-solve``
as a board of eight stacks with the Aces home, and to our solver (``bench.winnability.judge``),
each with ``S`` seconds of wall time, ``J`` deals at once. ``FLAGS`` states the game with
our moves and more (no 13-card cap; several cards moved through free spaces), so a loss it
proves is ours too; a win counts once its line replays to a win in our engine. Prints what
each decides and the deals where only one does (docs/solver.md, Beside Freecell Solver).
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
from concurrent.futures import ProcessPoolExecutor

import engine
from bench.winnability import judge, seed
from engine.cards import TEXT
from engine.core import WON

KEY = "beleaguered-castle/difficult"
#: Eight stacks, no free cell, built down by rank, spaces filled by Kings; every kind of
#: move tried (``-to``), so that running out of positions proves the loss; each move shown.
FLAGS = ["--freecells-num", "0", "--stacks-num", "8", "--sequences-are-built-by", "rank",
         "--sequence-move", "limited", "--empty-stacks-filled-by", "kings", "-to", "01ABCDE",
         "-sam"]
STACK = re.compile(r"Move (\d+) cards? from stack (\d+) to stack (\d+)")
HOME = re.compile(r"Move a card from stack (\d+) to the foundations")


def board(i: int) -> str:
    """Deal ``i`` as fc-solve reads a board: the foundations, then a stack a line."""
    st = engine.get(*KEY.split("/")).deal(seed(i))
    stacks = [" ".join(TEXT[c][0] + TEXT[c][1].upper() for c in pile) for pile in st.piles[:8]]
    return "Foundations: H-A C-A D-A S-A\n" + "\n".join(stacks) + "\n"


def replays(i: int, out: str) -> bool:
    """Whether fc-solve's moves, played one card at a time, win deal ``i`` in our engine."""
    rules = engine.get(*KEY.split("/"))
    st = rules.deal(seed(i))
    for line in out.splitlines():
        stack, home = STACK.match(line), HOME.match(line)
        if stack:
            n, a, b = map(int, stack.groups())
            if n != 1:
                return False  # several cards at once: not one of our moves
            moves = [m for m in st.legal_moves() if (m.src, m.dst) == (a, b)]
        elif home:
            a = int(home.group(1))
            moves = [m for m in st.legal_moves() if m.src == a
                     and rules.pile_kinds[m.dst] == "foundation"]
        else:
            continue
        if not moves:
            return False
        st.play(moves[0])
    return st.status == WON


def theirs(i: int, seconds: float) -> tuple[str, float]:
    """fc-solve's verdict on deal ``i`` (W, L or U) and its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        out = subprocess.run(["fc-solve", *FLAGS, "-"], input=board(i), capture_output=True,
                             text=True, timeout=seconds, check=False).stdout
    except subprocess.TimeoutExpired:
        out = ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if "This game is solveable" in out:
        return ("W" if replays(i, out) else "w"), cpu
    return ("L" if "could not solve" in out else "U"), cpu


def ours(i: int, seconds: float) -> tuple[str, float]:
    d = judge(KEY, i, None, seconds)
    return d.outcome, d.cpu


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=50)
    p.add_argument("--deal", type=int, nargs="*", help="these deals instead")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    deals = args.deal or list(range(args.deals))
    times = [args.seconds] * len(deals)
    with ProcessPoolExecutor(args.jobs) as pool:
        fc = list(pool.map(theirs, deals, times))
        us = list(pool.map(ours, deals, times))
    for who, rows in (("fc-solve", fc), ("ours", us)):
        print(f"{who:8} {''.join(r[0] for r in rows)}  decided "
              f"{sum(r[0] in 'WL' for r in rows)} of {len(rows)}")
    if any(r[0] == "w" for r in fc):
        print("w: won by a line with a move we do not have")
    for i, a, b in zip(deals, fc, us, strict=True):
        if (a[0] in "WL") != (b[0] in "WL"):
            print(f"deal {i}: fc-solve {a[0]} in {a[1]:.1f} s, ours {b[0]} in {b[1]:.1f} s")


if __name__ == "__main__":
    main()
