// The replay page (#/replay/{race|match|session}/{id}): step through a public transcript move by
// move. The browser has no engine, and the transcripts carry moves, not boards; so once the seed
// is public the page deals that seed again as a practice game (solo.start with the seed: the same
// deal) and plays the transcript's moves on it, one at a time, keeping every board the server
// answers. Stepping back shows a kept board; nothing is ever computed in the browser.
//
// It also exports the seed reveal (seed, commitment and the SHA-256 check done here, in the
// browser) used by the race, match and daily pages.

import { renderBoard } from "./render.js";
import { h, duration, errorText } from "./race.js";

// ---- the seed reveal ----------------------------------------------------------------------

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
const toHex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

// SHA-256 of the seed's bytes, as lowercase hex. crypto.subtle exists only in secure contexts
// (https, localhost); a plain-http deployment gets the small implementation below instead.
export async function sha256Hex(hex) {
  const bytes = hexBytes(hex);
  if (globalThis.crypto?.subtle) return toHex(await crypto.subtle.digest("SHA-256", bytes));
  return toHex(sha256(bytes));
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

function sha256(msg) {
  const len = msg.length;
  const padded = new Uint8Array(((len + 9 + 63) >> 6) << 6);
  padded.set(msg);
  padded[len] = 0x80;
  const dv = new DataView(padded.buffer);
  dv.setUint32(padded.length - 4, len * 8);
  dv.setUint32(padded.length - 8, Math.floor(len / 0x20000000));
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rot = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rot(w[i - 15], 7) ^ rot(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rot(w[i - 2], 17) ^ rot(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = H;
    for (let i = 0; i < 64; i++) {
      const t1 = hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      const t2 = (rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += hh;
  }
  const out = new DataView(new ArrayBuffer(32));
  H.forEach((v, i) => out.setUint32(4 * i, v));
  return out.buffer;
}

// The revealed seed and its commitment, with the check's verdict once computed.
export function seedReveal(seed, commitment) {
  const verdict = h("p.seed-check", { "data-ok": "pending", text: "Checking SHA-256(seed)…" });
  const box = h("div.seed-reveal", {},
    h("p", {}, h("span", { text: "Seed: " }), h("code.seed", { text: seed || "not revealed yet" })),
    h("p", {}, h("span", { text: "Commitment: " }), h("code.commitment", { text: commitment || "—" })),
    verdict);
  if (!seed || !commitment) {
    verdict.dataset.ok = "unknown";
    verdict.textContent = "The seed is revealed when play is over.";
    return box;
  }
  sha256Hex(seed).then((digest) => {
    const ok = digest === commitment.toLowerCase();
    verdict.dataset.ok = ok ? "yes" : "no";
    verdict.textContent = ok
      ? "✓ SHA-256(seed) matches the commitment published before play: this was the deal."
      : `✗ SHA-256(seed) is ${digest}, not the commitment: this seed is not the one committed to.`;
  }, (e) => {
    verdict.dataset.ok = "unknown";
    verdict.textContent = `The check could not run here: ${errorText(e)}`;
  });
  return box;
}

// ---- the page -----------------------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function mount(root, ctx, params) {
  const { net } = ctx;
  const { kind, id } = params;
  const chooser = h("div.replay-choose");
  const stage = h("div.replay-stage");
  const error = h("p.live-error", { role: "alert" });
  const intro = h("p.live-meta");
  root.append(h("section.live.replay", { "data-kind": kind },
    h("header.live-head", {}, h("h1", { text: `Replay of ${kind} ${id}` })),
    intro, error, chooser, stage));
  let stepper = null;
  let closed = false;

  const open = (t) => {
    stepper?.destroy();
    stage.replaceChildren();
    if (!closed) stepper = mountStepper(stage, ctx, t);
  };

  try {
    if (kind === "session") {
      const t = await net.rest("GET", `/sessions/${encodeURIComponent(id)}/moves`);
      intro.textContent = `${t.game} (${t.variant}), ${t.moves.length} moves, ${t.status}, score ${t.score}.`;
      open({ ...t, label: t.session });
    } else if (kind === "race") {
      const r = await net.rest("GET", `/races/${encodeURIComponent(id)}/results`);
      intro.textContent = `${r.game} (${r.variant}) race: every entrant played this deal; pick whose game to step through.`;
      chooser.append(seedReveal(r.seed, r.commitment));
      choose(r.ranking.map((e) => ({
        key: e.player, label: `#${e.rank} ${e.name} — ${e.status}, score ${e.score}`,
        load: async () => {
          const t = await net.rest("GET", `/sessions/${encodeURIComponent(e.session)}/moves`);
          return { ...t, label: e.name };
        },
      })), params.query?.get("player"));
    } else if (kind === "match") {
      const t = await net.rest("GET", `/matches/${encodeURIComponent(id)}/transcript`);
      const ranks = new Map(t.results.ranking.map((e) => [e.player, e]));
      intro.textContent = `${t.game} (${t.variant}) match: one deal for every player; pick whose game to step through.`;
      chooser.append(seedReveal(t.seed, t.commitment));
      choose(t.order.map((p, i) => ({
        key: p.player,
        label: `${p.name} — score ${ranks.get(p.player)?.score ?? "?"}, rank ${ranks.get(p.player)?.rank ?? "?"}`,
        load: async () => matchGame(t, p, i),
      })), params.query?.get("player"));
    } else {
      throw new Error(`there is no ${kind} replay`);
    }
  } catch (e) {
    error.textContent = e.code === "race.not_over" || e.code === "match.not_over"
      ? "The replay is published when play is over." : errorText(e);
  }

  function choose(options, wanted) {
    const select = h("select.replay-player", { "aria-label": "whose game" },
      options.map((o) => h("option", { value: o.key, text: o.label })));
    const load = async () => {
      const o = options.find((x) => x.key === select.value);
      error.textContent = "";
      try {
        open(await o.load());
      } catch (e) {
        error.textContent = errorText(e);
      }
    };
    select.addEventListener("change", load);
    chooser.append(h("label", {}, "Whose game: ", select));
    if (wanted && options.some((o) => o.key === wanted)) select.value = wanted;
    if (options.length) load();
  }

  return () => {
    closed = true;
    stepper?.destroy();
  };
}

// One player's game in a match transcript, as a one-player transcript: a bowler's frames are
// dealt from the same per-frame decks in a solo game, a called-card grid is a solo grid.
function matchGame(t, p, i) {
  let moves;
  if (t.kind === "bowling") {
    moves = t.moves.filter((m) => m.bowler === i + 1);
  } else {
    moves = t.moves[p.player] || [];
  }
  const forfeit = moves.findIndex((m) => m.move === "forfeit");
  if (forfeit >= 0) moves = moves.slice(0, forfeit);
  return {
    game: t.game, variant: t.variant, seed: t.seed, commitment: t.commitment, label: p.name,
    moves: moves.map((m) => m.move), times: moves.map((m) => m.t),
    // A player who stayed to the end made the placement that ended their game; one who left
    // stopped mid-game.
    status: forfeit >= 0 ? "playing" : "finished", score: null, created: t.started_at,
  };
}

// The stepper: the move list, the board at the chosen step, first/prev/next/last and the arrow
// keys. Boards come from a practice game dealt from the same seed, moved forward as needed.
function mountStepper(el, ctx, t) {
  const { net } = ctx;
  const rules = ctx.ruleSet(t.game, t.variant);
  const moves = t.moves;
  const resignAt = moves[moves.length - 1] === "resign" ? moves.length - 1 : -1;
  // The move that ended the game is not played on the practice game (it would end the viewer's
  // own practice game and count in their statistics); its step says what it did instead.
  let playable = resignAt >= 0 ? resignAt : moves.length;
  if (t.status && t.status !== "playing" && resignAt < 0) playable = Math.max(0, moves.length - 1);
  const views = []; // views[k]: the board after k moves
  const scores = [];
  let sid = null;
  let at = 0;
  let shown = 0;
  let busy = null;
  let dead = false;
  let failedAt = -1;

  const boardEl = h("div.replay-board");
  const note = h("p.replay-note", { role: "status" });
  const pos = h("span.replay-pos");
  const list = h("ol.replay-moves");
  const btn = (label, act, aria) => h("button", { type: "button", text: label, "aria-label": aria, "data-step": act });
  const first = btn("« First", "first", "the deal"), prev = btn("‹ Prev", "prev", "previous move");
  const next = btn("Next ›", "next", "next move"), last = btn("Last »", "last", "last move");
  el.append(h("div.replay", {},
    h("div.replay-controls", {}, first, prev, pos, next, last),
    note,
    h("div.replay-body", {}, boardEl, list)));
  first.onclick = () => go(0);
  prev.onclick = () => go(shown - 1);
  next.onclick = () => go(shown + 1);
  last.onclick = () => go(moves.length);

  list.replaceChildren(...moves.map((m, i) => h("li", { "data-step": i + 1 },
    h("button.replay-move", { type: "button", onclick: () => go(i + 1) },
      h("span.mv", { text: m }),
      h("span.sc"),
      t.times?.[i] && t.created ? h("span.tm", { text: duration(t.times[i] - t.created) }) : null))));

  let board = null;
  function draw(k) {
    const view = views[Math.min(k, playable, views.length - 1)];
    if (view) {
      if (!board) board = renderBoard(boardEl, rules, view, { legal: [], interactive: false, onMove: async () => {} });
      else board.update(view, []);
    }
    pos.textContent = `Move ${k} of ${moves.length}`;
    first.disabled = prev.disabled = k === 0;
    next.disabled = last.disabled = k === moves.length;
    let text = k === 0 ? "The deal." : `Move ${k}: ${moves[k - 1]}`;
    if (view && k <= playable && k < views.length) text += ` — score ${view.score}`;
    if (k > playable) {
      text += k - 1 === resignAt ? " — resigned." : ` — this move ended the game: ${t.status}${t.score !== null ? `, score ${t.score}` : ""}.`;
    }
    if (failedAt >= 0 && k > failedAt) text = `Move ${failedAt + 1} (${moves[failedAt]}) did not replay on this deal.`;
    note.textContent = text;
    for (const li of list.children) li.classList.toggle("current", Number(li.dataset.step) === k);
    // Keep the current move in view inside the list, without scrolling the page.
    const li = list.children[k - 1];
    if (li) {
      const top = li.offsetTop; // the list is positioned: offsets are from its top
      if (top < list.scrollTop) list.scrollTop = top;
      else if (top + li.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top + li.offsetHeight - list.clientHeight;
      }
    }
  }

  // Play the practice game forward to step k (within the playable moves), keeping each board.
  async function reach(k) {
    if (!t.seed) return;
    if (!sid) {
      const s = await net.request({ type: "solo.start", game: t.game, variant: t.variant, seed: t.seed });
      sid = s.session;
      views[0] = s.view;
      scores[0] = s.view.score;
    }
    const target = Math.min(k, playable);
    let n = 0;
    while (at < target && failedAt < 0 && !dead) {
      try {
        const ack = await net.request({ type: "move", session: sid, move: moves[at], rev: at });
        at += 1;
        views[at] = ack.view;
        const sc = list.children[at - 1]?.querySelector(".sc");
        if (sc) sc.textContent = String(ack.view.score);
      } catch (e) {
        failedAt = at;
        note.textContent = errorText(e);
      }
      if (++n % 50 === 0) await sleep(300); // stay well under the socket's rate limit
    }
  }

  async function go(k) {
    k = Math.max(0, Math.min(moves.length, k));
    shown = k;
    busy = (busy || Promise.resolve()).then(() => reach(k)).catch((e) => { note.textContent = errorText(e); });
    await busy;
    if (!dead && shown === k) draw(k);
  }

  const onKey = (e) => {
    if (e.target.closest?.("input, select, textarea")) return;
    const to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  };
  document.addEventListener("keydown", onKey);

  if (!t.seed) {
    note.textContent = "The seed is not public yet: here is the move list; the boards come once the seed is revealed.";
    pos.textContent = `${moves.length} moves`;
  } else {
    go(0);
  }

  return {
    destroy() {
      dead = true;
      document.removeEventListener("keydown", onKey);
      board?.destroy();
    },
  };
}
