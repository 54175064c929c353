// Every game in the catalog (#/games): one entry per game with a practice link per variant,
// its short rules folded away until asked for, and a link to its daily deals.

import { h } from "./dom.js";

// "1–4 players"; "" for one player.
function playersText(seats) {
  return seats && seats[1] > 1 ? `${seats[0]}–${seats[1]} players` : "";
}

// The catalog's rule sets grouped by game, in name order: [[game id, [rule sets]], …].
export function byGame(catalog) {
  const games = new Map();
  for (const r of catalog) {
    if (!games.has(r.id)) games.set(r.id, []);
    games.get(r.id).push(r);
  }
  return [...games].sort((a, b) => a[1][0].name.localeCompare(b[1][0].name));
}

// The gentler variant first (the lobby's pickers start on it too), the rest by name.
export const easyFirst = (a, b) => (b.variant === "easy") - (a.variant === "easy") || a.variant.localeCompare(b.variant);

function entry(id, variants) {
  const first = variants[0];
  const players = first.match ? `matches of ${playersText(first.match.seats) || "1 player"}`
    : playersText(first.players);
  const notes = [`Scoring: ${first.scoring}`, players].filter(Boolean).join(" · ");
  return h("li.rule-set", { "data-game": id },
    h("h3", { text: first.name }),
    h("div.variants", {}, [...variants].sort(easyFirst).map((v) => h("a", {
      href: `#/play/${id}/${v.variant}`, "data-rule-set": `${id}/${v.variant}`, text: `Play ${v.variant}`,
    }))),
    h("details.rules", {},
      h("summary", { text: "Rules" }),
      h("p", { text: first.summary || "" }),
      h("p.notice", { text: notes })));
}

export async function mount(root, ctx) {
  root.classList.add("games");
  const games = byGame(ctx.catalog);
  root.append(
    h("h1", { text: `All games (${games.length})` }),
    h("p.notice", {}, `${ctx.catalog.length} rule sets, each game in its variants. `,
      h("a", { href: "#/daily", text: "Today's daily deals →" })),
    h("ul.rule-sets", {}, games.map(([id, variants]) => entry(id, variants))));
  return () => {};
}
