// The conveniences of a session area (play.js): the auto-move setting, when auto-complete may
// run and what it plays next, and the question before giving up a ranked game. Which moves are
// safe is the engine's knowledge: the session payload's `safe` list (docs/protocol.md); every
// move chosen here is sent as a normal move, one at a time.

import { h } from "./dom.js";

const STOCK_MOVE = "s"; // the stock's move in the notation (docs/notation.md)

// Races and ranked daily attempts: what counts for a ranking.
export function isRanked(mode) {
  return mode === "race" || mode === "daily";
}

// Auto-move on or off, kept per kind of play in this browser: on in practice (and daily
// replays), off in ranked play until the player switches it on there.
export function autoMoveSetting(mode) {
  const key = `samedeal.automove.${isRanked(mode) ? "ranked" : "practice"}`;
  return {
    get() {
      let kept = null;
      try { kept = localStorage.getItem(key); } catch { /* storage refused: the default */ }
      return kept === null ? !isRanked(mode) : kept === "1";
    },
    set(on) {
      try { localStorage.setItem(key, on ? "1" : "0"); } catch { /* kept for this page only */ }
    },
  };
}

function pilesOfKind(ruleSet, kind) {
  return (ruleSet?.layout || []).filter((g) => g.kind === kind).flatMap((g) => g.piles);
}

// Nothing face down anywhere on the board, the stock included.
export function nothingHidden(view) {
  return Object.values(view.piles || {}).every((p) => !p.down);
}

// Auto-complete is offered in a game that builds onto foundations, while it is on and nothing
// is hidden, when there is something for it to play.
export function canAutoComplete(ruleSet, payload) {
  const v = payload.view;
  return ruleSet?.play === "build" && pilesOfKind(ruleSet, "foundation").length > 0
    && v.status === "playing" && nothingHidden(v)
    && ((payload.safe || []).length > 0 || (payload.legal || []).includes(STOCK_MOVE));
}

// One auto-complete run: each call gives the next move, or null when it stops. A safe
// foundation move first; else a turn of the stock, but no more turns in a row than there are
// cards in the stock and waste (and two), so a run that finds nothing stops.
export function autoCompleteRun(ruleSet) {
  let turns = 0;
  return (payload) => {
    const v = payload.view;
    if (v.status !== "playing") return null;
    if ((payload.safe || []).length) {
      turns = 0;
      return payload.safe[0];
    }
    const around = [...pilesOfKind(ruleSet, "stock"), ...pilesOfKind(ruleSet, "waste")]
      .reduce((n, name) => n + (v.piles[name]?.down || 0) + (v.piles[name]?.up?.length || 0), 0);
    if (!(payload.legal || []).includes(STOCK_MOVE) || turns > around + 2) return null;
    turns += 1;
    return STOCK_MOVE;
  };
}

// "Resign this race?" as a modal dialog; resolves true only for Resign (Escape keeps playing).
export function confirmResign(host, mode) {
  const what = mode === "race" ? "this race" : "this ranked attempt";
  return new Promise((resolve) => {
    const yes = h("button.danger", { type: "button", "data-act": "resign", text: "Resign" });
    const no = h("button.primary", { type: "button", "data-act": "keep", text: "Keep playing" });
    const dialog = h("dialog.resign-confirm", { "aria-label": "resign" },
      h("p", { text: `Resign ${what}? You cannot come back.` }), h("div.actions", {}, no, yes));
    let answer = false;
    yes.addEventListener("click", () => { answer = true; dialog.close(); });
    no.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(answer);
    });
    host.append(dialog);
    dialog.showModal();
    no.focus();
  });
}
