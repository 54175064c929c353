// Practice: any rule set, alone, with unlimited undo. `?seed=hex` deals a chosen deal; "Play
// again" at the end deals a new one of the same rule set.

import { mountSession } from "./play.js";
import { h } from "./dom.js";
import { nameOffer } from "./name.js";
import { syncClock } from "./time.js";

export async function mount(root, ctx, params) {
  const { game, variant } = params;
  const rs = ctx.ruleSet(game, variant);
  root.classList.add("practice");
  const back = h("a.back", { text: "← Lobby" });
  back.href = "#/";
  if (!rs) {
    root.append(h("p.error", { text: `There is no rule set ${game}/${variant}.` }), back);
    return () => {};
  }

  const head = h("div.practice-head");
  const title = h("h1", { text: `${rs.name} (${rs.variant})` });
  const seedNote = h("span.seed-note");
  head.append(back, title, seedNote, h("p.summary", { text: rs.summary || "" }));
  const host = h("div.session-host");
  root.append(head, host);

  let session = null;
  let alive = true;
  const seed = params.query?.get("seed") || null;

  function showSeed(payload) {
    seedNote.replaceChildren();
    if (!payload.seed) return;
    const a = h("a", { text: `deal ${payload.seed.slice(0, 12)}${payload.seed.length > 12 ? "…" : ""}` });
    a.href = `#/play/${rs.id}/${rs.variant}?seed=${payload.seed}`;
    a.title = "this deal again (shareable)";
    seedNote.append(a);
  }

  // The game in progress on this tab for this rule set (and seed), so a reload resumes it.
  const keep = `samedeal.practice.${rs.id}/${rs.variant}/${seed || ""}`;

  async function resumed() {
    const sid = sessionStorage.getItem(keep);
    if (!sid) return null;
    try {
      const payload = await ctx.net.request({ type: "session.get", session: sid });
      return payload.view.status === "playing" ? payload : null;
    } catch {
      return null;
    }
  }

  async function deal(chosen, resume = false) {
    session?.destroy();
    session = null;
    host.replaceChildren(h("p.notice", { text: "Dealing…" }));
    const msg = { type: "solo.start", game: rs.id, variant: rs.variant };
    if (chosen) msg.seed = chosen;
    let payload;
    try {
      await syncClock(ctx.net); // the timer counts from the deal's server time
      payload = (resume && await resumed()) || await ctx.net.request(msg);
      sessionStorage.setItem(keep, payload.session);
    } catch (e) {
      host.replaceChildren(h("p.error", { text: e.message }));
      const retry = h("button", { text: "Try again" });
      retry.addEventListener("click", () => deal(chosen));
      host.append(retry);
      return;
    }
    if (!alive) return;
    host.replaceChildren();
    showSeed(payload);
    session = mountSession(host, ctx, payload, {
      undo: true,
      resign: true,
      actions: [{ label: "New deal", onClick: newDeal, className: "new-deal" }],
      overActions: [
        { label: "Play again", onClick: newDeal, className: "play-again primary" },
        { label: "Analyse", onClick: analyse, className: "analyse" },
      ],
      onEnd: (p) => {
        showSeed(p);
        const offer = !head.querySelector(".name-offer") && nameOffer(ctx); // a guest's first game ended
        if (offer) head.append(offer);
      },
    });
  }

  // The game's replay, where its analysis runs along the moves.
  function analyse() {
    if (session) location.hash = `#/replay/session/${encodeURIComponent(session.payload.session)}`;
  }

  function newDeal() {
    if (seed) location.hash = `#/play/${rs.id}/${rs.variant}`; // drop the fixed seed: a fresh deal
    else deal(null);
  }

  await deal(seed, true);
  return () => {
    alive = false;
    session?.destroy();
  };
}
