// The front door: the first thing on the lobby, three ways in, each one click: play the
// featured game (the catalog's `featured` rule set), race someone (the longest-waiting open
// race, else a new one to share), or today's daily deal of the featured game.

import { h, errorText } from "./dom.js";
import { showShare } from "./share.js";
import { dailyRecord } from "./daily_record.js";

const TAKEN = new Set(["race.full", "race.not_open", "race.joined"]); // someone was quicker

// The rule set a newcomer is offered first: the catalog's featured one, else its first
// one-player rule set.
export function featured(catalog) {
  return catalog.find((r) => r.featured)
    || catalog.find((r) => (r.players?.[0] ?? 1) === 1) || catalog[0];
}

// Join the open race that has waited longest (or go back to the one you are in); with none,
// open a race of the featured rule set, with its link to share, and wait there.
export async function raceSomeone(ctx, rs) {
  const me = ctx.player.id;
  const { races } = await ctx.net.rest("GET", "/races");
  const mine = races.find((r) => r.entrants.some((e) => e.player === me));
  if (mine) {
    location.hash = `#/race/${mine.race}`;
    return;
  }
  // The list comes newest first: the last one has waited longest.
  const open = races.filter((r) => r.entrants.length < r.seats).reverse();
  for (const r of open) {
    try {
      await ctx.net.request({ type: "race.join", race: r.race });
      location.hash = `#/race/${r.race}`;
      return;
    } catch (e) {
      if (!TAKEN.has(e.code)) throw e;
    }
  }
  const r = await ctx.net.request({ type: "race.create", game: rs.id, variant: rs.variant, seats: 2 });
  showShare("race", r.race);
  location.hash = `#/race/${r.race}`;
}

function door(kind, title, text, action) {
  const attrs = { "data-door": kind };
  const body = [h("strong.door-title", { text: title }), h("span.door-text", { text })];
  if (typeof action === "string") return h("a.door", { ...attrs, href: action }, body);
  return h("button.door", { ...attrs, type: "button", onclick: action }, body);
}

export function frontDoor(ctx) {
  const rs = featured(ctx.catalog);
  const error = h("p.error", { role: "alert" });
  const race = door("race", "Race someone",
    `The same deal as another player, against the clock: join the race that has waited longest, or open one of ${rs.name} and share its link.`,
    async () => {
      race.disabled = true;
      error.textContent = "";
      try {
        await raceSomeone(ctx, rs);
      } catch (e) {
        error.textContent = errorText(e);
        race.disabled = false;
      }
    });
  const daily = dailyRecord(ctx.player.id);
  const played = daily.played(rs.id, rs.variant);
  const dailyHref = `#/daily?game=${encodeURIComponent(rs.id)}&variant=${encodeURIComponent(rs.variant)}`;
  return h("section.front-door", { "aria-label": "play now" },
    h("div.doors", {},
      door("practice", `Play ${rs.name}`, `${rs.summary ? `${rs.summary.split(". ")[0]}.` : ""} Practice, with unlimited undo.`,
        `#/play/${rs.id}/${rs.variant}`),
      race,
      played
        ? door("daily", `Today's ${rs.name} daily: played`, "See your result and the day's leaderboard.", dailyHref)
        : door("daily", `Today's daily: ${rs.name}`,
          "Everyone gets the same deal today. One ranked attempt: its clock starts as you click.",
          `${dailyHref}&start=ranked`)),
    error,
    h("p.more", {},
      h("a", { href: "#/games", text: `All ${new Set(ctx.catalog.map((r) => r.id)).size} games →` }), " ",
      h("a", { href: "#/daily", text: "All today's daily deals →" }), " ",
      h("a", { href: "#/arenas", text: "Arenas →" })));
}
