// Challenges by name (docs/protocol.md#challenges): a form to challenge a player by name on a
// rule set (in the lobby), with Withdraw while it waits, and on every page a notice of the
// challenges to you, each with Accept, Decline, and Decline and block (no challenges from that
// player for 30 days), and of the answers to yours. Accepting lands you in the race; when your
// challenge is accepted this page joins the race and takes you there. The server pushes both
// (challenge.received, challenge.answered); the list is read again on every (re)connection,
// since a socket is not sent what came while it was away. Names are players' words: text only.

import { h, errorText } from "./dom.js";

// The notices, above every page: mounted once by the shell (app.js).
export function mountChallenges(ctx) {
  const { net } = ctx;
  const box = h("aside.challenges", { "aria-label": "Challenges", "aria-live": "polite", hidden: true });
  document.querySelector("header.site")?.after(box);
  const incoming = new Map(); // challenge id -> the challenge, pending, to me
  const told = new Map(); // challenge id -> a line about an answer to one of mine
  const me = () => net.player?.id ?? ctx.player?.id;

  function draw() {
    const rows = [...incoming.values()].map(offer);
    for (const [id, text] of told) {
      rows.push(h("p.challenge-told", { "data-challenge": id }, h("span", { text }),
        h("button", { type: "button", "data-act": "dismiss", text: "OK",
          onclick: () => { told.delete(id); draw(); } })));
    }
    box.replaceChildren(...rows);
    box.hidden = rows.length === 0;
  }

  function offer(c) {
    const error = h("span.error", { role: "alert" });
    const answer = (type, block = false) => async () => {
      error.textContent = "";
      try {
        const reply = await net.request(block ? { type, challenge: c.challenge, block }
          : { type, challenge: c.challenge });
        incoming.delete(c.challenge);
        draw();
        if (type === "challenge.accept") location.hash = `#/race/${encodeURIComponent(reply.race)}`;
      } catch (e) {
        error.textContent = errorText(e);
        if (e.code === "challenge.answered" || e.code === "challenge.expired") {
          setTimeout(() => { incoming.delete(c.challenge); draw(); }, 3000);
        }
      }
    };
    return h("p.challenge-offer", { "data-challenge": c.challenge },
      h("span.offer-text", { text: `${c.from.name} challenges you to ${ruleName(ctx, c)}: ` }),
      h("button.primary", { type: "button", "data-act": "accept", text: "Accept", onclick: answer("challenge.accept") }),
      h("button", { type: "button", "data-act": "decline", text: "Decline", onclick: answer("challenge.decline") }),
      h("button", { type: "button", "data-act": "block", text: "Decline and block",
        title: "Decline, and take no challenges from this player for 30 days",
        onclick: answer("challenge.decline", true) }),
      error);
  }

  async function answered(c) {
    incoming.delete(c.challenge);
    // An answer to me: its notice goes; my own withdrawal: the form said so.
    if (c.from.id !== me() || c.state === "withdrawn") { draw(); return; }
    if (c.state === "accepted" && c.race) {
      told.set(c.challenge, `${c.to.name} accepted your challenge: to the race!`);
      draw();
      try {
        await net.request({ type: "race.join", race: c.race });
      } catch (e) {
        if (e.code !== "race.joined") { told.set(c.challenge, errorText(e)); draw(); return; }
      }
      told.delete(c.challenge);
      draw();
      location.hash = `#/race/${encodeURIComponent(c.race)}`;
      return;
    }
    const how = { declined: "declined", withdrawn: "was withdrawn", expired: "expired" }[c.state];
    told.set(c.challenge, c.state === "declined"
      ? `${c.to.name} declined your challenge.`
      : `Your challenge to ${c.to.name} ${how || c.state}.`);
    draw();
  }

  async function load() {
    try {
      const { challenges } = await net.request({ type: "challenge.list" });
      incoming.clear();
      for (const c of challenges) {
        if (c.state === "pending" && c.to.id === me()) incoming.set(c.challenge, c);
      }
      draw();
    } catch { /* the next connection lists them again */ }
  }

  net.on("challenge.received", (c) => { incoming.set(c.challenge, c); draw(); });
  net.on("challenge.answered", answered);
  net.on("net.welcome", load);
}

function ruleName(ctx, c) {
  const rules = ctx.ruleSet(c.game, c.variant);
  return `${rules?.name || c.name || c.game} (${c.variant})`;
}

// The lobby's form: a player's name and a one-player rule set.
export function challengeForm(ctx) {
  const { net } = ctx;
  const name = h("input", { name: "to", type: "text", maxlength: "32", required: true, autocomplete: "off", placeholder: "their name" });
  const rules = ctx.catalog.filter((r) => (r.players?.[0] ?? 1) === 1);
  const pick = h("select", { name: "rules" },
    rules.map((r) => h("option", { value: `${r.id}/${r.variant}`, text: `${r.name} (${r.variant})` })));
  const status = h("p.challenge-status", { role: "status" });
  const form = h("form.card-panel.challenge-form", {},
    h("h3", { text: "Challenge a player" }),
    h("label", {}, "Name", name), h("label", {}, "Game", pick),
    h("button.primary", { type: "submit", text: "Challenge" }), status);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const [game, variant] = pick.value.split("/");
    status.textContent = "";
    try {
      const c = await net.request({ type: "challenge.send", to: name.value, game, variant });
      // The answer's notice comes from mountChallenges; here Withdraw goes with it.
      const off = net.on("challenge.answered", (a) => {
        if (a.challenge === c.challenge) { withdraw.remove(); off(); }
      });
      const withdraw = h("button", { type: "button", "data-act": "withdraw", text: "Withdraw",
        onclick: async () => {
          try {
            await net.request({ type: "challenge.withdraw", challenge: c.challenge });
            off();
            status.textContent = `Your challenge to ${c.to.name} was withdrawn.`;
          } catch (err) {
            status.textContent = errorText(err);
          }
        } });
      status.replaceChildren(`Challenge sent to ${c.to.name}: waiting for the answer… `, withdraw);
    } catch (err) {
      status.textContent = errorText(err);
    }
  });
  return form;
}
