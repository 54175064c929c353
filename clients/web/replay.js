// The replay page (#/replay/{race|match|session}/{id}): step through a public transcript move by
// move. The browser has no engine, and the transcripts carry moves, not boards; so once the seed
// is public the page deals that seed again as a practice game (solo.start with the seed: the same
// deal) and plays the transcript's moves on it, one at a time, keeping every board the server
// answers. Stepping back shows a kept board; nothing is ever computed in the browser.
// Moves read in card words (words.js) from the board before each move, the notation as their
// title; the page names the game and the race or match, not their ids. Once a game is over its
// analysis (analysis.js, fetched only then) runs along the moves above the board.

import { renderBoard } from "./render.js";
import { h, errorText } from "./dom.js";
import { duration } from "./time.js";
import { seedReveal } from "./seed.js";
import { gameWords, moveWords, playWords } from "./words.js";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function mount(root, ctx, params) {
  const { net } = ctx;
  const { kind, id } = params;
  const chooser = h("div.replay-choose");
  const stage = h("div.replay-stage");
  const error = h("p.live-error", { role: "alert" });
  const intro = h("p.live-meta");
  const title = h("h1", { text: `Replay of a ${kind}` });
  root.append(h("section.live.replay", { "data-kind": kind },
    h("header.live-head", {}, title), intro, error, chooser, stage));
  const named = (t, what) => {
    const rules = ctx.ruleSet(t.game, t.variant);
    title.textContent = `Replay: ${playWords(rules, { ...what, game: t.game, variant: t.variant })}`;
    return gameWords(rules, t.game, t.variant);
  };
  let stepper = null;
  let closed = false;

  // The analysis panel's script, for a finished game only (no other game has one to show);
  // without it (the network gone) the replay still steps through the moves. A ranked game
  // whose seed is out is over with its race, day or match, even one still being played when
  // time ran out.
  const analysisOf = async (t) => {
    const over = (t.status && t.status !== "playing") || t.competitive;
    if (!(t.session && t.seed && over)) return null;
    try {
      return (await import("./analysis.js")).analysisPanel;
    } catch (e) {
      console.error(e);
      error.textContent = "The analysis can't be loaded: the server can't be reached. "
        + "Check your connection and reload the page.";
      return null;
    }
  };
  // The game last chosen wins: its ticket is taken before its transcript is fetched, so an
  // earlier choice whose fetch answers later never replaces it.
  let opening = 0;
  const open = async (get) => {
    const mine = ++opening;
    const t = await get();
    if (closed || mine !== opening) return; // left, or another game chosen meanwhile
    const panel = await analysisOf(t);
    if (closed || mine !== opening) return;
    stepper?.destroy();
    stage.replaceChildren();
    stepper = mountStepper(stage, ctx, t, panel);
  };

  try {
    if (kind === "session") {
      const t = await net.rest("GET", `/sessions/${encodeURIComponent(id)}/moves`);
      const game = named(t, { kind: "game", at: t.created });
      intro.textContent = `${game}, ${t.moves.length} moves, ${t.status}, score ${t.score}.`;
      await open(() => ({ ...t, label: t.session }));
    } else if (kind === "race") {
      const r = await net.rest("GET", `/races/${encodeURIComponent(id)}/results`);
      const game = named(r, { kind: "race", players: r.ranking.length, at: r.starts_at });
      intro.textContent = `${game} race: every entrant played this deal; pick whose game to step through.`;
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
      const game = named(t, { kind: "match", players: t.order.length, at: t.started_at });
      intro.textContent = `${game} match: one deal for every player; pick whose game to step through.`;
      chooser.append(seedReveal(t.seed, t.commitment));
      choose(t.order.map((p, i) => ({
        key: p.player,
        label: `${p.name} — score ${ranks.get(p.player)?.score ?? "?"}, rank ${ranks.get(p.player)?.rank ?? "?"}`,
        load: async () => matchGame(t, p, i, id),
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
        await open(o.load);
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
// dealt from the same per-frame decks in a solo game, a called-card grid is a solo grid; each is
// analysed as one, under `<match>.<player>`.
function matchGame(t, p, i, match) {
  let moves;
  if (t.kind === "turns") {
    moves = t.moves.filter((m) => m.bowler === i + 1);
  } else {
    moves = t.moves[p.player] || [];
  }
  const forfeit = moves.findIndex((m) => m.move === "forfeit");
  if (forfeit >= 0) moves = moves.slice(0, forfeit);
  return {
    game: t.game, variant: t.variant, seed: t.seed, commitment: t.commitment, label: p.name,
    session: `${match}.${p.player}`, competitive: true,
    moves: moves.map((m) => m.move), times: moves.map((m) => m.t),
    // A player who stayed to the end made the placement that ended their game; one who left
    // stopped mid-game.
    status: forfeit >= 0 ? "playing" : "finished", score: null, created: t.started_at,
  };
}

// The stepper: the move list, the board at the chosen step, first/prev/next/last and the arrow
// keys. Boards come from a practice game dealt from the same seed, moved forward as needed.
function mountStepper(el, ctx, t, analysisPanel) {
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
  let sent = 0; // moves sent to the practice game

  const boardEl = h("div.replay-board");
  const note = h("p.replay-note", { role: "status" });
  const pos = h("span.replay-pos");
  const list = h("ol.replay-moves");
  const btn = (label, act, aria) => h("button", { type: "button", text: label, "aria-label": aria, "data-step": act });
  const first = btn("« First", "first", "the deal"), prev = btn("‹ Prev", "prev", "previous move");
  const next = btn("Next ›", "next", "next move"), last = btn("Last »", "last", "last move");
  // The analysis of a finished game (a session's, or a match player's game); the
  // better line shows its boards here through `host`.
  const host = { rules, go: (k) => go(k), show: showAside };
  const panel = analysisPanel ? analysisPanel(ctx, t, host) : null;
  el.append(h("div.replay", { "data-session": t.session ?? "" },
    h("div.replay-controls", {}, first, prev, pos, next, last),
    panel?.el,
    note,
    h("div.replay-body", {}, boardEl, list)));
  first.onclick = () => go(0);
  prev.onclick = () => go(shown - 1);
  next.onclick = () => go(shown + 1);
  last.onclick = () => go(moves.length);

  // A move's words need the board before it: they name its cards once that board is here.
  const said = (k) => moveWords(rules, moves[k - 1], views[k - 1] ?? null);
  const sayMove = (k) => {
    const mv = list.children[k - 1]?.querySelector(".mv");
    if (mv) mv.textContent = said(k);
  };
  list.replaceChildren(...moves.map((m, i) => h("li", { "data-step": i + 1 },
    h("button.replay-move", { type: "button", title: m, "data-move": m, onclick: () => go(i + 1) },
      h("span.mv", { text: said(i + 1) }),
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
    let text = k === 0 ? "The deal." : `Move ${k}: ${said(k)}`;
    if (view && k <= playable && k < views.length) text += ` — score ${view.score}`;
    if (k > playable) {
      text = k - 1 === resignAt ? `Move ${k}: resigned.` : `${text} — this move ended the game: ${t.status}${t.score !== null ? `, score ${t.score}` : ""}.`;
    }
    if (failedAt >= 0 && k > failedAt) text = `Move ${failedAt + 1} (${said(failedAt + 1)}, ${moves[failedAt]}) did not replay on this deal.`;
    note.textContent = text + (panel?.say(k) ?? "");
    panel?.shown(k);
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

  // A board off the game's path (the better line's), with its note and where it is.
  function showAside(view, text, where) {
    if (view) {
      if (!board) board = renderBoard(boardEl, rules, view, { legal: [], interactive: false, onMove: async () => {} });
      else board.update(view, []);
    }
    note.textContent = text;
    pos.textContent = where;
    for (const li of list.children) li.classList.remove("current");
  }

  // Play the practice game forward to step k (within the playable moves), keeping each board.
  async function reach(k) {
    if (!t.seed) return;
    if (!sid) {
      const s = await net.request({ type: "solo.start", game: t.game, variant: t.variant, seed: t.seed });
      sid = s.session;
      views[0] = s.view;
      scores[0] = s.view.score;
      sayMove(1);
    }
    const target = Math.min(k, playable);
    while (at < target && failedAt < 0 && !dead) {
      try {
        const ack = await net.request({ type: "move", session: sid, move: moves[at], rev: at });
        at += 1;
        views[at] = ack.view;
        sayMove(at + 1);
        const sc = list.children[at - 1]?.querySelector(".sc");
        if (sc) sc.textContent = String(ack.view.score);
      } catch (e) {
        failedAt = at;
        note.textContent = errorText(e);
      }
      if (++sent % 50 === 0) await sleep(300); // stay well under the socket's rate limit
    }
  }

  function queue(k) {
    busy = (busy || Promise.resolve()).then(() => reach(k)).catch((e) => { note.textContent = errorText(e); });
    return busy;
  }

  async function go(k) {
    k = Math.max(0, Math.min(moves.length, k));
    shown = k;
    await queue(k);
    if (!dead && shown === k) draw(k);
  }

  // Every board, a few moves at a time behind the player's own steps, so the whole list reads
  // in card words (each step waits for at most one batch).
  async function fill() {
    while (!dead && at < playable && failedAt < 0) {
      const before = at;
      await queue(at + 10);
      if (at === before) return; // a failure: the note says which move
    }
  }

  const onKey = (e) => {
    if (e.target.closest?.("input, select, textarea")) return;
    if (panel?.key(e.key)) {
      e.preventDefault();
      return;
    }
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
    go(0).then(fill);
  }

  return {
    destroy() {
      dead = true;
      document.removeEventListener("keydown", onKey);
      panel?.destroy();
      board?.destroy();
    },
  };
}
