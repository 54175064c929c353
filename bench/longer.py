"""What more time gives: deals the census within the time left undecided, searched again.

``python -m bench.winnability --longer SECONDS [--per N] [RULE_SET ...]``: the first ``N``
deals that ``--within`` left undecided of each rule set short of its target for this
search's speed (docs/winnability.md), each searched again with ``SECONDS``: the same
turns, each as many times longer. A deal decided then says how much faster a search must
be to decide it within the time; one still undecided, that it must be faster still.
Written under bench/winnability.json's ``longer`` key, and resumed like ``--within``.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench import winnability as w
from bench.common import fmt
from engine.solver import VERSION


def short(within: dict[str, Any]) -> list[str]:
    """The rule sets short of the target within the time for this search's speed."""
    return sorted(k for k, r in within["sets"].items()
                  if k not in w.WHY_NOT and w.short_of_target(r))


def longer(keys: list[str], seconds: float, per: int, jobs: int) -> dict[str, Any]:
    """Search again, with ``seconds`` each, the first ``per`` deals of each rule set of
    ``keys`` (default: ``short``) that the census within the time left undecided."""
    data = w.load()
    within = data["within"]
    sets = w.records(data.setdefault("longer", {}), {
        "seconds": seconds, "after": within["budget"]["seconds"], "solver": VERSION,
        "engine": w.engine_kind()})
    with ProcessPoolExecutor(jobs) as pool:
        for key in keys or short(within):
            rec = sets.setdefault(key, {"deals": [], "outcomes": "", "positions": [], "cpu": []})
            left = [i for i, o in enumerate(within["sets"][key]["outcomes"]) if o == "U"][:per]
            todo = left[len(rec["deals"]):]
            for i, d in zip(todo, pool.map(w.judge, [key] * len(todo), todo,
                                           [None] * len(todo), [seconds] * len(todo)),
                            strict=True):
                rec["deals"].append(i)
                rec["outcomes"] += d.outcome
                rec["positions"].append(d.positions)
                rec["cpu"].append(round(d.cpu, 3))
                w.save(data)
            print(f"{key}: {rec['deals']} {rec['outcomes']}", flush=True)
    return data


def render_longer(rec_all: dict[str, Any], within: dict[str, Any]) -> list[str]:
    b, sets = rec_all["budget"], rec_all["sets"]
    # Rule sets whose first undecided deals changed with a later search are left out: their
    # rows would be of deals the table above now decides.
    left_out = [f"`{k}`" for k in short(within) if k not in sets]
    secs, after = f"{b['seconds']:g}", f"{b['after']:g}"
    per = max(len(r["deals"]) for r in sets.values())
    outs = "".join(r["outcomes"] for r in sets.values())
    decided = len(outs) - outs.count("U")
    ratio = f"{b['seconds'] / b['after']:g}"
    lines = [
        "",
        f"## Given {secs} seconds",
        "",
        f"The deals the table above left undecided within {after} seconds, the first {per} of "
        "each rule set",
        f"under {w.TARGET}% for this search's speed, each",
        f"searched again with {secs} seconds of wall time (the same turns, each {ratio} times "
        "as long;",
        f"engine/solver `VERSION` {b['solver']}, the engine {b['engine']}), two deals at a "
        "time on the two cores.",
        "Regenerate with",
        "",
        f"    python -m bench.winnability --longer {secs} --per {per} --jobs 2",
        "",
        f"**{decided} of {len(outs)} decided:** about what a search {ratio} times as fast "
        f"would decide within {after} seconds",
        f"(the same turns and positions, in 1/{ratio} of the time).",
        *([f"Not searched again with this version: {', '.join(left_out)}, whose first "
           "undecided deals a later version decides.", ""] if left_out else [""]),
        "| rule set | deals | won | proved lost | still undecided | CPU s of each decided |",
        "| --- | --- | ---: | ---: | ---: | --- |",
    ]
    for key in sorted(sets):
        r = sets[key]
        out = r["outcomes"]
        times = ", ".join(f"{fmt(c)} (deal {i})" for i, o, c in
                          zip(r["deals"], out, r["cpu"], strict=True) if o != "U")
        lines.append(f"| `{key}` | {', '.join(map(str, r['deals']))} | {out.count('W')} | "
                     f"{out.count('L')} | {out.count('U')} | {times or '-'} |")
    return lines
