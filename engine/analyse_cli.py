"""``samedeal analyse``: a public transcript's analysis (engine/analysis.py), offline.

It reads what ``samedeal replay`` reads (a file, ``-`` or a URL of
``GET /api/v1/sessions/{id}/moves``), checks it as that command does, and judges every
position on this machine: the same verdicts a server gives for the same budget.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from . import cli, registry

#: One character a position in the printed bar.
MARK = {"won": "W", "lost": "L", "unknown": "?", "best": "B"}


def stretches(verdicts: list[str]) -> str:
    """"0-34 won, 35-150 lost": runs of one verdict, by position (0 is the deal)."""
    out, start = [], 0
    for k in range(1, len(verdicts) + 1):
        if k == len(verdicts) or verdicts[k] != verdicts[start]:
            span = f"{start}" if k - 1 == start else f"{start}-{k - 1}"
            out.append(f"{span} {verdicts[start]}")
            start = k
    return ", ".join(out)


def run(args: argparse.Namespace) -> int:
    from .analysis import analyse  # the solver loads only when asked for

    t = cli.load_transcript(args.transcript, args.token)
    name = f"{t.get('game')}/{t.get('variant')}"
    why = cli.unrevealed(t)
    if why:
        raise cli.Failed(f"{name}: {why}")
    moves = t.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise cli.Failed(f"{name}: its moves are not a list of moves: {cli.TRANSCRIPT}")
    problems = cli.check_transcript(t)
    if problems:
        raise cli.Failed(f"{name}: the transcript does not replay: {problems[0]}")
    rules = registry.get(t["game"], t["variant"])
    shown = sys.stderr.isatty() or args.progress

    def progress(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        print(f"\ranalysing [{'#' * filled}{'.' * (width - filled)}] {done}/{total} positions",
              end="", file=sys.stderr, flush=True)

    began = time.process_time()
    a = analyse(rules, cli.hex_seed(str(t["seed"])), moves, bool(t.get("competitive")),
                positions=args.positions, total=args.total,
                progress=progress if shown else None)
    seconds = time.process_time() - began
    if shown:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(a.to_json(), ensure_ascii=False))
        return cli.OK
    verdicts = [p.verdict.value for p in a.positions]
    print(f"{rules.name} ({rules.variant}), {len(a.moves)} moves, {a.status}"
          + (" (resigned)" if a.resigned else ""))
    print(f"positions: {stretches(verdicts)}")
    print(f"bar: {''.join(MARK[v] for v in verdicts)}")
    print(a.summary)
    tp = a.turning_point
    if tp is not None and tp.better:
        print(f"better line from move {tp.move_number}: {' '.join(tp.better)}")
    print(f"searched {a.searched:,} positions in {seconds:.2f} s of CPU")
    return cli.OK


def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from .analysis import POSITIONS, TOTAL

    a: argparse.ArgumentParser = sub.add_parser(
        "analyse", help="judge every position of a finished game: where was the win lost?",
        description="Analyse a public transcript (GET /api/v1/sessions/{id}/moves) on this "
        "machine: the solver's verdict at every position (won, proved lost, or unknown within "
        "the budget; for games played for points the best score still reachable), the move "
        "after which the game could no longer be won with the line that kept it winnable, and "
        "a won game's distance from par. Exit 1 while the transcript's seed is not revealed "
        "or when it does not replay.")
    a.add_argument("transcript", metavar="TRANSCRIPT",
                   help="a JSON file, - for standard input, or a URL")
    a.add_argument("--positions", metavar="N", type=cli.at_least(1), default=POSITIONS,
                   help=f"positions searched per position judged (default {POSITIONS:,}, "
                        "as a server analyses)")
    a.add_argument("--total", metavar="N", type=cli.at_least(1), default=TOTAL,
                   help=f"positions searched in all (default {TOTAL:,})")
    a.add_argument("--token", metavar="T", help="a bearer token, for a URL on a SameDeal "
                   "server (default: none; public transcripts need none)")
    a.add_argument("--progress", action="store_true",
                   help="a progress bar on standard error even when it is not a terminal")
    a.add_argument("--json", action="store_true",
                   help="print the analysis as JSON, as the server's API gives it")
    a.set_defaults(run=run)

