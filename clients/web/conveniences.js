// The conveniences of a session area (play.js): the auto-move setting, when auto-complete may
// run and what it plays next, and the question before giving up a ranked game. Which moves are
// safe is the engine's knowledge: the session payload's `safe` list (docs/protocol.md); every
// move chosen here is sent as a normal move, one at a time.

import { h } from "./dom.js";
import { finishingLine } from "./finish.js";
import { parseMove } from "./moves.js";

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

// Auto-complete is offered only where it will finish (finish.js: every card face up, the
// stock and waste empty, and every card able to go up), in a game that builds onto
// foundations, when it has something to play.
export function canAutoComplete(ruleSet, payload) {
  return payload.view.status === "playing" && nextFinishing(ruleSet, payload) !== null;
}

// One auto-complete run: each call gives the next move, or null when it stops. A safe
// foundation move first; else the next card of the finishing line, as the server's legal move
// from its pile to a foundation. Every move sends a card up, so the run ends.
export function autoCompleteRun(ruleSet) {
  return (payload) => (payload.view.status === "playing" ? nextFinishing(ruleSet, payload) : null);
}

function nextFinishing(ruleSet, payload) {
  const line = finishingLine(ruleSet, payload.view);
  if (!line?.length) return null;
  if ((payload.safe || []).length) return payload.safe[0];
  const foundations = new Set(pilesOfKind(ruleSet, "foundation"));
  const [from] = line[0];
  return (payload.legal || []).find((m) => {
    const p = parseMove(m);
    return p.from === from && p.n === 1 && foundations.has(p.to);
  }) ?? null;
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
