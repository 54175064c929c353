// Moves, games, races and matches in players' words: "7♥ from column 5 to column 2", "draw from
// the stock", "5♣ and 8♦ removed", "Klondike (easy) race, 3 players, 24 Nov 10:40".
//
// A move's words come from the rule set's description (each pile group's `word`) and the view
// before the move, the board as this player saw it: only its face-up cards are named, so the
// words never tell more than the board showed. Without a view (a replay before its seed is
// public) the piles are named and the cards are not. The engine notation stays the move's
// title where a page shows the words.

import { parseCard } from "./cards.js";
import { parseMove } from "./moves.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

// "7h" -> "7♥", "Ts" -> "10♠"; anything else as it is.
export function cardWords(text) {
  const c = parseCard(text);
  return c ? `${c.label}${c.symbol}` : String(text);
}

function groupOf(ruleSet, pile) {
  return ruleSet?.layout?.find((g) => g.piles.includes(pile)) || null;
}

// "t5" -> "column 5", "s" -> "the stock", "w" -> "the waste pile": the group's word, with the
// pile's number where the group has several (the number the board's piles say).
export function pileWords(ruleSet, pile) {
  const g = groupOf(ruleSet, pile);
  if (!g) return pile;
  const word = g.word || g.kind;
  const num = pile.replace(/^[a-z]+/, "");
  return g.piles.length > 1 && num ? `${word} ${num}` : `the ${word}`;
}

// The face-up cards on top of a pile in the view, n of them, or null if the view does not show
// them all (face down, or no view).
function topCards(view, pile, n) {
  const up = view?.piles?.[pile]?.up;
  return Array.isArray(up) && up.length >= n ? up.slice(up.length - n) : null;
}

function listWords(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

// The stock's one move, as the view before it makes it: deal or draw while the stock holds
// cards, turn the waste over once it is empty.
function stockWords(ruleSet, view) {
  const stock = ruleSet?.layout?.find((g) => g.kind === "stock")?.piles[0];
  const pile = stock ? view?.piles?.[stock] : null;
  if (!pile) return "use the stock";
  if ((pile.down || 0) + (pile.up?.length || 0) === 0) return "turn the waste over";
  const wastes = (ruleSet.layout || []).filter((g) => g.kind === "waste");
  const onePile = wastes.length === 1 && wastes[0].piles.length === 1;
  return onePile ? "draw from the stock" : "deal from the stock";
}

// One move of the notation (docs/notation.md) in words, given the view before it (or null).
export function moveWords(ruleSet, move, view = null) {
  const text = String(move).trim().toLowerCase();
  if (text === "resign") return "resign";
  if (text === "undo") return "take back the last move";
  if (text === "s") return stockWords(ruleSet, view);
  const p = parseMove(text);
  if (p.from) {
    const cards = topCards(view, p.from, p.n);
    let what;
    if (!cards) what = p.n > 1 ? `${p.n} cards` : "a card";
    else if (p.n > 1) what = `${cardWords(cards[0])}–${cardWords(cards.at(-1))} (${p.n} cards)`;
    else what = cardWords(cards[0]);
    return `${what} from ${pileWords(ruleSet, p.from)} to ${pileWords(ruleSet, p.to)}`;
  }
  if (p.remove) {
    const each = p.remove.map((pile) => {
      const card = topCards(view, pile, 1);
      return card ? cardWords(card[0]) : `the top card of ${pileWords(ruleSet, pile)}`;
    });
    return `${listWords(each)} removed`;
  }
  // A move of the game's own kind: its name, then the pile and number it names.
  const [name, pile, n] = text.split(":");
  if (!pile) return name;
  return `${name} (${pileWords(ruleSet, pile)}${n ? `, ${n}` : ""})`;
}

// "Klondike (easy)": the rule set's name from the catalog, else its ids.
export function gameWords(ruleSet, game, variant) {
  return `${ruleSet?.name || game} (${variant ?? ruleSet?.variant ?? "?"})`;
}

// A server time (Unix ms) as the player's clock shows it: "24 Nov 10:40" (and the year, when it
// is not this year's).
export function whenWords(ms, now = Date.now()) {
  if (!Number.isFinite(ms)) return "";
  const d = new Date(ms);
  const pad = (x) => String(x).padStart(2, "0");
  const year = d.getFullYear() === new Date(now).getFullYear() ? "" : ` ${d.getFullYear()}`;
  return `${d.getDate()} ${MONTHS[d.getMonth()]}${year} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

// "Klondike (easy) race, 3 players, 24 Nov 10:40"; kind: "race", "match" or "game".
export function playWords(ruleSet, { game, variant, kind, players, at }) {
  const parts = [`${gameWords(ruleSet, game, variant)} ${kind}`];
  if (Number.isFinite(players)) parts.push(`${players} player${players === 1 ? "" : "s"}`);
  if (Number.isFinite(at)) parts.push(whenWords(at));
  return parts.join(", ");
}
