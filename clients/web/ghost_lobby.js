// The lobby's section on ghost races: the open ones, newest first, and a form to create one.
// Apart from ghost.js (the ghost race's page, with its board) so the front door loads no board.

import { h, errorText } from "./dom.js";

const OPEN_FOR = [[3600, "1 hour"], [21600, "6 hours"], [86400, "1 day"], [259200, "3 days"]];

// A form to create a ghost race: one picker of the one-player rule sets, how long it stays open.
function ghostForm(ctx) {
  const rules = ctx.catalog.filter((r) => (r.players?.[0] ?? 1) === 1);
  const pick = h("select", { name: "rule_set" },
    rules.map((r) => h("option", { value: `${r.id}/${r.variant}`, text: `${r.name} (${r.variant})` })));
  const open = h("select", { name: "open_for" },
    OPEN_FOR.map(([s, text]) => h("option", { value: String(s), text })));
  open.value = "86400";
  const error = h("p.error", { role: "alert" });
  const form = h("form.card-panel.create-ghost", {},
    h("h3", { text: "Create a ghost race" }),
    h("p.notice", { text: "Everyone plays the same deal when they like, against the runs recorded before theirs." }),
    h("label", {}, "Game", pick), h("label", {}, "Open for", open),
    h("button.primary", { type: "submit", text: "Create ghost race" }), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const [game, variant] = pick.value.split("/");
    try {
      const g = await ctx.net.request({ type: "ghost.create", game, variant, open_for: Number(open.value) });
      location.hash = `#/ghost/${g.ghost}`;
    } catch (err) {
      error.textContent = errorText(err);
    }
  });
  return form;
}

// The lobby's section: open ghost races, newest first, and the form.
export function ghostLobby(ctx) {
  const list = h("ul.open-ghosts");
  const section = h("section.ghosts", {}, h("h3", { text: "Ghost races" }), list, ghostForm(ctx));
  async function load() {
    let ghosts;
    try {
      ghosts = (await ctx.net.rest("GET", "/ghosts")).ghosts;
    } catch (e) {
      list.replaceChildren(h("li.error", { text: errorText(e) }));
      return;
    }
    if (!ghosts.length) {
      list.replaceChildren(h("li.notice", { text: "No open ghost races right now: create one." }));
      return;
    }
    list.replaceChildren(...ghosts.map((g) => h("li", { "data-ghost": g.ghost },
      h("b", { text: `${g.name} (${g.variant})` }),
      h("span", { text: `${g.entrants} played` }),
      g.to_beat ? h("span.notice", { text: `to beat: ${g.to_beat.name}, score ${g.to_beat.score}` }) : null,
      h("a.join", { href: `#/ghost/${g.ghost}`, text: "Enter" }))));
  }
  return { section, load };
}
