// The race's progress track: one lane per entrant beside the board, a bar of the deck's cards
// filling as their cards reach the foundations, their score, and a mark once they are done
// (won, lost, finished, resigned). Built only from race.progress and the summary: counts the
// server makes public, never a card. The player's own lane is highlighted and listed first.

import { h } from "./dom.js";

const MARKS = { won: "won", lost: "lost", finished: "finished", resigned: "resigned" };

// The element, and update(race, me, deck) to redraw it from the race as last known; `deck` is
// how many cards the deal holds (the bar's length).
export function progressTrack() {
  const list = h("ol.track", { "aria-label": "Progress to the foundations" });
  const el = h("section.race-track", {}, h("h2", { text: "Progress" }), list);

  function lane(e, me, deck) {
    const started = e.status !== undefined;
    // The summary has no card counts: after a reload they show from the entrant's next move.
    const known = typeof e.cards === "number";
    const cards = known ? e.cards : 0;
    const status = e.resigned ? "resigned" : e.status && e.status !== "playing" ? e.status : started ? "playing" : "waiting";
    const share = deck ? Math.min(100, Math.round((cards / deck) * 1000) / 10) : 0;
    const fill = h("span.track-fill");
    fill.style.setProperty("--share", `${share}%`); // a style property, not an inline attribute (CSP)
    return h(`li.track-lane${e.player === me ? ".me" : ""}`,
      { "data-player": e.player, "data-cards": known ? cards : "", "data-status": status },
      h("span.track-name", { text: e.player === me ? `${e.name} (you)` : e.name },
        e.kind === "bot" ? h("span.kind", { text: " bot" }) : null),
      h("span.track-bar", {
        role: "meter", "aria-valuemin": 0, "aria-valuemax": deck, "aria-valuenow": cards,
        "aria-label": known ? `${e.name}: ${cards} of ${deck} cards on the foundations` : `${e.name}: cards on the foundations not known yet`,
      }, fill),
      h("span.track-count", { text: `${known ? cards : "—"}/${deck}` }),
      h("span.track-score", { text: started ? `score ${e.score ?? 0}` : "" }),
      MARKS[status] ? h("span.tag.track-mark", { "data-mark": status, text: MARKS[status] }) : null);
  }

  function update(race, me, deck) {
    if (!race) return;
    const rows = [...race.entrants].sort((a, b) => (b.player === me) - (a.player === me));
    list.replaceChildren(...rows.map((e) => lane(e, me, deck)));
  }

  return { el, update };
}

// How many cards a deal holds, counted from a view's piles (face-down counts and face-up cards:
// public numbers); every rule set deals one 52-card deck, the default before a view is known.
export function deckSize(view) {
  if (!view?.piles) return 52;
  let n = 0;
  for (const p of Object.values(view.piles)) n += (p.down || 0) + (p.up?.length || 0);
  return n || 52;
}
