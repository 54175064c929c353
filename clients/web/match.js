// The match page (#/match/{id}): seats and the start, then, for a match played in turns (the
// match kind "turns", from the rule set's description), the shared lane (pins, balls, the card
// being bowled), every bowler's scorecard, whose turn and its timer; for a "called" match (one
// card called to every player, each on their own grid) the called card, the player's own grid and
// everyone's running line scores (never another player's grid). Away, back and forfeits are
// shown as they happen; at the end the results and the seed, checked against its commitment.

import { renderBoard } from "./render.js";
import { cardElement } from "./cards.js";
import { cardLabel, frameCards, lineScores, placeName, scorecards, stockOf } from "./scores.js";
import { h, errorText } from "./dom.js";
import { clock, duration, serverNow, syncClock } from "./time.js";
import { shareBox } from "./share.js";
import { fairnessProof } from "./proof.js";
import { endActions } from "./rematch.js";

const SENDING_AFTER = 250; // ms a card may take before the page says it is still sending

export async function mount(root, ctx, params) {
  const { net } = ctx;
  const matchId = params.id;
  const me = () => ctx.player?.id ?? net.player?.id;
  const rules = () => (m ? ctx.ruleSet(m.game, m.variant) : null);

  let m = null; // the match summary, kept current by events
  let seq = 0;
  let early = [];
  let you = null; // what is this player's alone (match.you), the newest by as_of: a
  // called-card player's grid, or the bowler's own lane on their turn (everyone else sees
  // that lane face down until the frame is complete)
  let board = null; // the rendered lane or own grid
  let boardKey = "";
  let closed = false;
  const log = [];

  const title = h("h1", { text: "Match" });
  const badge = h("span.badge.match-state", { text: "…" });
  const meta = h("p.live-meta");
  const commitment = h("p.commitment");
  const actions = h("div.actions");
  const error = h("p.live-error", { role: "alert" });
  const turn = h("p.match-turn", { role: "status", "aria-live": "polite" });
  const players = h("ul.match-players");
  const called = h("div.called-card");
  const refusal = h("p.refusal", { role: "alert", hidden: true });
  // A card on its way (as on the practice board, play.js): said over the board's top once it
  // takes longer than a moment, so a dead network shows at the tap, not only in the badge.
  const sending = h("p.sending", { role: "status", text: "Sending your move…", hidden: true });
  let busy = false; // a move is out: another tap waits for its answer
  const boardEl = h("div.match-board");
  const scores = h("div.match-scores");
  const events = h("ul.match-log");
  const resultsBox = h("section.match-results", { hidden: true });
  const end = endActions(ctx, "match", matchId); // Rematch, and the answer to one
  const page = h("section.live.match", { "data-match": matchId },
    h("header.live-head", {}, title, badge), meta,
    shareBox(location.href.split("#")[0] + `#/match/${matchId}`), commitment,
    actions, error, turn, end.el,
    h("div.match-main", {},
      // The scores stand right under the lane (beside it on a phone held sideways): a bowler
      // sees both at once.
      h("div.match-play", {}, called, refusal, sending, boardEl, scores),
      h("aside.match-side", {}, h("h2", { text: "Players" }), players,
        h("h2", { text: "What happened" }), events)),
    resultsBox);
  root.append(page);

  const fail = (e) => { error.textContent = errorText(e); };
  const nameOf = (pid) => m?.players.find((p) => p.player === pid)?.name ?? pid;
  const seated = () => m?.players.some((p) => p.player === me());
  const act = (type, ask) => async () => {
    if (ask && !confirm(ask)) return;
    error.textContent = "";
    try {
      applySummary(await net.request({ type, match: matchId }));
    } catch (e) {
      fail(e);
    }
  };
  const note = (text) => {
    log.unshift(text);
    log.length = Math.min(log.length, 12);
    events.replaceChildren(...log.map((t) => h("li", { text: t })));
  };

  // ---- state ----

  function applySummary(s) {
    if (!s || s.match !== matchId) return;
    if (m && s.seq < seq) return;
    m = s;
    seq = s.seq;
    if (s.you) applyYou({ ...s.you, match: matchId });
    const queued = early.filter((ev) => ev.seq > seq);
    early = [];
    queued.forEach(applyEvent);
    draw();
  }

  function applyYou(y) {
    if (y.match !== matchId) return;
    if (you && y.as_of < you.as_of) return; // a reply that an event already overtook
    you = y;
    draw();
  }

  async function refresh() {
    try {
      const s = await net.request({ type: "match.get", match: matchId });
      m = null;
      applySummary(s);
    } catch (e) {
      fail(e);
    }
  }

  function applyEvent(ev) {
    if (!m) { early.push(ev); return; }
    if (ev.seq <= seq) return;
    if (ev.seq > seq + 1) { refresh(); return; }
    const shown = lane().view; // the lane as this page showed it before the event
    seq = m.seq = ev.seq;
    const player = m.players.find((p) => p.player === (ev.player?.id ?? ev.player));
    switch (ev.type) {
      case "match.joined":
        if (!player) m.players.push({ player: ev.player.id, name: ev.player.name, kind: ev.player.kind, away: false, forfeited: false });
        note(`${ev.player.name} took a seat.`);
        break;
      case "match.left":
        m.players = m.players.filter((p) => p.player !== ev.player);
        note(`${player?.name ?? "A player"} gave up their seat.`);
        break;
      case "match.started":
        m.state = "running";
        m.started_at = ev.started_at;
        m.players = ev.order.map((p, i) => ({ ...(m.players.find((q) => q.player === p.player) || {}), ...p, seat: i + 1 }));
        Object.assign(m, pick(ev, ["view", "turn", "round", "card", "deadline"]));
        if (m.kind === "turns") m.frames = [];
        if (m.kind === "called") {
          m.scores = Object.fromEntries(m.players.map((p) => [p.player, { score: 0, lines: [], placed: 0, waiting: true, done: false }]));
        }
        note("The match started.");
        break;
      case "match.moved": {
        const card = shown?.piles?.[stockOf(rules())]?.up?.at(-1); // the card bowled, if shown here
        Object.assign(m, pick(ev, ["view", "turn"]));
        if (ev.frames) m.frames = [...(m.frames || []), ...ev.frames];
        if (ev.move == null) {
          // A turn passed in a frame this page's player is still to bowl (or watches): only
          // that it passed, not how many cards it took; the frame shows once every bowler
          // has bowled it.
          note(`${nameOf(ev.player)} has bowled frame ${m.view?.info?.frame ?? ""}.`);
          break;
        }
        note(`${nameOf(ev.player)} bowled ${card ? `${cardLabel(card)} ` : ""}${placeName(rules(), ev.move)}${ev.by === "timer" ? " (placed by the timer)" : ""}.`);
        break;
      }
      case "match.placed": {
        const s = m.scores?.[ev.player];
        if (s) Object.assign(s, { score: ev.score, lines: ev.lines, placed: s.placed + 1, waiting: false, done: ev.done });
        note(`${nameOf(ev.player)} placed card ${ev.round + 1}${ev.by === "timer" ? " (by the timer)" : ""}.`);
        break;
      }
      case "match.card":
        Object.assign(m, { round: ev.round, card: ev.card, deadline: ev.deadline });
        for (const [pid, s] of Object.entries(m.scores || {})) {
          const p = m.players.find((q) => q.player === pid);
          s.waiting = !s.done && !p?.forfeited;
        }
        break;
      case "match.forfeit":
        if (player) player.forfeited = true;
        if (m.scores?.[ev.player]) m.scores[ev.player].waiting = false;
        Object.assign(m, pick(ev, ["view", "turn"]));
        if (ev.frames) m.frames = [...(m.frames || []), ...ev.frames];
        note(`${player?.name ?? "A player"} left the match for good.`);
        break;
      case "match.away":
        if (player) player.away = true;
        note(`${player?.name ?? "A player"} is away.`);
        break;
      case "match.back":
        if (player) player.away = false;
        note(`${player?.name ?? "A player"} is back.`);
        break;
      case "match.ended":
        Object.assign(m, { state: "ended", seed: ev.seed, results: ev.results, turn: null, card: null, deadline: null });
        note("The match is over.");
        break;
      case "match.rematched":
        Object.assign(m, { rematch: ev.rematch, rematch_by: ev.by?.id });
        note(`${ev.by?.name ?? "A player"} asks for a rematch.`);
        end.asked(ev);
        break;
    }
    draw();
  }

  function refuse(text) {
    refusal.textContent = text;
    refusal.hidden = !text;
  }

  async function move(text) {
    if (busy) return;
    busy = true;
    refuse("");
    const slow = setTimeout(() => { sending.hidden = false; }, SENDING_AFTER);
    try {
      const shown = m?.kind === "turns" ? lane().view : null;
      const reply = await net.request({ type: "match.move", match: matchId, move: text });
      if (reply.you && m?.kind === "turns") {
        // A card that keeps the turn is no event: the reply is all that tells of it.
        const card = shown?.piles?.[stockOf(rules())]?.up?.at(-1);
        note(`${nameOf(me())} bowled ${card ? `${cardLabel(card)} ` : ""}${placeName(rules(), text)}.`);
      }
      applySummary(reply);
    } catch (e) {
      refuse(errorText(e));
    } finally {
      clearTimeout(slow);
      sending.hidden = true;
      busy = false;
    }
  }

  // ---- drawing ----

  function draw() {
    if (!m) return;
    const mine = seated();
    title.textContent = `${m.name} match`;
    badge.textContent = m.state;
    badge.dataset.state = m.state;
    page.dataset.state = m.state;
    page.dataset.kind = m.kind;
    page.dataset.seq = String(seq);
    meta.textContent = [m.variant, `${m.players.length}/${m.seats} seats`, `${m.turn_time} s a card`,
      `${m.grace} s grace when away`, m.start === "manual" ? "the creator starts it" : "starts when full",
      `created by ${nameOf(m.creator)}`].join(" · ");
    commitment.replaceChildren(h("span", { text: "Seed commitment (SHA-256): " }), h("code", { text: m.commitment }));

    const buttons = [];
    if (m.state === "open") {
      if (!mine && m.players.length < m.seats) buttons.push(h("button.primary", { type: "button", "data-act": "join", text: "Join match", onclick: act("match.join") }));
      if (mine) buttons.push(h("button", { type: "button", "data-act": "leave", text: "Give up my seat", onclick: act("match.leave") }));
      if (m.creator === me() && m.players.length >= (rules()?.match?.seats?.[0] ?? 2)) {
        buttons.push(h("button.primary", { type: "button", "data-act": "start", text: "Start now", onclick: act("match.start") }));
      }
    } else if (m.state === "running" && mine && !m.players.find((p) => p.player === me())?.forfeited) {
      buttons.push(h("button", { type: "button", "data-act": "leave", text: "Leave the match",
        onclick: act("match.leave", "Leave for good? Your remaining turns are forfeited.") }));
    }
    actions.replaceChildren(...buttons);

    const turnOf = m.kind === "turns" ? m.turn?.player : null;
    players.replaceChildren(...m.players.map((p, i) => h(`li${p.player === me() ? ".me" : ""}${p.player === turnOf ? ".turn" : ""}`,
      { "data-player": p.player, "data-away": p.away ? "yes" : "no", "data-forfeited": p.forfeited ? "yes" : "no" },
      h("span.seat", { text: `${i + 1}.` }), ` ${p.name}${p.player === me() ? " (you)" : ""}`,
      p.kind === "bot" ? h("span.kind", { text: " bot" }) : null,
      p.player === turnOf ? h("span.tag.turn-tag", { text: "to bowl" }) : null,
      m.kind === "called" && m.scores?.[p.player]?.waiting && m.state === "running" ? h("span.tag", { text: "placing" }) : null,
      p.away ? h("span.tag.away", { text: "away" }) : null,
      p.forfeited ? h("span.tag.forfeit", { text: "left" }) : null)));

    if (m.state === "open") {
      boardEl.replaceChildren(h("p.waiting", { text: `Waiting for players (${m.players.length}/${m.seats})…` }));
      board = null;
      boardKey = "";
    } else if (m.kind === "turns") {
      drawLane();
    } else {
      drawCalled();
    }
    tick();
    end.update(m);
    if (m.state === "ended" && m.results) showResults();
  }

  // A board drawn with renderBoard, rebuilt only when what it shows changes kind.
  function showBoard(key, view, legal) {
    if (!view) return;
    if (board && boardKey === key) {
      board.update(view, legal);
      return;
    }
    board?.destroy();
    boardEl.replaceChildren();
    boardKey = key;
    board = renderBoard(boardEl, rules(), view, { legal, interactive: key !== "watch", onMove: move });
  }

  // The lane to draw: the bowler's own (cards and legal placements) on their turn, once their
  // match.you for this event has come; else the lane as everyone sees it, face down.
  function lane() {
    const mine = m?.kind === "turns" && m.turn?.player === me() && you && you.as_of >= seq;
    return mine ? you : { view: m?.view, legal: [] };
  }

  function drawLane() {
    const { view, legal } = lane();
    showBoard(seated() ? "play" : "watch", view, legal);
    // On the player's turn their own lane's info has their ball in progress; else the
    // scorecards as everyone sees them, with the player's own frame so far (own_frame).
    const info = (view !== m.view && view?.info) || m.view?.info;
    if (!info) return;
    const cards = frameCards(m.frames?.at(-1), rules(), nameOf); // null until a frame is complete
    scores.replaceChildren(h("h2", { text: "Scorecards" }), scorecards(m, info, me(), m.own_frame),
      ...(cards ? [cards] : []));
  }

  function drawCalled() {
    called.replaceChildren();
    if (m.state === "running" && m.card) {
      called.append(h("span", { text: `Card ${m.round + 1} called: ` }), cardElement(m.card));
    } else if (m.state === "running") {
      called.append(h("span", { text: "Every grid is full." }));
    }
    if (you) showBoard("play", you.view, you.legal);
    else if (!seated()) boardEl.replaceChildren(h("p.watching", { text: "You are watching: each player's grid is their own; their line scores are below." }));
    scores.replaceChildren(h("h2", { text: "Line scores" }), lineScores(m, me()));
  }

  // Whose turn (or who is still to place) and the turn timer.
  function tick() {
    if (!m) return;
    const now = serverNow();
    let text = "";
    let mineNow = false;
    if (m.state === "open") text = "The match has not started.";
    else if (m.state === "ended") text = "The match is over.";
    else if (m.kind === "turns" && m.turn) {
      mineNow = m.turn.player === me();
      // The bowler's own card deadline is theirs (you.deadline); the others see the turn's
      // first card's, and then only whose turn it is.
      const due = mineNow && lane() === you ? you.deadline : m.turn.deadline;
      const left = due && due > now ? ` — ${clock(due - now)} left` : "";
      text = mineNow ? `Your turn: bowl frame ${m.view?.info?.frame}${left}` : `${nameOf(m.turn.player)} is bowling${left}`;
    } else if (m.kind === "called") {
      const s = m.scores?.[me()];
      const left = m.deadline ? ` — ${clock(m.deadline - now)} left` : "";
      mineNow = Boolean(you?.waiting);
      if (mineNow) text = `Your turn: place the called card${left}`;
      else if (s?.done) text = "Your grid is full: waiting for the others.";
      else if (seated()) text = `Waiting for the others to place this card${left}`;
      else text = `Card ${m.round + 1}${left}`;
    }
    turn.textContent = text;
    turn.classList.toggle("yours", mineNow);
    page.classList.toggle("my-turn", mineNow);
  }

  function showResults() {
    const r = m.results;
    resultsBox.hidden = false;
    resultsBox.replaceChildren(...h("div", {}, h("h2", { text: "Results" }),
      h("table.ranking", {},
        h("thead", {}, h("tr", {}, ["Rank", "Player", "Score", "Result", "Time"].map((t) => h("th", { scope: "col", text: t })))),
        h("tbody", {}, r.ranking.map((e) => h(`tr${e.player === me() ? ".me" : ""}`, { "data-player": e.player },
          h("td.rank", { text: e.rank }), h("th", { scope: "row", text: e.name }), h("td", { text: e.score }),
          h("td", { text: e.forfeited ? "left" : e.status }), h("td", { text: duration(e.time_ms) }))))),
      r.starter ? h("p", {}, "Starter: ", cardElement(r.starter)) : null,
      fairnessProof({ seed: m.seed || r.seed, commitment: m.commitment, what: "match",
        replay: `#/replay/match/${matchId}` })).childNodes);
  }

  // ---- wiring ----

  const offs = [
    net.on("match", (s) => { if (s.match === matchId) applySummary(s); }),
    net.on("match.you", applyYou),
    ...["match.joined", "match.left", "match.started", "match.moved", "match.placed", "match.card",
      "match.forfeit", "match.away", "match.back", "match.ended", "match.rematched"].map(
      (t) => net.on(t, (ev) => { if (ev.match === matchId) applyEvent(ev); })),
  ];
  const timer = setInterval(tick, 250);
  syncClock(net).then(tick);
  net.follow("match", matchId);
  try {
    applySummary(await net.request({ type: "match.get", match: matchId }));
  } catch (e) {
    fail(e);
  }

  return () => {
    closed = true;
    clearInterval(timer);
    offs.forEach((off) => off());
    net.unfollow("match", matchId);
    board?.destroy();
  };
}

function pick(obj, keys) {
  return Object.fromEntries(keys.filter((k) => k in obj).map((k) => [k, obj[k]]));
}
