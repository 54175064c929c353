// Arenas (docs/protocol.md#arenas): #/arenas lists the upcoming and running ones; #/arena/{id}
// is one arena: join or leave, the round under way (the race page of its race, mounted here, so
// the player plays it on this page), the live arena board (board.subscribe to arena/{id}), and
// the winner at the end. The page follows the arena (arena.subscribe, sent again after every
// reconnect by the connection), so each new round replaces the last as it is dealt.

import * as race from "./race.js";
import { h, errorText } from "./dom.js";
import { clock, serverNow } from "./time.js";
import { formatNote } from "./fairplay.js";

const STATE_WORDS = {
  scheduled: "scheduled", running: "running", ended: "ended", cancelled: "cancelled",
};

function minutes(seconds) {
  return seconds % 60 ? `${seconds} s` : `${seconds / 60} min`;
}

function players(n) {
  return `${n} player${n === 1 ? "" : "s"}`;
}

function when(ms) {
  return new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

function timings(a) {
  const rounds = Math.max(1, Math.floor(a.duration / a.interval));
  const again = a.repeat ? `, again every ${minutes(a.repeat)}` : "";
  return `A new deal every ${minutes(a.interval)}, ${rounds} rounds${again}.`;
}

// ---- #/arenas ----

export async function mount(root, ctx, params) {
  if (params.id) return mountArena(root, ctx, params.id);
  const list = h("ul.arena-list");
  const error = h("p.live-error", { role: "alert" });
  root.append(h("section.arenas", {},
    h("h1", { text: "Arenas" }),
    h("p", { text: "Scheduled events: a new deal every few minutes, everyone in the arena " +
      "plays it, points for each finish, and the most points win." }),
    error, list));
  try {
    const { arenas } = await ctx.net.rest("GET", "/arenas");
    list.replaceChildren(...arenas.map((a) => h("li.arena-item", { "data-arena": a.arena },
      h("a", { href: `#/arena/${a.arena}`, text: a.name }),
      ` · ${ctx.ruleSet(a.game, a.variant)?.name ?? a.game} · ${STATE_WORDS[a.state] ?? a.state}` +
      ` · ${a.state === "scheduled" ? `starts ${when(a.starts_at)}` : `ends ${when(a.ends_at)}`}` +
      ` · ${players(a.players.length)}`)));
    if (!arenas.length) list.replaceChildren(h("li", { text: "No arena is scheduled right now." }));
  } catch (e) {
    error.textContent = errorText(e);
  }
  return null;
}

// ---- #/arena/{id} ----

async function mountArena(root, ctx, id) {
  const { net } = ctx;
  let arena = null;
  let roundRace = null; // the race mounted below
  let roundCleanup = null;
  let closed = false;

  const title = h("h1", { text: "Arena" });
  const badge = h("span.badge.arena-state", { text: "…" });
  const meta = h("p.live-meta");
  const status = h("p.arena-status", { role: "status", "aria-live": "polite" });
  const winner = h("p.arena-winner", { hidden: true });
  const error = h("p.live-error", { role: "alert" });
  const join = h("button", { type: "button", "data-act": "arena-join", text: "Join the arena" });
  const leave = h("button", { type: "button", "data-act": "arena-leave", text: "Leave", hidden: true });
  const rows = h("tbody");
  const roundBox = h("div.arena-round");
  root.append(h("section.live.arena", { "data-arena": id },
    h("header.live-head", {}, title, badge), meta, status, winner, error,
    h("div.actions", {}, join, leave),
    h("div.arena-main", {},
      roundBox,
      h("aside.arena-side", {},
        h("h2", { text: "Arena board" }),
        formatNote("live"),
        h("table.arena-board", {},
          h("thead", {}, h("tr", {}, ["#", "Player", "Points", "Rounds"].map(
            (t) => h("th", { scope: "col", text: t })))),
          rows)))));

  const me = () => ctx.player?.id ?? net.player?.id;
  const fail = (e) => { error.textContent = errorText(e); };

  function apply(a) {
    if (!a || a.arena !== id || closed) return;
    arena = a;
    title.textContent = a.name;
    badge.textContent = STATE_WORDS[a.state] ?? a.state;
    badge.dataset.state = a.state;
    const rs = ctx.ruleSet(a.game, a.variant);
    meta.textContent = `${rs?.name ?? a.game} · ${timings(a)} ${players(a.players.length)}.`;
    const joined = a.players.some((p) => p.player === me());
    const over = a.state === "ended" || a.state === "cancelled";
    join.hidden = joined || over;
    leave.hidden = !joined || over;
    showStatus();
    if (a.winner !== undefined && over) showWinner(a.winner, a.state === "cancelled");
    if (a.state === "running" && a.current && a.current !== roundRace) showRound(a.current, a.round);
  }

  function showStatus() {
    const a = arena;
    if (!a) return;
    const joined = a.players.some((p) => p.player === me());
    if (a.state === "scheduled") {
      status.textContent = `Starts in ${clock(a.starts_at - serverNow())}` +
        (joined ? ": you play every round." : ": join to play every round.");
    } else if (a.state === "running") {
      status.textContent = `Round ${a.round + 1} · ends in ${clock(a.ends_at - serverNow())}` +
        (joined ? "" : " · join to play from the next round");
    } else {
      status.textContent = a.state === "cancelled" ? "This arena was cancelled." : "This arena is over.";
    }
  }

  function showWinner(w, cancelled) {
    winner.hidden = false;
    winner.textContent = cancelled ? "Cancelled: no winner."
      : w ? `Winner: ${w.name} with ${w.points} points` : "Nobody played: no winner.";
  }

  async function showRound(raceId, n) {
    if (roundRace === raceId || closed) return;
    roundRace = raceId;
    try { roundCleanup?.(); } catch (e) { console.error(e); }
    roundCleanup = null;
    const box = h("div.arena-race", { "data-round": n, "data-race": raceId });
    roundBox.replaceChildren(h("h2", { text: `Round ${n + 1}` }), box);
    try {
      const done = await race.mount(box, ctx, { id: raceId, query: new URLSearchParams() });
      if (closed || roundRace !== raceId) done?.();
      else roundCleanup = typeof done === "function" ? done : null;
    } catch (e) {
      fail(e);
    }
  }

  function drawBoard(u) {
    rows.replaceChildren(...u.entries.map((e) => h("tr", { "data-player": e.player, class: e.player === me() ? "me" : null },
      h("td", { text: String(e.rank) }), h("td", { text: e.name ?? e.player }),
      h("td.points", { text: String(e.points ?? 0) }), h("td", { text: String(e.results ?? 0) }))));
  }

  const act = (type) => async () => {
    error.textContent = "";
    try {
      apply(await net.request({ type, arena: id }));
    } catch (e) {
      fail(e);
    }
  };
  join.addEventListener("click", act("arena.join"));
  leave.addEventListener("click", act("arena.leave"));

  const offs = [
    net.on("arena", apply),
    net.on("arena.round", (e) => {
      if (e.arena !== id || !arena) return;
      apply({ ...arena, state: "running", round: e.round, current: e.race });
    }),
    net.on("arena.ended", (e) => {
      if (e.arena !== id || !arena) return;
      arena = { ...arena, state: e.cancelled ? "cancelled" : "ended", winner: e.winner };
      apply(arena);
    }),
    net.on("board.update", (u) => { if (u.board === `arena/${id}`) drawBoard(u); }),
  ];
  net.follow("arena", id);
  const unwatch = net.watchBoard(`arena/${id}`, 20);
  const ticker = setInterval(showStatus, 1000);
  try {
    apply(await net.rest("GET", `/arenas/${id}`));
  } catch (e) {
    fail(e);
  }

  return () => {
    closed = true;
    clearInterval(ticker);
    for (const off of offs) off();
    net.unfollow("arena", id);
    unwatch();
    try { roundCleanup?.(); } catch (e) { console.error(e); }
  };
}
