// What lies in the piles: each pile's backs and face-up cards as the view says, its accessible
// name in the words of its group's description ("column 3, 4 face-down, queen of spades on top"),
// the notes the view adds under piles, which piles are covered by others still holding cards, and
// the mark an empty pile shows: what may start it (an Ace or the base rank, a K), a turn-over
// mark on an empty stock that can be turned over, nothing where nothing may go.

import { backElement, cardElement, cardName } from "./cards.js";
import { fanOf } from "./layout.js";

const EMPTY = { down: 0, up: [] };

// Every pile of the board drawn from the view (a pile whose contents did not change is left);
// `legal` (the moves in notation) says whether an empty stock can be turned over.
export function drawPiles(layout, view, legal = []) {
  const count = (name) => {
    const p = view.piles?.[name];
    return p ? (p.down || 0) + (p.up?.length || 0) : 0;
  };
  for (const name of layout.order) {
    const g = layout.groupOf.get(name);
    const covered = (g.covered_by?.[name] || []).some((c) => count(c) > 0);
    const mark = emptyMark(g, name, view, legal);
    drawPile(layout.piles.get(name), name, g, view.piles?.[name] || EMPTY, covered, mark);
  }
  drawNotes(layout, view.info?.needs);
}

// "column 3"; a group's single pile is just its word ("stock").
export function pileLabel(group, name) {
  const word = group?.word || group?.kind || "pile";
  const num = name.replace(/^[a-z]+/, "");
  return num ? `${word} ${num}` : word;
}

// What an empty pile shows, from its group's `fill`: "A" (or the deal's base rank) on a
// foundation, the rank below the base where only it fills, "K" where only Kings fill, "↻" on
// a stock that can be turned over, else nothing.
function emptyMark(g, name, view, legal) {
  if (g.kind === "stock") return legal.includes(name) ? "↻" : "";
  if (g.fill === "king") return "K";
  if (g.fill === "base" || g.fill === "below-base") {
    const base = view.info && "base" in view.info ? view.info.base : "Ace";
    if (!base) return "";
    const rank = RANKS.indexOf(base) + (g.fill === "below-base" ? 12 : 0);
    return RANKS[rank % 13].replace(/^(Ace|Jack|Queen|King)$/, (w) => w[0]);
  }
  return "";
}

// The rank words of the view's `info.base`, Ace first.
const RANKS = ["Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"];

function drawPile(pile, name, g, data, covered, mark) {
  const key = JSON.stringify([data, covered, mark]);
  if (pile.dataset.drawn === key) return;
  pile.dataset.drawn = key;
  for (const c of [...pile.querySelectorAll(":scope > .card, :scope > .count")]) c.remove();
  const down = data.down || 0;
  const up = data.up || [];
  for (let i = 0; i < down; i++) {
    const b = backElement();
    b.dataset.pile = name;
    b.dataset.index = String(i);
    pile.append(b);
  }
  const total = down + up.length;
  // A right fan shows its top `show` cards; those under them lie squared beneath the first.
  const squared = fanOf(g) === "right" && g.show ? total - g.show : 0;
  up.forEach((text, i) => {
    const c = cardElement(text);
    c.dataset.pile = name;
    c.dataset.index = String(down + i);
    const at = down + i;
    if (at > 0 && at <= squared) c.classList.add("squared");
    pile.append(c);
  });
  pile.dataset.mark = total === 0 ? mark : "";
  pile.classList.toggle("closed", total === 0 && g.fill === "none");
  pile.classList.toggle("empty", total === 0);
  pile.classList.toggle("covered", covered);
  if (fanOf(g) === "stack" && total > 1) {
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = String(total);
    count.setAttribute("aria-hidden", "true");
    pile.append(count);
  }
  let label = pileLabel(g, name);
  if (total === 0) label += ", empty";
  else {
    if (down) label += `, ${down} face-down`;
    if (up.length) label += `, ${cardName(up[up.length - 1])} on top`;
    if (covered) label += ", covered";
  }
  pile.setAttribute("aria-label", label);
}

// view.info.needs: {pile: rank or null}, the rank a pile takes next ("next 7"), or "done".
function drawNotes(layout, needs) {
  for (const p of layout.board.querySelectorAll(".note")) p.remove();
  if (!needs || typeof needs !== "object") return;
  for (const [name, rank] of Object.entries(needs)) {
    const pile = layout.piles.get(name);
    if (!pile) continue;
    const n = document.createElement("span");
    n.className = "note";
    n.textContent = rank ? `next ${rank}` : "done";
    pile.append(n);
  }
}
