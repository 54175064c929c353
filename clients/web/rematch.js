// What a player does once a race or match is over: "Race again" (a new open race on the same
// rule set and settings, which they join and can share), "Rematch" (the same entrants on a new
// deal: race.rematch / match.rematch, where the first to ask makes it and later asks join the
// same one), and the answer to someone else's ask: "Ann asks for a rematch: Accept / Decline".
// Accepting is asking too; declining only hides the question (the seat stays empty).

import { h, errorText } from "./dom.js";

// kind: "race" or "match"; id: the ended race's or match's. Returns {el, update(summary),
// asked(event)}: update with every new summary, asked with each race.rematched or
// match.rematched event of it.
export function endActions(ctx, kind, id) {
  const { net } = ctx;
  const me = () => ctx.player?.id ?? net.player?.id;
  const buttons = h("div.end-buttons");
  const offer = h("p.rematch-offer", { role: "status", hidden: true });
  const error = h("p.live-error", { role: "alert" });
  const el = h("section.end-actions", { hidden: true, "aria-label": "What next" }, buttons, offer, error);
  let summary = null;
  let rematch = null; // {id, by}: the rematch someone asked for
  let declined = false;

  const people = () => (kind === "race" ? summary?.entrants : summary?.players) || [];
  const nameOf = (pid) => people().find((p) => p.player === pid)?.name || "Another player";
  const send = (msg) => async () => {
    error.textContent = "";
    try {
      const reply = await net.request(msg);
      location.hash = `#/${kind}/${encodeURIComponent(reply[kind])}`;
    } catch (e) {
      error.textContent = errorText(e);
    }
  };
  const ask = send({ type: `${kind}.rematch`, [kind]: id });
  const button = (act, text, onclick, primary) =>
    h(`button${primary ? ".primary" : ""}`, { type: "button", "data-act": act, text, onclick });

  function draw() {
    el.hidden = !summary || summary.state !== "ended";
    if (el.hidden) return;
    if (summary.bot) { // a race against a server-run bot: the next one is another (botrace.js)
      buttons.replaceChildren(button("race-bot-again", "Race the bot again", send({
        type: "race.bot", game: summary.game, variant: summary.variant,
        strength: summary.bot.strength,
      }), true));
      offer.hidden = true;
      return;
    }
    const mine = people().some((p) => p.player === me());
    const theirs = mine && rematch && rematch.by !== me() && !declined;
    const list = [];
    if (kind === "race") {
      list.push(button("race-again", "Race again", send({
        type: "race.create", game: summary.game, variant: summary.variant, seats: summary.seats,
        start: summary.start, time_limit: summary.time_limit, countdown: summary.countdown,
      })));
    }
    if (mine && !theirs) {
      const mineAsked = rematch && rematch.by === me();
      list.push(button("rematch", mineAsked ? "Go to the rematch" : "Rematch", ask, true));
    }
    buttons.replaceChildren(...list);
    offer.hidden = !theirs;
    offer.replaceChildren(...(theirs ? [
      h("span.offer-text", { text: `${nameOf(rematch.by)} asks for a rematch: ` }),
      button("accept", "Accept", ask, true), " ",
      button("decline", "Decline", () => { declined = true; draw(); }),
    ] : []));
  }

  return {
    el,
    update(s) {
      summary = s;
      if (s?.rematch && !rematch) rematch = { id: s.rematch, by: s.rematch_by };
      draw();
    },
    asked(ev) {
      if (!rematch) rematch = { id: ev.rematch, by: ev.by?.id };
      draw();
    },
  };
}
