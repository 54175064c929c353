// A match's scores as tables, for the match page: a "turns" match's scorecards (frames, marks,
// running totals, the ball in progress) and the last frame every bowler has bowled, card by
// card; a "called" match's line scores, player by player (never another player's grid).

import { cardElement } from "./cards.js";
import { h } from "./dom.js";
import { cardWords, pileWords } from "./words.js";

const FRAMES = 10;

// The scorecard of every bowler from the view's info; `me` marks the player's own row. While
// a frame is being bowled it is hidden from all but its bowler until every bowler has bowled
// it: the bowler bowling shows "bowling…", those who bowled it "…" (the player's own row from
// `own`, the summary's own_frame, once they have bowled it).
export function scorecards(m, info, me, own) {
  const running = m.state === "running";
  const rows = info.bowlers.map((b) =>
    running && own && own.frame === info.frame && own.bowler === b.bowler ? own.scorecard : b);
  return h("table.scorecard", {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Bowler" }),
      Array.from({ length: FRAMES }, (_, i) => h("th", { scope: "col", text: i + 1 })),
      h("th", { scope: "col", text: "Total" }))),
    h("tbody", {}, rows.map((b) => {
      const p = m.players[b.bowler - 1];
      const current = running && info.bowler === b.bowler;
      const mine = p?.player === me;
      return h(`tr${current ? ".current" : ""}${p?.player === me ? ".me" : ""}`, { "data-bowler": b.bowler, "data-player": p?.player },
        h("th", { scope: "row", text: p ? p.name : `Bowler ${b.bowler}` }, b.forfeited ? h("span.tag.forfeit", { text: "left" }) : null),
        b.frames.map((f) => {
          const live = current && info.frame === f.frame;
          const hidden = running && !live && info.frame === f.frame && !f.balls.length &&
            b.bowler < info.bowler;
          return h(`td.frame${live ? ".live" : ""}${hidden ? ".hidden" : ""}`, { "data-frame": f.frame },
            h("span.marks", { text: f.marks.join(" ") }),
            live && mine ? h("span.pins", { text: ` ball ${info.ball}: ${info.pins} pin${info.pins === 1 ? "" : "s"}` }) : null,
            live && !mine ? h("span.pins", { text: "bowling…" }) : null,
            hidden ? h("span.pins", { text: "…", title: "shown once every bowler has bowled this frame" }) : null,
            h("span.total", { text: f.total ?? "" }));
        }),
        h("td.bowler-total", { text: b.total }));
    })));
}

// The last frame every bowler still in has bowled: its cards are everyone's now, bowler by
// bowler in the order bowled, each titled with where it went.
export function frameCards(f, ruleSet, nameOf) {
  if (!f) return null;
  return h("section.frame-cards", { "data-frame": f.frame },
    h("h3", { text: `Frame ${f.frame}: the cards each bowler bowled` }),
    f.bowlers.map((b) => h("div.frame-lane", { "data-bowler": b.bowler },
      h("span.who", { text: nameOf(b.player) }),
      h("span.cards", {}, b.cards.map((c) => {
        const el = cardElement(c.card);
        el.title = `${cardLabel(c.card)} ${placeName(ruleSet, c.move)}`;
        return el;
      })))));
}

// Every player's score, cards placed, state and scoring lines, in seat order.
export function lineScores(m, me) {
  return h("table.line-scores", {},
    h("thead", {}, h("tr", {}, ["Player", "Score", "Placed", "", "Lines"].map((t) => h("th", { scope: "col", text: t })))),
    h("tbody", {}, m.players.map((p) => {
      const pid = p.player;
      const s = m.scores?.[pid] || {};
      const state = p.forfeited ? "left" : s.done ? "grid full" : s.waiting ? "placing…" : m.state === "running" ? "waiting for the others" : "";
      return h(`tr${pid === me ? ".me" : ""}`, { "data-player": pid },
        h("th", { scope: "row", text: p.name ?? pid }),
        h("td.score", { text: s.score ?? 0 }), h("td", { text: s.placed ?? 0 }), h("td.state", { text: state }),
        h("td.lines", {}, (s.lines || []).filter((l) => l.hand).map((l) => h("span.line", { text: `${l.line}: ${l.hand} ${l.points}` }))));
    })));
}

// The stock's pile name in a rule set's layout: where the card being placed shows.
export function stockOf(ruleSet) {
  return ruleSet?.layout?.find((g) => g.kind === "stock")?.piles[0];
}

// "s-p4" -> "onto pin 4": the pile in the words of its group's description (words.js).
export function placeName(ruleSet, move) {
  const to = move.split("-")[1] || move;
  return `onto ${pileWords(ruleSet, to)}`;
}

// "7h" -> "7♥".
export const cardLabel = cardWords;
