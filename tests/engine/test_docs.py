"""The documents that the tests can hold to the code: deal vectors, error codes, rule pages."""

from __future__ import annotations

import os
import re
from pathlib import Path

import engine
from engine.cards import TEXT

ROOT = Path(__file__).resolve().parents[2]
DEALS = ROOT / "docs" / "deals.md"
SEED = b"\x00"


def render_deals() -> str:
    """docs/deals.md: the layout each rule set deals from the seed 00."""
    out = [
        "# Layout test vectors",
        "",
        "The deal every rule set makes from the seed `00` (one byte, zero), with the algorithm of",
        "[fairness.md](fairness.md). Piles bottom card first; face-down cards in brackets; the",
        "stock's last card is its top, the next one drawn. Generated and checked by",
        "`tests/engine/test_docs.py` (`SAMEDEAL_REGEN=1` rewrites it).",
        "",
    ]
    for rules in engine.rule_sets():
        st = rules.deal(SEED)
        out += [f"## {rules.key}", "", "```"]
        for p, name in enumerate(rules.pile_names):
            cards = [TEXT[c] for c in st.piles[p]]
            d = st.down[p]
            hidden = f"[{' '.join(cards[:d])}] " if d else ""
            out.append(f"{name:4} {hidden}{' '.join(cards[d:])}".rstrip())
        extra = {k: v for k, v in sorted(st.vars.items())}
        if extra:
            out.append("vars " + " ".join(f"{k}={v}" for k, v in extra.items()))
        out += ["```", ""]
    return "\n".join(out)


def test_deal_vectors():
    text = render_deals()
    if os.environ.get("SAMEDEAL_REGEN"):
        DEALS.write_text(text)
    assert DEALS.read_text() == text, "docs/deals.md is stale: rerun with SAMEDEAL_REGEN=1"


def test_every_rule_set_has_a_rule_page():
    for rules in engine.rule_sets():
        page = ROOT / "docs" / "rules" / f"{rules.id}.md"
        assert page.exists(), f"no rule page for {rules.id}"
        assert rules.variant in page.read_text()


def test_every_error_code_is_documented():
    codes = set()
    for path in (ROOT / "engine").rglob("*.py"):
        codes |= set(re.findall(r'Refusal\(\s*"([a-z][a-z0-9_.-]*)"', path.read_text()))
    docs = (ROOT / "docs" / "notation.md").read_text() + "".join(
        p.read_text() for p in (ROOT / "docs" / "rules").glob("*.md"))
    missing = sorted(c for c in codes if f"`{c}`" not in docs and not c.startswith("build."))
    assert not missing, f"undocumented error codes: {missing}"


def test_the_declaration_example_in_engine_md_declares_klondike():
    """docs/engine.md's "Declaring a game" example runs and declares the real Klondike."""
    from engine import registry

    text = (ROOT / "docs" / "engine.md").read_text()
    section = text[text.index("## Declaring a game"):]
    example = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    real = {v: engine.get("klondike", v) for v in ("easy", "difficult")}
    before = dict(registry._RULE_SETS)
    try:
        exec(compile(example, "docs/engine.md", "exec"), {"__name__": "docs_example"})
        for variant, rules in real.items():
            declared = registry._RULE_SETS[("klondike", variant)]
            assert declared is not rules, "the example did not register its rule set"
            described = {**declared.describe(), "summary": rules.summary}
            assert described == rules.describe()
            assert declared.stock == rules.stock
            assert [g.build for g in declared.groups] == [g.build for g in rules.groups]
    finally:
        registry._RULE_SETS.clear()
        registry._RULE_SETS.update(before)


def test_the_solver_examples_in_solver_md_run_and_say_what_they_show():
    """docs/solver.md's examples of ``solve`` and ``hint`` run as written, and seed 00 is the
    win the page's ``samedeal solve`` example prints (a hint from the solver, its line)."""
    from engine.solver import Outcome

    text = (ROOT / "docs" / "solver.md").read_text()
    solve_block, hint_block, analysis_block = re.findall(r"```python\n(.*?)```", text, re.S)
    names: dict[str, object] = {}
    exec(compile(solve_block, "docs/solver.md", "exec"), names)
    v = names["v"]
    assert v.outcome is Outcome.WON and v.complete is False and len(v.moves) == 123
    exec(compile(hint_block, "docs/solver.md", "exec"), names)
    h = names["h"]
    assert h.source == "solver" and h.move == h.line[0] and h.line_left == len(h.line)
    assert not h.lost and h.after().move == h.line[1]
    exec(compile(analysis_block, "docs/solver.md", "exec"), names)
    a = names["a"]
    assert a.positions[0].verdict is Outcome.WON
    assert a.turning_point.text.startswith("The game was resigned with the deal still winnable")
