// Racing a bot: when nobody else is online, one click in the lobby starts a race against a bot
// the server runs (docs/protocol.md, "Racing a bot"), on the rule set chosen, at the strength
// chosen (medium unless changed); the race page then shows the bot as an entrant, its
// progress live, like any other racer.

import { h } from "./dom.js";

const LAST_RULES = "samedeal.lobby.bot"; // the rule set of the last bot race started here
const LAST_STRENGTH = "samedeal.lobby.bot.strength";
const STRENGTHS = [["easy", "Easy"], ["medium", "Medium"], ["hard", "Hard"]];

// The form: `picker(rules, remember)` is the lobby's game and variant picker.
export function botRaceForm(ctx, picker) {
  const pick = picker(ctx.catalog.filter((r) => (r.players?.[0] ?? 1) === 1), LAST_RULES);
  const strength = h("select", { name: "strength" },
    STRENGTHS.map(([value, text]) => h("option", { value, text })));
  const kept = localStorage.getItem(LAST_STRENGTH);
  strength.value = STRENGTHS.some(([v]) => v === kept) ? kept : "medium";
  const error = h("p.error", { role: "alert" });
  const button = h("button.primary", { type: "submit", text: "Race a bot" });
  const form = h("form.card-panel.race-bot", {},
    h("h3", { text: "Race a bot now" }),
    h("p.notice", { text: "Nobody around? Race a bot on a fresh deal, right away." }),
    h("label", {}, "Game", pick.game), h("label", {}, "Variant", pick.variant),
    h("label", {}, "Bot", strength), button, error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try {
      const r = await ctx.net.request({
        type: "race.bot", game: pick.game.value, variant: pick.variant.value,
        strength: strength.value,
      });
      pick.keep();
      localStorage.setItem(LAST_STRENGTH, strength.value);
      location.hash = `#/race/${r.race}`;
    } catch (err) {
      error.textContent = err.message;
    } finally {
      button.disabled = false;
    }
  });
  return form;
}
