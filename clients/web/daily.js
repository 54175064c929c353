// The daily challenge (#/daily, optionally ?game=&variant=, and &start=ranked from the front
// door): today's deals grouped by game, the ranked attempt (after a warning that its clock
// starts with the first card), its result in place of the offer once played, unranked
// replays, a deal's commitment on its own view, the day's leaderboard for a game with the
// player's own row, published live over the socket (board.subscribe), and streaks.

import { mountSession } from "./play.js";
import { h, errorText, kids } from "./dom.js";
import { clock, duration, serverNow, syncClock } from "./time.js";
import { seedReveal } from "./seed.js";
import { dailyRecord } from "./daily_record.js";
import { nameOffer } from "./name.js";
import { dealsTable, resultText } from "./daily_list.js";
import { boardPar, movesText, winnableNote } from "./winnable.js";
import { formatNote } from "./fairplay.js";
import { liveBox } from "./daily_live.js";

const PAGE = 10; // leaderboard rows per page

// A random id this browser keeps and sends with a ranked start: the server keeps only a keyed
// hash of it, to tell two accounts played from one browser (docs/daily.md, Integrity signal).
function installId() {
  try {
    let id = localStorage.getItem("samedeal.install");
    if (!id) {
      id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem("samedeal.install", id);
    }
    return id;
  } catch {
    return undefined; // no storage: no install id
  }
}

