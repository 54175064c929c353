// The lobby: today's daily challenge, open races and matches to join, forms to create a race or
// a match (with a link to share), and every rule set with its short rules and a practice link.
// Player names are other players' words: they go into the page as text, never as markup.

import { showShare } from "./share.js";

const MATCH_GAMES = ["bowling", "poker-square", "cribbage-square"];
const REFRESH_MS = 10000;

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}

function minutes(seconds) {
  return seconds % 60 ? `${seconds} s` : `${seconds / 60} min`;
}

function ruleSetsSection(ctx) {
  const byGame = new Map();
  for (const r of ctx.catalog) {
    if (!byGame.has(r.id)) byGame.set(r.id, []);
    byGame.get(r.id).push(r);
  }
  const list = el("div", { class: "rule-sets" });
  for (const [id, variants] of [...byGame].sort((a, b) => a[1][0].name.localeCompare(b[1][0].name))) {
    const first = variants[0];
    const links = el("div", { class: "variants" });
    for (const v of variants) {
      links.append(el("a", { href: `#/play/${id}/${v.variant}`, "data-rule-set": `${id}/${v.variant}` },
        `Play ${v.variant}`));
    }
    const players = first.players?.[1] > 1 ? ` · 1–${first.players[1]} players` : "";
    list.append(el("article", { class: "rule-set", "data-game": id },
      el("h3", {}, first.name),
      el("p", {}, first.summary || ""),
      el("p", { class: "notice" }, `Scoring: ${first.scoring}${players}`),
      links));
  }
  return el("section", { class: "catalog" }, el("h2", {}, `Rule sets (${ctx.catalog.length})`), list);
}

function gameSelect(rules, name) {
  const select = el("select", { name });
  const seen = new Set();
  for (const r of rules) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    select.append(el("option", { value: r.id }, r.name));
  }
  return select;
}

function variantSelect(rules, gameSel) {
  const select = el("select", { name: "variant" });
  const fill = () => {
    select.replaceChildren(...rules.filter((r) => r.id === gameSel.value)
      .map((r) => el("option", { value: r.variant }, r.variant)));
    if ([...select.options].some((o) => o.value === "easy")) select.value = "easy";
  };
  gameSel.addEventListener("change", fill);
  fill();
  return select;
}

