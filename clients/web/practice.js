// Practice: any rule set, alone, with unlimited undo. `?seed=hex` deals a chosen deal.

import { mountSession } from "./play.js";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export async function mount(root, ctx, params) {
  const { game, variant } = params;
  const rs = ctx.ruleSet(game, variant);
  root.classList.add("practice");
  const back = el("a", "back", "← Lobby");
  back.href = "#/";
  if (!rs) {
    root.append(el("p", "error", `There is no rule set ${game}/${variant}.`), back);
    return () => {};
  }

  const head = el("div", "practice-head");
  const title = el("h1", "", `${rs.name} (${rs.variant})`);
  const seedNote = el("span", "seed-note");
  head.append(back, title, seedNote, el("p", "summary", rs.summary || ""));
  const host = el("div", "session-host");
  root.append(head, host);

  let session = null;
  let alive = true;
  const seed = params.query?.get("seed") || null;

  function showSeed(payload) {
    seedNote.replaceChildren();
    if (!payload.seed) return;
    const a = el("a", "", `deal ${payload.seed.slice(0, 12)}${payload.seed.length > 12 ? "…" : ""}`);
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
    host.replaceChildren(el("p", "notice", "Dealing…"));
    const msg = { type: "solo.start", game: rs.id, variant: rs.variant };
    if (chosen) msg.seed = chosen;
    let payload;
    try {
      payload = (resume && await resumed()) || await ctx.net.request(msg);
      sessionStorage.setItem(keep, payload.session);
    } catch (e) {
      host.replaceChildren(el("p", "error", e.message));
      const retry = el("button", "", "Try again");
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
      overActions: [{ label: "New deal", onClick: newDeal, className: "new-deal primary" }],
      onEnd: showSeed,
    });
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