export async function mount(root, ctx, params) {
  const { net } = ctx;
  let day = null;
  let picked = null; // {game, variant, name, commitment, seed?}
  let attempts = null; // dailyRecord of the player's ranked attempts today (daily_record.js)
  let session = null;
  let timer = null;
  let closed = false;
  let live = null; // the live edition's box (daily_live.js), today only

  const title = h("h1", { text: "Daily challenge" });
  const when = h("p.daily-when", { role: "status" });
  const days = h("nav.daily-days", { "aria-label": "other days" });
  const streaks = h("div.streaks");
  const error = h("p.live-error", { role: "alert" });
  const filter = h("input.daily-filter", { type: "search", placeholder: "Find a game", "aria-label": "find a game" });
  const list = h("div.daily-deals-host");
  const detail = h("section.daily-game", {},
    h("p.notice", { text: "Pick a deal: its commitment, your ranked attempt and its leaderboard show here." }));
  const page = h("section.live.daily", {},
    h("header.live-head", {}, title, days), when, streaks, error,
    h("div.daily-main", {},
      h("div.daily-list", {}, filter, list),
      detail));
  root.append(page);

  const fail = (e) => { error.textContent = errorText(e); };

  // ---- the day and its deals ----

  async function loadDay() {
    day = await net.request(params.day ? { type: "daily.get", day: params.day } : { type: "daily.get" });
    attempts = day.state === "open" ? dailyRecord(ctx.player?.id ?? net.player?.id, day.day) : null;
    title.textContent = `Daily challenge — ${day.day}`;
    const shift = (n) => new Date(Date.parse(`${day.day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    days.replaceChildren(...kids(
      h("a", { href: `#/daily/${shift(-1)}`, text: `‹ ${shift(-1)}` }),
      day.state !== "open" ? h("a", { href: "#/daily", text: "Today" }) : null));
    drawDeals();
    tick();
    if (!live && !closed) {
      live = liveBox(ctx, day);
      if (live) streaks.after(live.node);
    }
  }

  function tick() {
    if (!day) return;
    const now = serverNow();
    const due = `${new Date(day.reveal_due).toISOString().slice(0, 16).replace("T", " ")} UTC`;
    when.textContent = day.waiting
      ? "Today's deals wait for the public randomness beacon's round; they open as soon as it is published."
      : day.state === "open"
        ? `Open for ranked attempts for another ${clock(day.closes_at - now)} (until 24:00 UTC); attempts in progress may finish until ${new Date(day.deadline).toISOString().slice(11, 16)} UTC.`
        : day.state === "revealed"
          ? "This day is over and its seeds are revealed: replay any deal unranked, and check each seed against its commitment (samedeal verify-day)."
          : day.overdue
            ? `The reveal of this day's seeds is overdue: it was due at ${due}.`
            : `This day is closed; its seeds are revealed once its last attempts have ended, by ${due}.`;
  }

  function drawDeals() {
    const q = filter.value.trim().toLowerCase();
    const deals = day.deals.filter((d) => !q || `${d.name} ${d.game} ${d.variant}`.toLowerCase().includes(q));
    list.replaceChildren(dealsTable(deals, {
      open: day.state === "open", picked, mine: attempts || { played: () => null }, pick,
    }));
  }
  filter.addEventListener("input", () => day && drawDeals());

  async function loadStreaks() {
    const me = await net.rest("GET", "/players/me");
    const s = me.streaks || {};
    const item = (label, v) => h("div.streak", {}, h("span.streak-label", { text: label }),
      h("strong.streak-days", { text: `${v?.days ?? 0} day${v?.days === 1 ? "" : "s"}` }),
      h("span.streak-best", { text: ` best ${v?.best ?? 0}` }));
    streaks.replaceChildren(h("h2", { text: "Your streaks" }),
      item("Played", s.played), item("Won", s.won));
  }

  // ---- one game: the attempt and its leaderboard ----

  // A deal's own view: its commitment (and seed once revealed), the player's result or the
  // ranked offer, the unranked replay, and its leaderboard. what: "board", "ranked" (the
  // warning first) or "start" (from the front door, whose button carried the warning). From
  // the front door the attempt comes first: its area at the top of the page, scrolled there,
  // and the rest of the page below it, so the board is in view when its clock starts.
  function pick(d, what) {
    session?.destroy();
    session = null;
    picked = d;
    history.replaceState(null, "", `#/daily${params.day ? `/${params.day}` : ""}?game=${encodeURIComponent(d.game)}&variant=${encodeURIComponent(d.variant)}`);
    drawDeals();
    const play = h("div.daily-play");
    const board = h("div.leaderboard");
    const actions = h("div.actions");
    const result = h("p.daily-result", { role: "status" });
    const view = { d, play, board, actions, result };
    detail.hidden = false;
    detail.dataset.game = d.game;
    detail.dataset.variant = d.variant;
    detail.replaceChildren(...kids(
      h("h2", { text: `${d.name} (${d.variant})` }),
      h("p.commitment", {}, "The deal's commitment (SHA-256 of its seed, published before play): ",
        h("code", { text: d.commitment ?? (d.pending ? "being chosen" : "waiting for the beacon") })),
      d.seed ? seedReveal(d.seed, d.commitment) : null,
      winnableNote(d),
      result, actions, play, board));
    drawActions(view);
    showBoard(view);
    if (what === "ranked" && offersRanked(d)) warn(view);
    page.classList.toggle("focus", what === "start");
    if (what !== "start") {
      detail.scrollIntoView?.({ block: "nearest" });
      return;
    }
    window.scrollTo(0, 0);
    // From the front door: straight in once the view is laid out, unless the attempt would not
    // rank (then the warning says so and why, and the clock waits for the player).
    if (offersRanked(d)) requestAnimationFrame(() => (ranks(d) ? begin(view) : warn(view)));
  }

  function offersRanked(d) {
    return day.state === "open" && Boolean(d.commitment) && !attempts?.played(d.game, d.variant);
  }

  // Whether the player's attempt at d goes on the boards (the day's page says, per player).
  function ranks(d) {
    return d.you?.ranked !== false;
  }

  const REVIEW = {
    pending: "Your result is waiting for a moderator's review: it is off the boards until then.",
    cleared: "Your result was reviewed and cleared: it is on the boards.",
    removed: "Your result was reviewed and removed from the boards.",
  };

  // The deal's actions: the ranked attempt until it is played (resume while it runs), then
  // the player's result in its place; the unranked replay and practice always.
  function drawActions(view) {
    const { d, play, actions, result } = view;
    const done = attempts?.played(d.game, d.variant);
    result.textContent = [done && done.status !== "playing" ? `Your ranked attempt: ${resultText(done)}.` : "",
      REVIEW[d.you?.review] ?? ""].filter(Boolean).join(" ");
    actions.replaceChildren(...kids(
      offersRanked(d) ? h("button.primary", { type: "button", "data-act": "ranked", text: "Ranked attempt", onclick: () => warn(view) }) : null,
      done?.status === "playing" && !session ? h("button.primary", { type: "button", "data-act": "resume", text: "Resume my attempt", onclick: () => begin(view) }) : null,
      h("button", { type: "button", "data-act": "replay", text: "Practice replay (unranked)", onclick: () => replay(d, play) }),
      h("a.practice-link", { href: `#/play/${encodeURIComponent(d.game)}/${encodeURIComponent(d.variant)}`, text: `Practise ${d.name} on another deal` })));
  }

  // The warning first: the attempt's clock starts the moment its first card shows.
  function warn(view) {
    const { play } = view;
    const go = h("button.primary", { type: "button", "data-act": "confirm", text: "Deal — start my clock" });
    const cancel = h("button", { type: "button", "data-act": "cancel", text: "Not now" });
    const { d } = view;
    const box = h("div.daily-confirm", { role: "alertdialog", "aria-label": "start the ranked attempt" },
      ranks(d) ? null : h("p.unranked-note", { "data-unranked": "" },
        h("strong", { text: "This attempt will not go on the boards" }),
        `: ${d.you.unranked_reason}.`),
      h("p", {}, h("strong", { text: "Your ranked attempt starts when the first card shows" }),
        ", and its clock runs from then, even if you leave the page: walking away counts as finishing with the score reached."),
      h("p", { text: "You get one ranked attempt at this deal today. Moves that show a card can't be undone. If you already started, this resumes it." }),
      h("div.actions", {}, go, cancel));
    play.replaceChildren(box);
    cancel.addEventListener("click", () => play.replaceChildren());
    go.addEventListener("click", () => {
      go.disabled = true;
      begin(view);
    });
    go.focus();
  }

  // Start (or resume) the ranked attempt; a refusal because it was played (in another browser,
  // say) marks the deal played here too.
  async function begin(view) {
    const { d, play } = view;
    try {
      const install = installId();
      const s = await net.request({ type: "daily.start", game: d.game, variant: d.variant, ...(install ? { install } : {}) });
      if (s.view.status === "playing") attempts?.note(d.game, d.variant, { session: s.session, status: "playing" });
      await mountAttempt(play, s, view);
    } catch (e) {
      const known = attempts?.played(d.game, d.variant);
      if (e.code === "daily.played" && (!known || known.status === "playing")) {
        attempts?.note(d.game, d.variant, { status: "played" }); // its result is on the board
      }
      play.replaceChildren(h("p.refusal-note", { role: "alert", text: e.code === "daily.played"
        ? "You have played today's ranked attempt at this deal; the leaderboard is below, and its unranked replay opens when the day's seeds are revealed."
        : errorText(e) }));
    }
    drawActions(view);
    drawDeals();
  }

  async function replay(d, play) {
    try {
      const s = await net.request({ type: "daily.start", game: d.game, variant: d.variant, ranked: false, day: day.day });
      mountAttempt(play, s, null, [{ label: "Play again", onClick: () => replay(d, play),
        className: "play-again primary" }]);
    } catch (e) {
      play.replaceChildren(h("p.refusal-note", { role: "alert", text: e.code === "daily.not_revealed"
        ? "The unranked replay opens for everyone once the day's seeds are revealed, after the day's deadline."
        : errorText(e) }));
    }
  }

  // view: the deal's view for a ranked attempt, null for an unranked replay; overActions: the
  // end screen's buttons.
  async function mountAttempt(play, s, view, overActions = []) {
    session?.destroy();
    session = null;
    // The clock runs from when the first card was shown (server time), also on a resumed attempt.
    let startedAt;
    try {
      const t = await net.rest("GET", `/sessions/${encodeURIComponent(s.session)}/moves`);
      startedAt = t.created - (serverNow() - Date.now());
    } catch { /* the timer then counts from now */ }
    if (closed) return;
    const mode = h("p.daily-mode", { "data-mode": s.mode,
      text: s.mode !== "daily" ? "Unranked replay: practice, not on any board."
        : s.unranked_reason ? `Ranked rules, off the boards: ${s.unranked_reason}.` : "Ranked attempt: the clock is running." });
    play.replaceChildren(mode);
    const area = h("div.daily-session");
    play.append(area);
    let ended = false;
    session = mountSession(area, ctx, s, {
      undo: true, resign: true, startedAt, overActions,
      onEnd: (end) => {
        if (ended) return;
        ended = true;
        if (view) {
          const v = end?.view || {};
          attempts?.note(view.d.game, view.d.variant, { status: v.status, score: v.score });
          mode.dataset.over = "";
          // Its result (and rank, once on the board) is the line above.
          mode.textContent = "Your ranked attempt is over."
            + (s.unranked_reason ? " It is off the boards (an account made today)." : "");
          drawActions(view);
          drawDeals();
          if (net.state !== "online") readBoard(view, `daily/${day.day}/${view.d.game}/${view.d.variant}`);
        }
        const offer = nameOffer(ctx);
        if (offer) play.prepend(offer);
        loadStreaks().catch(() => {});
      },
    });
  }

  // The day's board for a game, their row marked: watched live over the socket
  // (board.subscribe), redrawn on each board.update (the top page and the player's own row);
  // read over REST (the top page and the page around the player) only while the socket is
  // down, and again each time it goes down.
  let unwatch = null;
  let offBoard = [];
  function stopBoard() {
    unwatch?.();
    unwatch = null;
    for (const off of offBoard) off();
    offBoard = [];
  }

  function showBoard(view) {
    const { d, board: el } = view;
    const name = `daily/${day.day}/${d.game}/${d.variant}`;
    stopBoard();
    const shown = () => !closed && picked === d;
    offBoard = [
      net.on("board.update", (u) => {
        if (u.board === name && u.kind === "human" && shown()) drawBoard(view, u, u.you, null);
      }),
      net.on("net.state", (state) => {
        if (state !== "online" && shown()) readBoard(view, name);
      }),
    ];
    unwatch = net.watchBoard(name, PAGE);
    if (net.state !== "online") readBoard(view, name);
  }

  // The fallback while the socket is down: the board over REST.
  async function readBoard(view, name) {
    const { d, board: el } = view;
    const path = `/boards/${name.split("/").map(encodeURIComponent).join("/")}?count=${PAGE}`;
    let top;
    let around = null;
    try {
      top = await net.rest("GET", path);
      around = await net.rest("GET", `${path}&around=me`).catch((e) => {
        if (e.code === "board.absent") return null;
        throw e;
      });
    } catch (e) {
      if (closed || picked !== d) return;
      const again = h("button", { type: "button", "data-act": "refresh", text: "Try again", onclick: () => readBoard(view, name) });
      el.replaceChildren(h("h3", { text: "Leaderboard" }), h("p.live-error", { role: "alert", text: errorText(e) }), again);
      return;
    }
    if (closed || picked !== d) return;
    const me = ctx.player?.id ?? net.player?.id;
    drawBoard(view, top, around?.entries.find((e) => e.player === me) ?? null, around?.entries ?? null);
  }

  // top: {total, entries}; mine: the player's own row or null; around: the page around the
  // player (REST), or null: their own row alone stands for it.
  function drawBoard(view, top, mine, around) {
    const { d, board: el } = view;
    const me = ctx.player?.id ?? net.player?.id;
    const table = (entries) => h("table.standings", {},
      h("thead", {}, h("tr", {}, ["#", "Player", "Result", "Score", "Time", "Moves", ""].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, entries.map((e) => h(`tr${e.player === me ? ".me" : ""}`, { "data-player": e.player, "data-rank": e.rank },
        h("td.rank", { text: e.rank }),
        h("th", { scope: "row", text: e.player === me ? `${e.name} (you)` : e.name }),
        h("td", { text: e.walked_away ? "walked away" : e.status }),
        h("td", { text: e.score }),
        h("td", { text: duration(e.time_ms) }),
        h("td", { text: movesText(e) }),
        h("td", {}, e.session && (e.player === me || day.state === "revealed")
          ? h("a.replay-link", { href: `#/replay/session/${e.session}`, text: "replay" }) : null)))));
    const overlap = mine && top.entries.some((e) => e.player === me);
    if (mine && day.state === "open" && picked === d) {
      // On the board: the attempt is over, whichever browser played it.
      const known = attempts?.played(d.game, d.variant);
      if (!known || known.status === "playing" || known.rank !== mine.rank || known.total !== top.total) {
        attempts?.note(d.game, d.variant, { status: mine.status, score: mine.score, rank: mine.rank, total: top.total });
        drawActions(view);
        drawDeals();
      }
    }
    el.replaceChildren(...kids(
      h("h3", { text: `Leaderboard — ${top.total} player${top.total === 1 ? "" : "s"}` }),
      h("p.board-position", { "data-rank": mine?.rank ?? "" , text: mine
        ? `Your position: ${mine.rank} of ${top.total}.`
        : "You have no result on this board yet." }),
      formatNote(top.format),
      boardPar(top),
      top.entries.length ? table(top.entries) : h("p", { text: "No results yet today." }),
      mine && !overlap ? [h("h4", { text: "Around you" }), table(around ?? [mine])] : null));
  }

  // Attempts this browser last saw running: read again, as they may have ended since (walked
  // away, or finished in another tab).
  async function refreshPlaying() {
    for (const d of day.deals) {
      const known = attempts?.played(d.game, d.variant);
      if (known?.status !== "playing" || !known.session || (session && picked === d)) continue;
      try {
        const s = await net.request({ type: "session.get", session: known.session });
        if (closed || s.view.status === "playing") continue;
        attempts.note(d.game, d.variant, { status: s.view.status, score: s.view.score });
        drawDeals();
      } catch { /* left as it was */ }
    }
  }

  // ---- wiring ----

  timer = setInterval(tick, 1000);
  try {
    await syncClock(net);
    await loadDay();
    loadStreaks().catch(fail);
    const g = params.query?.get("game");
    const v = params.query?.get("variant");
    const d = day.deals.find((x) => x.game === g && (!v || x.variant === v));
    if (d) pick(d, params.query?.get("start") === "ranked" ? "start" : "board");
    refreshPlaying();
  } catch (e) {
    fail(e);
  }

  return () => {
    closed = true;
    clearInterval(timer);
    live?.destroy();
    stopBoard();
    session?.destroy();
  };
}
