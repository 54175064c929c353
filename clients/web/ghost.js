// A ghost race's page (#/ghost/{id}; the lobby's section is ghost_lobby.js): enter, play your
// run on your own board while the earlier entrants' recorded runs move beside it
// (ghost.progress events: counts only, never a card), the ranking as it stands (the board
// ghost/<id>, published live), and once the ghost race is revealed the seed checked against its
// commitment and every run's transcript to replay.

import { h, errorText } from "./dom.js";
import { mountSession } from "./play.js";
import { progressTrack, deckSize } from "./track.js";
import { seedReveal } from "./seed.js";
import { duration, syncClock } from "./time.js";
import { formatNote } from "./fairplay.js";

const REFRESH_MS = 5000;

function rulesName(ctx, game, variant) {
  return `${ctx.ruleSet(game, variant)?.name ?? game} (${variant})`;
}

export async function mount(root, ctx, params) {
  const { net } = ctx;
  const gid = params.id;
  const me = () => ctx.player?.id ?? net.player?.id;
  let summary = null;
  let session = null;
  let deck = deckSize(null);
  const ghosts = new Map(); // player -> their latest step, as a track lane
  const track = progressTrack();

  const title = h("h1", { text: "Ghost race" });
  const badge = h("span.badge.ghost-state", { text: "…" });
  const meta = h("p.live-meta");
  const toBeat = h("p.ghost-to-beat");
  const commitment = h("p.commitment");
  const error = h("p.live-error", { role: "alert" });
  const enter = h("button.primary.enter-ghost", { type: "button", text: "Enter", hidden: true });
  const board = h("div.race-board.ghost-board");
  const ranking = h("tbody");
  const results = h("section.ghost-results", { hidden: true });
  root.append(h("section.live.ghost", { "data-ghost": gid },
    h("header.live-head", {}, title, badge), meta, toBeat, commitment, enter, error,
    h("div.race-main", {},
      h("div.race-play", {}, board),
      h("aside.race-side", {}, track.el,
        h("h2", { text: "Ranking" }),
        formatNote("open"),
        h("table.race-progress.ghost-ranking", {},
          h("thead", {}, h("tr", {}, ["Rank", "Player", "Status", "Score", "Moves", "Time"].map(
            (t) => h("th", { scope: "col", text: t })))),
          ranking))),
    results));

  function drawTrack() {
    const lanes = [...ghosts.values()];
    if (session) {
      const view = session.payload.view;
      lanes.unshift({ player: me(), name: ctx.player?.name ?? "you", status: view.status, score: view.score, moves: view.moves });
    }
    track.update({ entrants: lanes }, me(), deck);
  }

  function drawRanking(entries) {
    ranking.replaceChildren(...entries.map((e) => h(`tr${e.player === me() ? ".me" : ""}`, { "data-player": e.player },
      h("td", { text: String(e.rank) }), h("td", { text: e.name ?? e.player }),
      h("td", { text: e.resigned ? "resigned" : e.status ?? "" }), h("td", { text: String(e.score ?? "") }),
      h("td", { text: String(e.moves ?? "") }), h("td", { text: e.time_ms != null ? duration(e.time_ms) : "" }))));
  }

  function draw() {
    if (!summary) return;
    title.textContent = `Ghost race: ${rulesName(ctx, summary.game, summary.variant)}`;
    badge.textContent = summary.state;
    meta.textContent = `${summary.entrants} entered, ${summary.finished} finished; each run may last ${duration(summary.time_limit * 1000)}`;
    const best = summary.to_beat;
    toBeat.textContent = best ? `The ghost to beat: ${best.name}, ${best.status}, score ${best.score}` : "No run recorded yet: yours will be the ghost to beat.";
    commitment.textContent = `Deal commitment (SHA-256 of the seed): ${summary.commitment}`;
    enter.hidden = summary.state !== "open" || !!session;
    drawRanking(summary.ranking);
    if (summary.state === "revealed" && results.hidden) showResults();
  }

  function showResults() {
    results.hidden = false;
    results.replaceChildren(h("h2", { text: "Revealed" }), seedReveal(summary.seed, summary.commitment),
      h("ul.ghost-transcripts", {}, summary.transcripts.map((t) => h("li", {},
        h("a", { href: `#/replay/session/${t.session}`, text: `${t.name}: ${t.moves.length} moves, ${t.status}, score ${t.score}` })))));
  }

  async function refresh() {
    try {
      summary = await net.request({ type: "ghost.get", ghost: gid });
      draw();
    } catch (e) {
      error.textContent = errorText(e);
    }
  }

  async function play() {
    error.textContent = "";
    let entry;
    try {
      entry = await net.request({ type: "ghost.enter", ghost: gid });
    } catch (e) {
      error.textContent = errorText(e);
      return;
    }
    summary = entry.ghost;
    session?.destroy();
    deck = deckSize(entry.session.view);
    session = mountSession(board, ctx, entry.session, { undo: true, resign: true, onEnd: refresh });
    board.dataset.session = entry.session.session;
    drawTrack();
    draw();
  }

  const offs = [
    net.on("ghost.progress", (ev) => {
      if (ev.ghost !== gid) return;
      ghosts.set(ev.player, { player: ev.player, name: ev.name, status: ev.status, score: ev.score, moves: ev.moves, cards: ev.cards });
      drawTrack();
    }),
    net.on("board.update", (u) => {
      if (u.board !== `ghost/${gid}` || !summary) return;
      summary.ranking = u.entries;
      summary.to_beat = u.entries[0] ?? null;
      draw();
    }),
    // After a reconnect a run in progress is entered again: the server replays the ghosts anew.
    net.on("net.resumed", () => {
      if (session?.payload.view.status === "playing") play();
      else refresh();
    }),
    net.watchBoard(`ghost/${gid}`, 100),
  ];
  enter.addEventListener("click", play);
  await syncClock(net);
  await refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  const own = setInterval(() => { if (session) drawTrack(); }, 500); // your own lane
  return () => {
    clearInterval(timer);
    clearInterval(own);
    for (const off of offs) off();
    session?.destroy();
  };
}
