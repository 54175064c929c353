// Card text and card elements. The server writes cards as rank then suit letter ("Ad", "Ts");
// refusal sentences use symbols ("7♥", "10♠"). Both parse here.

const SUITS = {
  c: { symbol: "♣", name: "clubs", red: false },
  d: { symbol: "♦", name: "diamonds", red: true },
  h: { symbol: "♥", name: "hearts", red: true },
  s: { symbol: "♠", name: "spades", red: false },
};
const SYMBOL_TO_SUIT = { "♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s" };
const RANK_NAMES = {
  A: "ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", T: "10",
  J: "jack", Q: "queen", K: "king",
};

// parseCard("Ad") -> {rank: "A", suit: "d", red: true, label: "A", symbol: "♦", name: "ace of diamonds"}
export function parseCard(text) {
  const t = String(text).trim();
  let rank = t.slice(0, -1).toUpperCase();
  let suit = t.slice(-1);
  suit = SYMBOL_TO_SUIT[suit] || suit.toLowerCase();
  if (rank === "10") rank = "T";
  const s = SUITS[suit];
  if (!s || !(rank in RANK_NAMES)) return null;
  return {
    rank,
    suit,
    red: s.red,
    label: rank === "T" ? "10" : rank,
    symbol: s.symbol,
    name: `${RANK_NAMES[rank]} of ${s.name}`,
  };
}

export function cardName(text) {
  return parseCard(text)?.name ?? String(text);
}

// A face-up card: corner rank and suit plus a large suit, coloured by suit colour.
export function cardElement(text) {
  const c = parseCard(text);
  const el = document.createElement("div");
  el.className = "card";
  el.dataset.card = text;
  el.setAttribute("role", "img");
  if (!c) {
    el.textContent = text;
    el.setAttribute("aria-label", String(text));
    return el;
  }
  el.classList.add(c.red ? "red" : "black", `suit-${c.suit}`);
  el.setAttribute("aria-label", c.name);
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  corner.innerHTML = `<b>${c.label}</b><i>${c.symbol}</i>`;
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = c.symbol;
  el.append(corner, pip);
  return el;
}

// A face-down card: no identity at all, the server never sent one.
export function backElement() {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "face-down card");
  return el;
}
