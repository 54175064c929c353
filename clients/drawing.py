"""The table as text, for the terminal player: every group of a rule set's layout drawn from
its description (pile kinds, fans, rows, alignment), never from the engine's internals; a
face-down card is only ever ``##``."""

from __future__ import annotations

from typing import Any

Payload = dict[str, Any]
Layout = dict[str, Any]

CELL = 4  # characters per card or pile name in a row: "t13 ", "Qh  "


class Painter:
    """Text for cards, with optional ANSI colour (red suits, dim backs)."""

    def __init__(self, color: bool) -> None:
        self.color = color

    def card(self, c: str, width: int = 0) -> str:
        text = c.ljust(width)
        if self.color and c[-1:] in ("d", "h"):
            return f"\x1b[31m{c}\x1b[0m" + text[len(c):]
        if self.color and c == "##":
            return f"\x1b[2m{c}\x1b[0m" + text[len(c):]
        return text

    def cards(self, p: dict[str, Any]) -> list[str]:
        """A pile bottom to top: its face-down cards as ``##`` (only their count is known)."""
        return ["##"] * p["down"] + list(p["up"])


def row_lines(paint: Painter, names: list[str], piles: dict[str, Any],
              indent: int = 0, label: str = "") -> list[str]:
    """A row of one-card places: the names, and under each its top card (``..``: empty)."""
    pad = " " * indent
    head = label.ljust(len(label) and len(label) + 1)
    top = pad + "".join(n.ljust(CELL) for n in names)
    cells = []
    for n in names:
        p = piles[n]
        c = p["up"][-1] if p["up"] else ("##" if p["down"] else "..")
        cells.append(paint.card(c, CELL))
    return [(head + top).rstrip(), (" " * len(head) + pad + "".join(cells)).rstrip()]


def summary(paint: Painter, name: str, p: dict[str, Any], fan: str) -> str:
    """One pile on one line: face-down cards as a count, then the face-up ones (for a fan
    "none" pile only the top, with how many lie under it). Of a fanned pile's cards, written
    bottom to top, the one on top (the one that plays) is named: "w: 9d 7h 3c (3c on top)"."""
    parts = [f"{name}:"]
    if p["down"]:
        parts.append(f"{paint.card('##')} x{p['down']}")
    up = p["up"]
    if fan == "none":
        if up:
            parts.append(paint.card(up[-1]) + (f" ({len(up)})" if len(up) > 1 else ""))
    elif len(up) > 8:
        parts.append(f"(+{len(up) - 8})")
        parts += [paint.card(c) for c in up[-8:]]
    else:
        parts += [paint.card(c) for c in up]
    if fan != "none" and len(up) > 1:
        parts.append(f"({paint.card(up[-1])} on top)")
    if not up and not p["down"]:
        parts.append("--")
    return " ".join(parts)


def columns(paint: Painter, names: list[str], piles: dict[str, Any]) -> list[str]:
    """Columns fanned downwards, side by side; an empty column shows ``--`` where its first
    card would lie, so a free column is seen at a glance."""
    stacks = [paint.cards(piles[n]) or ["--"] for n in names]
    lines = ["".join(n.ljust(CELL) for n in names).rstrip()]
    for i in range(max((len(s) for s in stacks), default=0)):
        cells = [paint.card(s[i], CELL) if i < len(s) else " " * CELL for s in stacks]
        lines.append("".join(cells).rstrip())
    return lines


def draw_group(paint: Painter, group: dict[str, Any], piles: dict[str, Any],
               labels: list[str] | None = None) -> list[str]:
    """One layout group, drawn as its description says: a group of several rows (a grid, the
    pins, a pyramid) row by row, each centred when its ``align`` says so."""
    names = [n for n in group["piles"] if n in piles]
    fan = group["fan"]
    if fan == "slider":  # the row labels of the grid it slides
        return [] if labels is not None else [" ".join(names) + ": slides a row"]
    rows = [[n for n in row if n in piles] for row in group.get("rows", [names])]
    if len(rows) > 1 or fan == "grid":
        width = max(len(row) for row in rows)
        out = []
        for r, row in enumerate(rows):
            indent = (width - len(row)) * CELL // 2 if group.get("align") == "center" else 0
            label = labels[r] if labels and r < len(labels) else ""
            out += row_lines(paint, row, piles, indent=indent, label=label)
        return out
    if fan == "down":
        return columns(paint, names, piles)
    if fan == "none" and group["kind"] in ("cell", "foundation", "reserve") and len(names) > 1 \
            and all(p["down"] == 0 and len(p["up"]) <= 1 for p in (piles[n] for n in names)):
        return row_lines(paint, names, piles)  # one-card places side by side
    return [summary(paint, n, piles[n], fan) for n in names]


def draw_info(info: Any) -> list[str]:
    """The view's public facts (stock pass, scorecards, line scores) in a line or a few."""
    if not isinstance(info, dict) or not info:
        return []
    out, plain = [], []
    for key, value in info.items():
        if key == "bowlers" and isinstance(value, list):
            for b in value:
                marks = " ".join("".join(f.get("marks", [])) or "." for f in b.get("frames", []))
                out.append(f"bowler {b.get('bowler')}: {marks}  total {b.get('total')}")
        elif key == "lines" and isinstance(value, list):
            out.append("lines: " + ", ".join(
                f"{ln.get('line')} {ln.get('hand') or ''} {ln.get('points')}".replace("  ", " ")
                for ln in value if isinstance(ln, dict)))
        elif isinstance(value, dict):
            plain.append(f"{key} " + " ".join(f"{k}={v}" for k, v in value.items()))
        elif isinstance(value, list):
            plain.append(f"{key} {len(value)}" if value and isinstance(value[0], dict)
                         else f"{key} {' '.join(map(str, value)) or '-'}")
        else:
            plain.append(f"{key} {value if value is not None else '-'}")
    return ([" | ".join(plain)] if plain else []) + out


def render(layout: Layout, payload: Payload, color: bool = False) -> str:
    """The whole table as text: a title line, every group of the layout, the info."""
    paint = Painter(color)
    view = payload["view"]
    piles = view["piles"]
    low = " (lower is better)" if layout.get("scoring") == "low" else ""
    lines = [f"{layout.get('name', view['game'])} ({view['variant']})  score {view['score']}"
             f"{low}  moves {view['moves']}  {view['status']}"]
    groups = layout["layout"]
    sliders = next((g["piles"] for g in groups if g["fan"] == "slider"), None)
    joinable = False
    for g in groups:
        labels = sliders if g["fan"] in ("grid", "slider") else None
        body = draw_group(paint, g, piles, labels)
        if len(body) == 1 and joinable:
            lines[-1] += "    " + body[0]  # short piles (stock, waste) share a line
        elif body:
            lines.append("")
            lines += body
        joinable = len(body) == 1 and len(lines[-1]) < 60
    info = draw_info(view.get("info"))
    if info:
        lines.append("")
        lines += info
    return "\n".join(lines)