function raceForm(ctx) {
  const rules = ctx.catalog.filter((r) => (r.players?.[0] ?? 1) === 1);
  const game = gameSelect(rules, "game");
  game.value = rules.some((r) => r.id === "klondike") ? "klondike" : game.value;
  const variant = variantSelect(rules, game);
  game.dispatchEvent(new Event("change"));
  const seats = el("input", { name: "seats", type: "number", min: "2", max: "100", value: "2" });
  const limit = el("select", { name: "time_limit" },
    ...[120, 300, 600, 900, 1800].map((s) => el("option", { value: String(s) }, minutes(s))));
  limit.value = "600";
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { class: "card-panel create-race" },
    el("h3", {}, "Create a race"),
    el("label", {}, "Game", game), el("label", {}, "Variant", variant),
    el("label", {}, "Seats", seats), el("label", {}, "Time limit", limit),
    el("button", { type: "submit", class: "primary" }, "Create race"), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    try {
      const r = await ctx.net.request({
        type: "race.create", game: game.value, variant: variant.value,
        seats: Number(seats.value), time_limit: Number(limit.value),
      });
      showShare("race", r.race);
      location.hash = `#/race/${r.race}`;
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return form;
}

function matchForm(ctx) {
  const rules = ctx.catalog.filter((r) => MATCH_GAMES.includes(r.id));
  const game = gameSelect(rules, "game");
  const variant = variantSelect(rules, game);
  const seats = el("input", { name: "seats", type: "number", min: "1", max: "4", value: "2" });
  game.addEventListener("change", () => {
    // Bowling: 1 to 4 bowlers; the called-card games: 2 to 8 players.
    const bowling = game.value === "bowling";
    seats.min = bowling ? "1" : "2";
    seats.max = bowling ? "4" : "8";
    seats.value = String(Math.min(Math.max(Number(seats.value), Number(seats.min)), Number(seats.max)));
  });
  const turn = el("input", { name: "turn_time", type: "number", min: "5", max: "600", value: "30" });
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { class: "card-panel create-match" },
    el("h3", {}, "Create a match"),
    el("label", {}, "Game", game), el("label", {}, "Variant", variant),
    el("label", {}, "Seats", seats), el("label", {}, "Turn time (s)", turn),
    el("button", { type: "submit", class: "primary" }, "Create match"), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    try {
      const m = await ctx.net.request({
        type: "match.create", game: game.value, variant: variant.value,
        seats: Number(seats.value), turn_time: Number(turn.value),
      });
      showShare("match", m.match);
      location.hash = `#/match/${m.match}`;
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return form;
}

function openRaces(ctx) {
  const list = el("ul", { class: "open-races" });
  const section = el("section", { class: "races" }, el("h2", {}, "Open races"), list);
  async function load() {
    let races;
    try {
      races = (await ctx.net.rest("GET", "/races")).races;
    } catch (e) {
      list.replaceChildren(el("li", { class: "error" }, e.message));
      return;
    }
    if (!races.length) {
      list.replaceChildren(el("li", { class: "notice" }, "No open races right now: create one."));
      return;
    }
    list.replaceChildren(...races.map((r) => el("li", { "data-race": r.race },
      el("b", {}, `${r.name} (${r.variant})`),
      el("span", {}, `${r.entrants.length}/${r.seats} seats`),
      el("span", { class: "notice" }, minutes(r.time_limit)),
      el("span", { class: "notice" }, `by ${r.entrants.find((e) => e.player === r.creator)?.name ?? "?"}`),
      el("a", { class: "join", href: `#/race/${r.race}` }, "Join"))));
  }
  return { section, load };
}

function openMatches(ctx) {
  const list = el("ul", { class: "open-matches" });
  const section = el("section", { class: "matches" }, el("h2", {}, "Open matches"), list);
  async function load() {
    let matches;
    try {
      matches = (await ctx.net.rest("GET", "/matches")).matches;
    } catch (e) {
      list.replaceChildren(el("li", { class: "error" }, e.message));
      return;
    }
    if (!matches.length) {
      list.replaceChildren(el("li", { class: "notice" }, "No open matches right now: create one."));
      return;
    }
    list.replaceChildren(...matches.map((m) => el("li", { "data-match": m.match },
      el("b", {}, `${m.name} (${m.variant})`),
      el("span", {}, `${m.players.length}/${m.seats} seats`),
      el("span", { class: "notice" }, `by ${m.players.find((p) => p.player === m.creator)?.name ?? "?"}`),
      el("a", { class: "join", href: `#/match/${m.match}` }, "Join"))));
  }
  return { section, load };
}

export async function mount(root, ctx) {
  root.classList.add("lobby");
  const races = openRaces(ctx);
  const matches = openMatches(ctx);
  root.append(
    el("h1", {}, "SameDeal"),
    el("p", {}, "Competitive solitaire: everyone in a race gets the same secretly seeded deal. ",
      el("a", { class: "daily-link", href: "#/daily" }, "Today's daily challenge →")),
    races.section,
    matches.section,
    el("section", { class: "create" }, el("h2", {}, "Play with others"),
      el("div", { class: "forms" }, raceForm(ctx), matchForm(ctx))),
    ruleSetsSection(ctx));
  const load = () => Promise.all([races.load(), matches.load()]);
  await load();
  const timer = setInterval(load, REFRESH_MS);
  const off = ctx.net.on("net.resumed", load);
  return () => {
    clearInterval(timer);
    off();
  };
}
