// The day's deals as a list grouped by game: a row per game, its variants side by side, each
// with the ranked offer or, once played, the player's result, and its leaderboard. The
// commitments are on each deal's own view, not here.

import { h, kids } from "./dom.js";
import { easyFirst } from "./games.js";

// "won · score 52 · rank 3 of 12"; "in progress"; "played" when only the fact is known.
export function resultText(r) {
  if (!r || r.status === "playing") return "in progress";
  const parts = [r.status && r.status !== "played" ? r.status : "played"];
  if (r.score !== undefined && r.score !== null) parts.push(`score ${r.score}`);
  if (r.rank) parts.push(`rank ${r.rank}${r.total ? ` of ${r.total}` : ""}`);
  return parts.join(" · ");
}

// opts: {open (ranked attempts can start), picked (the deal on view), mine (daily_record.js),
// pick(deal, "ranked" | "board")}.
function variantCell(d, opts) {
  const done = opts.mine.played(d.game, d.variant);
  const here = opts.picked && opts.picked.game === d.game && opts.picked.variant === d.variant;
  return h(`div.daily-variant${here ? ".picked" : ""}`, { "data-game": d.game, "data-variant": d.variant },
    h("span.variant", { text: d.variant }),
    kids(
      !d.commitment ? h("span.daily-waiting", { text: "waiting for the beacon" }) : null,
      done ? h("span.daily-result", { "data-status": done.status || "played", text: resultText(done) }) : null,
      opts.open && d.commitment && !done
        ? h("button.primary", { type: "button", "data-act": "ranked", text: "Ranked", title: "ranked attempt", onclick: () => opts.pick(d, "ranked") })
        : null,
      h("button", { type: "button", "data-act": "board", text: done ? "View" : "Board", title: "the deal and its leaderboard", onclick: () => opts.pick(d, "board") })));
}

export function dealsTable(deals, opts) {
  const games = new Map();
  for (const d of deals) {
    if (!games.has(d.game)) games.set(d.game, []);
    games.get(d.game).push(d);
  }
  const rows = [...games].sort((a, b) => a[1][0].name.localeCompare(b[1][0].name));
  if (!rows.length) return h("p.notice", { text: "No game by that name." });
  return h("ul.daily-deals", {}, rows.map(([game, variants]) => h("li.daily-deal", { "data-game": game },
    h("strong.daily-name", { text: variants[0].name }),
    h("div.daily-variants", {}, [...variants].sort(easyFirst).map((d) => variantCell(d, opts))))));
}
