// What lies in the piles: each pile's backs and face-up cards as the view says, its accessible
// name in the words of its group's description ("column 3, 4 face-down, queen of spades on top"),
// the notes the view adds under piles, and which piles are covered by others still holding cards.

import { backElement, cardElement, cardName } from "./cards.js";
import { fanOf } from "./layout.js";

const EMPTY = { down: 0, up: [] };

// Every pile of the board drawn from the view (a pile whose contents did not change is left).
export function drawPiles(layout, view) {
  const count = (name) => {
    const p = view.piles?.[name];
    return p ? (p.down || 0) + (p.up?.length || 0) : 0;
  };
  for (const name of layout.order) {
    const g = layout.groupOf.get(name);
    const covered = (g.covered_by?.[name] || []).some((c) => count(c) > 0);
    drawPile(layout.piles.get(name), name, g, view.piles?.[name] || EMPTY, covered);
  }
  drawNotes(layout, view.info?.needs);
}

// "column 3"; a group's single pile is just its word ("stock").
export function pileLabel(group, name) {
  const word = group?.word || group?.kind || "pile";
  const num = name.replace(/^[a-z]+/, "");
  return num ? `${word} ${num}` : word;
}

function drawPile(pile, name, g, data, covered) {
  const key = JSON.stringify([data, covered]);
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
  up.forEach((text, i) => {
    const c = cardElement(text);
    c.dataset.pile = name;
    c.dataset.index = String(down + i);
    pile.append(c);
  });
  const total = down + up.length;
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
