"""``python -m bench [engine|ws|cluster|idle|boards|link|memory|fuzz|beacon|chain|watchers|
solver|solver_board|faults|session_cache|analysis ...] [--quick]``:
run benchmarks (all by default)
and write bench/results.md and bench/results.json (with --quick: only print). Benchmarks named
replace their sections in the last results, which keep the others; so does the hour-long
soak (``python -m bench.soak``), which runs on its own."""

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

from .common import CORES, Section, Target

HERE = Path(__file__).resolve().parent
NAMES = ("engine", "ws", "cluster", "idle", "boards", "link", "memory", "fuzz", "beacon", "chain",
         "watchers", "solver", "solver_board", "faults",
         "session_cache", "analysis")


def machine() -> str:
    model = next((line.partition(":")[2].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.machine())
    return f"{CORES} cores ({model}), Python {platform.python_version()}, {platform.system()}"


def markdown(sections: list[Section], took: float, at: str,
             refreshed: list[dict[str, Any]]) -> str:
    again = "".join(f" {', '.join(r['sections'])} again on {r['at']} ({r['seconds']:.0f} s)."
                    for r in refreshed)
    out = ["# Benchmark results", "",
           f"Measured {at} on {machine()}, by `make bench` (`python -m bench`) in {took:.0f} s."
           f"{again} Every figure stands beside a baseline measured on the same machine in "
           "the same run; these machines are shared and noisy, so compare ratios, not "
           "absolute figures, between runs.", "",
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
    now = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    data: dict[str, Any] = {"machine": machine(), "seconds": took, "at": now, "refreshed": [],
                            "sections": [dataclasses.asdict(s) for s in sections]}
    if args.names and not args.quick:
        data = merged(last_results(), data)
    text = markdown([section(d) for d in data["sections"]], data["seconds"], data["at"],
                    data["refreshed"])
    print(text)
    if args.quick:
        return
    (HERE / "results.md").write_text(text)
    (HERE / "results.json").write_text(json.dumps(data, indent=1, default=str) + "\n")


def refresh(sections: list[Section], took: float) -> str:
    """Write ``sections`` in place of their last ones in the results (a benchmark run on its
    own, as the soak is); the text of the results."""
    now = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    data = merged(last_results(), {"machine": machine(), "seconds": took, "at": now,
                                   "sections": [dataclasses.asdict(s) for s in sections]})
    text = markdown([section(d) for d in data["sections"]], data["seconds"], data["at"],
                    data["refreshed"])
    (HERE / "results.md").write_text(text)
    (HERE / "results.json").write_text(json.dumps(data, indent=1, default=str) + "\n")
    return text


def last_results() -> dict[str, Any]:
    old: dict[str, Any] = json.loads((HERE / "results.json").read_text())
    if "at" not in old:  # written before the date was kept: it is in the text
        head = (HERE / "results.md").read_text()
        old["at"] = head.partition("Measured ")[2].partition(" on ")[0]
    return old


def merged(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Some benchmarks run again: their sections take their old places in the last full
    run's results (new ones go last), and the header says when each was run again."""
    fresh = {d["title"]: d for d in new["sections"]}
    again = {"sections": list(fresh), "seconds": new["seconds"], "at": new["at"]}
    sections = [fresh.pop(d["title"], d) for d in old["sections"]] + list(fresh.values())
    return {**old, "sections": sections, "refreshed": [*old.get("refreshed", []), again]}


def section(d: dict[str, Any]) -> Section:
    return Section(**{**d, "targets": [Target(**t) for t in d["targets"]]})


if __name__ == "__main__":
    main()
