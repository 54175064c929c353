// The lobby: the front door (one click to play, race or take today's daily), then open races
// and matches to join and forms to create one (with a link to share); every game is on #/games.
// Player names are other players' words: they go into the page as text, never as markup.

import { h } from "./dom.js";
import { showShare } from "./share.js";
import { frontDoor } from "./frontdoor.js";
import { botRaceForm } from "./botrace.js";
import { ghostLobby } from "./ghost_lobby.js";
import { challengeForm } from "./challenge.js";

const REFRESH_MS = 10000;
const LAST_RACE = "samedeal.lobby.race"; // the rule set of the last race created here
const LAST_MATCH = "samedeal.lobby.match";

function minutes(seconds) {
  return seconds % 60 ? `${seconds} s` : `${seconds / 60} min`;
}

// The game and variant pickers of a form over `rules` (catalog entries), starting on the rule
// set chosen last time in this browser (kept under `remember`), else the first in the catalog.
export function ruleSetPicker(rules, remember) {
  const game = h("select", { name: "game" });
  const variant = h("select", { name: "variant" });
  const seen = new Set();
  for (const r of rules) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    game.append(h("option", { value: r.id, text: r.name }));
  }
  const fillVariants = () => {
    variant.replaceChildren(...rules.filter((r) => r.id === game.value)
      .map((r) => h("option", { value: r.variant, text: r.variant })));
    if ([...variant.options].some((o) => o.value === "easy")) variant.value = "easy";
  };
  game.addEventListener("change", fillVariants);
  const [lastGame, lastVariant] = (localStorage.getItem(remember) || "").split("/");
  if (rules.some((r) => r.id === lastGame)) game.value = lastGame;
  fillVariants();
  if (rules.some((r) => r.id === game.value && r.variant === lastVariant)) variant.value = lastVariant;
  return {
    game,
    variant,
    chosen: () => rules.find((r) => r.id === game.value && r.variant === variant.value) || null,
    keep: () => localStorage.setItem(remember, `${game.value}/${variant.value}`),
  };
}

function raceForm(ctx) {
  const pick = ruleSetPicker(ctx.catalog.filter((r) => (r.players?.[0] ?? 1) === 1), LAST_RACE);
  const seats = h("input", { name: "seats", type: "number", min: "2", max: "100", value: "2" });
  const limit = h("select", { name: "time_limit" },
    [120, 300, 600, 900, 1800].map((s) => h("option", { value: String(s), text: minutes(s) })));
  limit.value = "600";
  const error = h("p.error", { role: "alert" });
  const form = h("form.card-panel.create-race", {},
    h("h3", { text: "Create a race" }),
    h("label", {}, "Game", pick.game), h("label", {}, "Variant", pick.variant),
    h("label", {}, "Seats", seats), h("label", {}, "Time limit", limit),
    h("button.primary", { type: "submit", text: "Create race" }), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    try {
      const r = await ctx.net.request({
        type: "race.create", game: pick.game.value, variant: pick.variant.value,
        seats: Number(seats.value), time_limit: Number(limit.value),
      });
      pick.keep();
      showShare("race", r.race);
      location.hash = `#/race/${r.race}`;
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return form;
}

// Matches: the rule sets whose description says how a match is played; the seats field follows
// the chosen rule set's seat range.
function matchForm(ctx) {
  const pick = ruleSetPicker(ctx.catalog.filter((r) => r.match), LAST_MATCH);
  const seats = h("input", { name: "seats", type: "number", value: "2" });
  const fitSeats = () => {
    const [lo, hi] = pick.chosen()?.match?.seats || [1, 1];
    seats.min = String(lo);
    seats.max = String(hi);
    seats.value = String(Math.min(Math.max(Number(seats.value) || lo, lo), hi));
  };
  pick.game.addEventListener("change", fitSeats);
  pick.variant.addEventListener("change", fitSeats);
  fitSeats();
  const turn = h("input", { name: "turn_time", type: "number", min: "5", max: "600", value: "30" });
  const error = h("p.error", { role: "alert" });
  const form = h("form.card-panel.create-match", {},
    h("h3", { text: "Create a match" }),
    h("label", {}, "Game", pick.game), h("label", {}, "Variant", pick.variant),
    h("label", {}, "Seats", seats), h("label", {}, "Turn time (s)", turn),
    h("button.primary", { type: "submit", text: "Create match" }), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    try {
      const m = await ctx.net.request({
        type: "match.create", game: pick.game.value, variant: pick.variant.value,
        seats: Number(seats.value), turn_time: Number(turn.value),
      });
      pick.keep();
      showShare("match", m.match);
      location.hash = `#/match/${m.match}`;
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return form;
}

function openRaces(ctx) {
  const list = h("ul.open-races");
  const section = h("section.races", {}, h("h3", { text: "Open races" }), list);
  async function load() {
    let races;
    try {
      races = (await ctx.net.rest("GET", "/races")).races;
    } catch (e) {
      list.replaceChildren(h("li.error", { text: e.message }));
      return;
    }
    if (!races.length) {
      list.replaceChildren(h("li.notice", { text: "No open races right now: create one." }));
      return;
    }
    list.replaceChildren(...races.map((r) => h("li", { "data-race": r.race },
      h("b", { text: `${r.name} (${r.variant})` }),
      h("span", { text: `${r.entrants.length}/${r.seats} seats` }),
      h("span.notice", { text: minutes(r.time_limit) }),
      h("span.notice", { text: `by ${r.entrants.find((e) => e.player === r.creator)?.name ?? "?"}` }),
      h("a.join", { href: `#/race/${r.race}`, text: "Join" }))));
  }
  return { section, load };
}

function openMatches(ctx) {
  const list = h("ul.open-matches");
  const section = h("section.matches", {}, h("h3", { text: "Open matches" }), list);
  async function load() {
    let matches;
    try {
      matches = (await ctx.net.rest("GET", "/matches")).matches;
    } catch (e) {
      list.replaceChildren(h("li.error", { text: e.message }));
      return;
    }
    if (!matches.length) {
      list.replaceChildren(h("li.notice", { text: "No open matches right now: create one." }));
      return;
    }
    list.replaceChildren(...matches.map((m) => h("li", { "data-match": m.match },
      h("b", { text: `${m.name} (${m.variant})` }),
      h("span", { text: `${m.players.length}/${m.seats} seats` }),
      h("span.notice", { text: `by ${m.players.find((p) => p.player === m.creator)?.name ?? "?"}` }),
      h("a.join", { href: `#/match/${m.match}`, text: "Join" }))));
  }
  return { section, load };
}

export async function mount(root, ctx) {
  root.classList.add("lobby");
  const races = openRaces(ctx);
  const matches = openMatches(ctx);
  const ghosts = ghostLobby(ctx);
  root.append(
    h("h1", { text: "SameDeal" }),
    h("p.tagline", { text: "Solitaire against other players: everyone in a race gets the same deal." }),
    frontDoor(ctx),
    h("h2.others", { text: "Play with others" }),
    races.section,
    h("section.bot", {}, h("div.forms", {}, botRaceForm(ctx, ruleSetPicker))),
    matches.section,
    h("section.create", {}, h("div.forms", {}, raceForm(ctx), matchForm(ctx), challengeForm(ctx))),
    ghosts.section);
  const load = () => Promise.all([races.load(), matches.load(), ghosts.load()]);
  await load();
  const timer = setInterval(load, REFRESH_MS);
  const off = ctx.net.on("net.resumed", load);
  return () => {
    clearInterval(timer);
    off();
  };
}
