"""``python -m bench [engine|ws|cluster|idle|boards|link|memory|fuzz|beacon|chain|watchers|
solver|solver_board|session_cache ...] [--quick]``:
run benchmarks (all by default)
and write bench/results.md and bench/results.json (with --quick: only print). The hour-long
soak (bench/soak.py) runs on its own and writes only its section."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import platform
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .common import CORES, Section

HERE = Path(__file__).resolve().parent
NAMES = ("engine", "ws", "cluster", "idle", "boards", "link", "memory", "fuzz", "beacon", "chain",
         "watchers", "solver", "solver_board", "session_cache")


def machine() -> str:
    model = next((line.partition(":")[2].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.machine())
    return f"{CORES} cores ({model}), Python {platform.python_version()}, {platform.system()}"


def markdown(sections: list[Section], took: float) -> str:
    out = ["# Benchmark results", "",
           f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {machine()}, by `make bench` "
           f"(`python -m bench`) in {took:.0f} s. Every figure stands beside a baseline "
           "measured on the same machine in the same run; these machines are shared and "
           "noisy, so compare ratios, not absolute figures, between runs.", "",
           "## Targets", "", "| target | measured | met |", "| --- | --- | --- |"]
    for s in sections:
        for t in s.targets:
            out.append(f"| {t.goal} | {t.measured} | {'yes' if t.met else '**no**'} |")
    for s in sections:
        out += ["", f"## {s.title}", "", s.method, "",
                "| " + " | ".join(s.columns) + " |", "|" + " --- |" * len(s.columns)]
        out += ["| " + " | ".join(str(c) for c in row) + " |" for row in s.rows]
        missed = [t for t in s.targets if not t.met or t.note]
        if missed:
            out.append("")
            out += [f"- {t.goal}: {t.measured}, {'met' if t.met else 'missed'}. {t.note}"
                    .rstrip() for t in missed]
    return "\n".join(out) + "\n"


def write_section(section: Section, path: Path = HERE / "results.md") -> None:
    """Put one benchmark's section in results.md in place of its last one (or at the end),
    the others' sections as they are: for a benchmark run on its own."""
    text = markdown([section], 0)
    mine = text[text.index(f"## {section.title}"):]
    old = path.read_text() if path.exists() else markdown([], 0)
    start = old.find(f"\n## {section.title}\n")
    if start >= 0:
        end = old.find("\n## ", start + 1)
        old = old[:start + 1] + (old[end + 1:] if end >= 0 else "")
    path.write_text(old.rstrip("\n") + "\n\n" + mine)


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    p.add_argument("names", nargs="*", choices=[[], *NAMES], default=[],
                   help="which to run (default: all)")
    p.add_argument("--quick", action="store_true", help="short runs, results not written")
    args = p.parse_args()
    names = args.names or list(NAMES)
    started = time.monotonic()
    sections: list[Section] = []
    for name in names:
        t0 = time.monotonic()
        made = importlib.import_module(f"bench.{name}").run(quick=args.quick)
        made = made if isinstance(made, list) else [made]  # a benchmark may give two tables
        sections += made
        print(f"{', '.join(s.title for s in made)}: {time.monotonic() - t0:.0f} s", flush=True)
    took = time.monotonic() - started
    text = markdown(sections, took)
    print(text)
    if args.quick:
        return
    (HERE / "results.md").write_text(text)
    data: dict[str, Any] = {"machine": machine(), "seconds": took,
                            "sections": [dataclasses.asdict(s) for s in sections]}
    (HERE / "results.json").write_text(json.dumps(data, indent=1, default=str) + "\n")


if __name__ == "__main__":
    main()
