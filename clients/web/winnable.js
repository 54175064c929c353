// The winnable-deal rule on the daily page (docs/fairness.md, "Winnable daily deals"): before
// the reveal only that the deal is its day's first candidate the solver proves winnable, after
// it par, the candidate dealt and how to check it; and par on the day's leaderboard.

import { h } from "./dom.js";

// The note under a deal's commitment, or null when the rule did not apply to it.
export function winnableNote(d) {
  if (!d.winnable_rule) return null;
  const w = d.winnable;
  if (!w) {
    return h("p.winnable", { "data-state": d.pending ? "pending" : "secret", text: d.pending
      ? "This deal is being chosen: the first candidate the solver proves winnable. It opens in a moment."
      : "Winnable: this deal is the day's first candidate the solver proves winnable. Which candidate, the solver's line and par are published with the seeds." });
  }
  if (!w.found) {
    return h("p.winnable", { "data-state": "none", text: `No candidate of the first ${w.cap} was proved winnable within ${w.budget.positions} positions, so this is the first candidate; it has no par.` });
  }
  const skipped = w.k === 0 ? "the first candidate" : `candidate ${w.k} (${w.k} skipped, each not won within ${w.budget.positions} positions)`;
  return h("div.winnable", { "data-state": "revealed", "data-par": w.par },
    h("p.par", { text: `Par: ${w.par} moves, the solver's winning line for ${skipped}.` }),
    h("details", {}, h("summary", { text: "The winning line" }), h("code", { text: w.line })),
    h("p", { text: "Check it yourself: samedeal verify-day, or samedeal replay with this seed and line." }));
}

// A board's par line, or null before the reveal (no par).
export function boardPar(top) {
  return top.par == null ? null : h("p.board-par", { "data-par": top.par, text: `Par: ${top.par} moves. Each result's moves against par are in brackets.` });
}

// An entry's moves, with its moves against par once the day has one: "31 (+5)".
export function movesText(e) {
  if (e.vs_par == null) return String(e.moves ?? "");
  return `${e.moves} (${e.vs_par > 0 ? "+" : ""}${e.vs_par})`;
}
