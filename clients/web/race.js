// The race page (#/race/{id}): seats, the countdown, the player's own board, every opponent's
// live progress (counts only: the server never sends their cards; track.js draws it), the finish
// order, and at the end the ranking, the fairness proof (proof.js), Race again and Rematch
// (rematch.js).

import { mountSession } from "./play.js";
import { h, errorText } from "./dom.js";
import { clock, duration, serverNow, syncClock } from "./time.js";
import { shareBox } from "./share.js";
import { progressTrack, deckSize } from "./track.js";
import { fairnessProof } from "./proof.js";
import { endActions } from "./rematch.js";

const DONE = (status) => status && status !== "playing";

export async function mount(root, ctx, params) {
  const { net } = ctx;
  const raceId = params.id;
  const me = () => ctx.player?.id ?? net.player?.id;

  let race = null; // the summary as last known, kept up to date by events
  let seq = 0; // the last event applied
  let early = []; // events that came before the first summary
  let session = null; // the mounted own game
  let sessionId = null;
  let results = null;
  let timer = null;
  let closed = false;
  const finishedAt = new Map(); // player -> server ms it finished (as seen live)
  let deck = deckSize(null); // cards in the deal: the track's length, counted from our view
  const track = progressTrack();
  const end = endActions(ctx, "race", raceId);

  const title = h("h1", { text: "Race" });
  const badge = h("span.badge.race-state", { text: "…" });
  const meta = h("p.live-meta");
  const commitment = h("p.commitment");
  const actions = h("div.actions");
  const error = h("p.live-error", { role: "alert" });
  const status = h("p.race-clock", { role: "status", "aria-live": "polite" });
  const board = h("div.race-board");
  const cover = h("div.race-cover", { hidden: true });
  const progress = h("tbody");
  const finish = h("ol.race-finish");
  const resultsBox = h("section.race-results", { hidden: true });
  const page = h("section.live.race", { "data-race": raceId },
    h("header.live-head", {}, title, badge),
    meta, shareBox(location.href.split("#")[0] + `#/race/${raceId}`), commitment,
    actions, error, status, end.el,
    h("div.race-main", {},
      h("div.race-play", {}, board, cover),
      h("aside.race-side", {}, track.el,
        h("h2", { text: "Entrants" }),
        h("table.race-progress", {},
          h("thead", {}, h("tr", {}, ["Player", "Moves", "Score", "Cards", "Status"].map(
            (t) => h("th", { scope: "col", text: t })))),
          progress),
        h("h2", { text: "Finish order" }), finish)),
    resultsBox);
  root.append(page);

  const fail = (e) => { error.textContent = errorText(e); };
  const act = (type) => async () => {
    error.textContent = "";
    try {
      const reply = await net.request({ type, race: raceId });
      applySummary(reply);
    } catch (e) {
      fail(e);
    }
  };

  // ---- state ----

  function entrant(pid) {
    return race?.entrants.find((e) => e.player === pid);
  }

  function applySummary(s) {
    if (!s || s.race !== raceId) return;
    if (race && s.seq < seq) return; // an older picture than what events already told us
    race = { ...s, entrants: s.entrants.map((e) => ({ ...(entrant(e.player) || {}), ...e })) };
    seq = s.seq;
    for (const e of race.entrants) {
      if (e.finished_at) finishedAt.set(e.player, e.finished_at);
    }
    const queued = early.filter((ev) => ev.seq > seq);
    early = [];
    for (const ev of queued) applyEvent(ev);
    if (race.state === "ended" && !results) loadResults();
    ownSession();
    draw();
  }

  function applyEvent(ev) {
    if (!race) { early.push(ev); return; }
    if (ev.seq <= seq) return; // seen already (a summary covered it)
    if (ev.seq > seq + 1) { refresh(); return; } // a gap: read the whole race again
    seq = ev.seq;
    race.seq = ev.seq;
    switch (ev.type) {
      case "race.joined":
        if (!entrant(ev.player.id)) {
          race.entrants.push({ player: ev.player.id, name: ev.player.name, kind: ev.player.kind });
        }
        break;
      case "race.left":
        race.entrants = race.entrants.filter((e) => e.player !== ev.player);
        break;
      case "race.started":
        Object.assign(race, { state: "running", starts_at: ev.starts_at, ends_at: ev.ends_at });
        for (const e of race.entrants) {
          Object.assign(e, { session: ev.sessions[e.player], status: "playing", moves: 0, score: e.score ?? 0, cards: 0 });
        }
        break;
      case "race.progress": {
        const e = entrant(ev.player);
        if (e) {
          if (!DONE(e.status) && DONE(ev.status)) {
            finishedAt.set(ev.player, serverNow());
            howDone(ev.player);
          }
          Object.assign(e, { moves: ev.moves, score: ev.score, cards: ev.cards, status: ev.status });
        }
        break;
      }
      case "race.ended":
        Object.assign(race, { state: "ended", seed: ev.seed });
        for (const r of ev.ranking) {
          const e = entrant(r.player);
          if (e) Object.assign(e, r);
          if (r.finished_at) finishedAt.set(r.player, r.finished_at);
        }
        showResults({ race: raceId, seed: ev.seed, commitment: race.commitment, ranking: ev.ranking });
        break;
      case "race.rematched":
        Object.assign(race, { rematch: ev.rematch, rematch_by: ev.by?.id });
        end.asked(ev);
        break;
    }
    ownSession();
    draw();
  }

  async function refresh() {
    try {
      const s = await net.rest("GET", `/races/${encodeURIComponent(raceId)}`);
      if (closed) return;
      seq = Math.min(seq, s.seq); // accept it even if it does not move us forward
      race = null;
      applySummary(s);
    } catch (e) {
      fail(e);
    }
  }

  // Whether an entrant who is done resigned: race.progress says only "lost", the summary says
  // which (for the track's mark).
  async function howDone(pid) {
    try {
      const s = await net.rest("GET", `/races/${encodeURIComponent(raceId)}`);
      const e = entrant(pid);
      const now = s.entrants.find((x) => x.player === pid);
      if (closed || !e || !now) return;
      e.resigned = Boolean(now.resigned);
      draw();
    } catch { /* the mark waits for the results */ }
  }

  async function loadResults() {
    try {
      const r = await net.rest("GET", `/races/${encodeURIComponent(raceId)}/results`);
      if (!closed && !results) showResults(r);
    } catch (e) {
      fail(e);
    }
  }

  // The player's own game: mounted from the pushed `session`, or read with session.get if the
  // race runs and that push came before this page was listening.
  function ownSession() {
    const mine = entrant(me());
    if (!race || race.state === "open" || !mine?.session || sessionId) return;
    sessionId = mine.session;
    net.request({ type: "session.get", session: sessionId }).then(showSession, fail);
  }

  function showSession(payload) {
    if (closed || payload.race !== raceId) return;
    sessionId = payload.session;
    if (!session) {
      deck = deckSize(payload.view);
      board.replaceChildren();
      // The game's timer runs from the race's start (server time, on this browser's clock).
      const startedAt = race?.starts_at ? race.starts_at - (serverNow() - Date.now()) : undefined;
      session = mountSession(board, ctx, payload, { undo: true, resign: true, startedAt });
    } else {
      session.update(payload);
    }
  }

  // ---- drawing ----

  function draw() {
    if (!race) return;
    const mine = entrant(me());
    title.textContent = `${race.name} race`;
    badge.textContent = race.state;
    badge.dataset.state = race.state;
    page.dataset.state = race.state;
    const creator = entrant(race.creator)?.name;
    meta.textContent = [race.variant, `${race.entrants.length}/${race.seats} seats`,
      `${Math.round(race.time_limit / 60 * 10) / 10} min`, `countdown ${race.countdown} s`,
      race.start === "manual" ? "the creator starts it" : "starts when full",
      creator ? `created by ${creator}` : null,
      race.bot ? `against ${race.bot.name} (${race.bot.strength})` : null].filter(Boolean).join(" · ");
    commitment.replaceChildren(h("span", { text: "Seed commitment (SHA-256): " }),
      h("code", { text: race.commitment }));

    const buttons = [];
    if (race.state === "open") {
      if (!mine && race.entrants.length < race.seats) {
        buttons.push(h("button.primary", { type: "button", "data-act": "join", text: "Join race", onclick: act("race.join") }));
      }
      if (mine) buttons.push(h("button", { type: "button", "data-act": "leave", text: "Leave", onclick: act("race.leave") }));
      if (race.creator === me() && race.entrants.length >= 2) {
        buttons.push(h("button.primary", { type: "button", "data-act": "start", text: "Start now", onclick: act("race.start") }));
      }
    }
    actions.replaceChildren(...buttons);
    if (!mine && race.state !== "open") {
      board.replaceChildren(h("p.watching", { text: "You are watching this race." }));
    } else if (race.state === "open") {
      board.replaceChildren(h("p.waiting", {
        text: mine ? `Waiting for players (${race.entrants.length}/${race.seats})…`
          : race.entrants.length < race.seats ? "Join to race this deal." : "The race is full.",
      }));
    }

    const rows = [...race.entrants].sort((a, b) => (b.player === me()) - (a.player === me()));
    progress.replaceChildren(...rows.map((e) => h(`tr${e.player === me() ? ".me" : ""}`,
      { "data-player": e.player, "data-status": e.status || "waiting" },
      h("th", { scope: "row", text: e.player === me() ? `${e.name} (you)` : e.name },
        e.kind === "bot" ? h("span.kind", { text: " bot" }) : null),
      h("td.moves", { text: e.moves ?? "—" }),
      h("td.score", { text: e.score ?? "—" }),
      h("td.cards", { text: e.cards ?? "—" }),
      h("td.status", { text: e.status || "waiting" }))));

    const done = race.entrants.filter((e) => DONE(e.status) && race.state !== "open")
      .sort((a, b) => (finishedAt.get(a.player) ?? Infinity) - (finishedAt.get(b.player) ?? Infinity));
    finish.replaceChildren(...done.map((e) => h("li", { "data-player": e.player },
      `${e.name} — ${e.status}, score ${e.score}`,
      race.starts_at && finishedAt.has(e.player)
        ? ` (${duration(finishedAt.get(e.player) - race.starts_at)})` : "")));
    if (!done.length) finish.replaceChildren(h("li.none", { text: "Nobody has finished yet." }));
    track.update(race, me(), deck);
    end.update(race);
    tick();
  }

  // The countdown before the first move, then the time left.
  function tick() {
    if (!race) return;
    const now = serverNow();
    let text = "";
    cover.hidden = true;
    if (race.state === "open") text = "The race has not started.";
    else if (race.state === "ended") text = "The race is over.";
    else if (race.starts_at && now < race.starts_at) {
      text = `Starts in ${Math.ceil((race.starts_at - now) / 1000)} s`;
      if (entrant(me())) {
        cover.hidden = false;
        cover.textContent = String(Math.ceil((race.starts_at - now) / 1000));
      }
    } else if (race.ends_at) text = `Time left ${clock(race.ends_at - now)}`;
    status.textContent = text;
    status.dataset.phase = race.state === "running" && now < race.starts_at ? "countdown" : race.state;
  }

  function showResults(r) {
    results = r;
    const names = new Map(race?.entrants.map((e) => [e.player, e.name]));
    resultsBox.hidden = false;
    resultsBox.replaceChildren(
      h("h2", { text: "Results" }),
      h("table.ranking", {},
        h("thead", {}, h("tr", {}, ["Rank", "Player", "Status", "Score", "Moves", "Time"].map(
          (t) => h("th", { scope: "col", text: t })))),
        h("tbody", {}, r.ranking.map((e) => h(`tr${e.player === me() ? ".me" : ""}`, { "data-player": e.player },
          h("td.rank", { text: e.rank }),
          h("th", { scope: "row", text: e.name || names.get(e.player) || e.player },
            e.kind === "bot" ? h("span.kind", { text: " bot" }) : null),
          h("td", { text: e.status }), h("td", { text: e.score }), h("td", { text: e.moves }),
          h("td", { text: duration(e.time_ms) }))))),
      fairnessProof({ seed: r.seed, commitment: r.commitment || race?.commitment, what: "race",
        replay: `#/replay/race/${raceId}` }));
    draw();
  }

  // ---- wiring ----

  const offs = [
    net.on("race", (m) => { if (m.race === raceId) applySummary(m); }),
    ...["race.joined", "race.left", "race.started", "race.progress", "race.ended", "race.rematched"].map(
      (t) => net.on(t, (m) => { if (m.race === raceId) applyEvent(m); })),
    net.on("session", (m) => { if (m.race === raceId) showSession(m); }),
  ];
  timer = setInterval(tick, 250);
  syncClock(net).then(tick);
  net.follow("race", raceId);
  try {
    applySummary(await net.rest("GET", `/races/${encodeURIComponent(raceId)}`));
  } catch (e) {
    fail(e);
  }

  return () => {
    closed = true;
    clearInterval(timer);
    offs.forEach((off) => off());
    net.unfollow("race", raceId);
    session?.destroy();
  };
}
