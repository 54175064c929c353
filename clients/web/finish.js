// Whether auto-complete will finish from the view the page has: every card face up, the stock
// and the waste empty, foundations that build up from the deal's base (by suit, unless one
// already holds two suits), and every card left able to go up from the top of its pile, one
// after another. Checked by playing those moves on a copy of the view, each taking a card off
// the board, so the check always ends. Sending a card up never stops another from going, so
// the order tried does not change the answer.

import { parseCard } from "./cards.js";

const RANKS = "A23456789TJQK";
const RANK_OF = { Ace: "A", Jack: "J", Queen: "Q", King: "K", 10: "T" };

// The deal's base rank as a letter ("A" unless the view's info names another); null while
// the deal has not decided it.
function baseRank(view) {
  const base = view.info && "base" in view.info ? view.info.base : "Ace";
  const rank = RANK_OF[base] || String(base ?? "");
  return rank.length === 1 && RANKS.includes(rank) ? rank : null;
}

// The piles whose cards auto-complete sends up, in the order it can, as [from, foundation]
// pairs; null when it could not send every card up.
export function finishingLine(ruleSet, view) {
  const groups = ruleSet?.layout || [];
  const foundations = groups.filter((g) => g.kind === "foundation");
  if (ruleSet?.play !== "build" || !foundations.length) return null;
  if (foundations.some((g) => g.fill !== "base")) return null;
  const base = baseRank(view);
  if (!base) return null;
  const step = (card) => (RANKS.indexOf(card.rank) - RANKS.indexOf(base) + 13) % 13;
  const piles = view.piles || {};
  if (Object.values(piles).some((p) => p.down)) return null;
  const around = groups.filter((g) => g.kind === "stock" || g.kind === "waste");
  if (around.some((g) => g.piles.some((n) => piles[n]?.up?.length))) return null;

  // Each foundation's suit and the step of the card it takes next, from what it holds.
  const ups = new Map();
  let bySuit = true;
  for (const name of foundations.flatMap((g) => g.piles)) {
    const cards = (piles[name]?.up || []).map(parseCard);
    if (cards.some((c, i) => !c || step(c) !== i)) return null;
    if (cards.some((c) => c.suit !== cards[0].suit)) bySuit = false;
    ups.set(name, { suit: cards[0]?.suit ?? null, next: cards.length });
  }
  const rest = groups.filter((g) => g.kind !== "foundation").flatMap((g) => g.piles)
    .map((name) => ({ name, cards: (piles[name]?.up || []).map(parseCard) }));
  if (rest.some((p) => p.cards.some((c) => !c))) return null;

  let left = rest.reduce((n, p) => n + p.cards.length, 0);
  const line = [];
  for (let moved = true; left && moved;) {
    moved = false;
    for (const pile of rest) {
      const card = pile.cards.at(-1);
      if (!card) continue;
      const to = [...ups].find(([, f]) => f.next === step(card)
        && (!bySuit || f.next === 0 || f.suit === card.suit));
      if (!to) continue;
      to[1].suit = card.suit;
      to[1].next += 1;
      pile.cards.pop();
      left -= 1;
      line.push([pile.name, to[0]]);
      moved = true;
    }
  }
  return left ? null : line;
}
