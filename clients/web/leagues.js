// Leagues (docs/protocol.md "Leagues"): #/leagues lists the player's leagues with the forms to
// create one and to join one by its invite code; #/league/{id} is one league: its code, its
// members (the owner's remove buttons), its week board and its daily board for one of today's
// deals, both followed live over the socket (board.subscribe), read over REST only while the
// socket is down.

import { h, kids, errorText } from "./dom.js";
import { easyFirst } from "./games.js";

export async function mount(root, ctx, params) {
  return params.id ? leaguePage(root, ctx, params.id) : listPage(root, ctx);
}

function form(cls, label, name, button, onsubmit) {
  const input = h("input", { name, required: true, maxlength: "32", autocomplete: "off" });
  const status = h("p.form-status", { role: "status" });
  const el = h(`form.card-panel.${cls}`, {},
    h("label", {}, label, " ", input), h("button.primary", { type: "submit", text: button }), status);
  el.addEventListener("submit", async (e) => {
    e.preventDefault();
    status.textContent = "";
    try {
      await onsubmit(input.value);
    } catch (err) {
      status.textContent = errorText(err);
    }
  });
  return el;
}

async function listPage(root, ctx) {
  const { net } = ctx;
  const list = h("ul.league-list");
  const open = (league) => { location.hash = `#/league/${encodeURIComponent(league.league)}`; };
  root.append(
    h("h2", { text: "Leagues" }),
    h("p", { text: "Private groups among friends: the same daily deals, ranked among yourselves, with weekly points and streaks." }),
    h("div.forms", {},
      form("create-league", "Name", "name", "Create a league",
        async (name) => open(await net.request({ type: "league.create", name }))),
      form("join-league", "Invite code", "code", "Join",
        async (code) => open(await net.request({ type: "league.join", code })))),
    h("h3", { text: "Your leagues" }), list);
  const { leagues } = await net.request({ type: "league.list" });
  list.replaceChildren(...(leagues.length ? leagues.map((l) => h("li", { "data-league": l.league },
    h("a", { href: `#/league/${encodeURIComponent(l.league)}`, text: l.name }),
    h("span.members", { text: ` · ${l.members} member${l.members === 1 ? "" : "s"}` })))
    : [h("li.notice", { text: "None yet: create one, or join one with a friend's code." })]));
}

async function leaguePage(root, ctx, id) {
  const { net } = ctx;
  const me = ctx.player?.id ?? net.player?.id;
  let closed = false;
  const unwatch = new Map(); // board name -> its unwatch function
  const offs = [];
  const head = h("div.league-head");
  const members = h("ul.league-members");
  const week = h("div.leaderboard.league-week");
  const dailyBoard = h("div.leaderboard.league-daily");
  const picker = h("select", { name: "deal", "aria-label": "today's deal" });
  root.append(h("p", {}, h("a", { href: "#/leagues", text: "← Leagues" })), head,
    h("h3", { text: "Members" }), members,
    h("h3", { text: "This week" }), week,
    h("h3", { text: "Today's board" }), h("label", {}, "Deal ", picker), dailyBoard);

  async function drawLeague() {
    const league = await net.request({ type: "league.get", league: id });
    if (closed) return;
    const owner = league.owner.id === me;
    head.replaceChildren(...kids(
      h("h2", { text: league.name }),
      h("p.league-code", {}, "Invite code: ", h("code", { text: league.code }),
        owner ? h("button", { type: "button", "data-act": "code", text: "New code", title: "the old code stops working",
          onclick: () => act({ type: "league.code", league: id }) }) : null),
      h("button", { type: "button", "data-act": "leave", text: owner ? "Close the league" : "Leave",
        onclick: async () => {
          if (await act({ type: "league.leave", league: id }, false)) location.hash = "#/leagues";
        } }),
      h("p.live-error", { role: "alert" })));
    members.replaceChildren(...league.members.map((m) => h("li", { "data-player": m.player },
      h("span", { text: m.player === me ? `${m.name} (you)` : m.name }),
      m.player === league.owner.id ? h("span.badge", { text: " owner" }) : null,
      owner && m.player !== me ? h("button", { type: "button", "data-act": "remove", text: "Remove",
        onclick: () => act({ type: "league.remove", league: id, player: m.player }) }) : null)));
  }

  async function act(msg, redraw = true) {
    try {
      await net.request(msg);
      if (redraw) await drawLeague();
      return true;
    } catch (e) {
      head.querySelector(".live-error")?.replaceChildren(errorText(e));
      return false;
    }
  }

  function table(cols, entries, row) {
    if (!entries.length) return h("p", { text: "No results yet." });
    return h("table.standings", {},
      h("thead", {}, h("tr", {}, cols.map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, entries.map((e) => h(`tr${e.player === me ? ".me" : ""}`, { "data-player": e.player, "data-rank": e.rank },
        h("td.rank", { text: e.rank }),
        h("th", { scope: "row", text: e.player === me ? `${e.name} (you)` : e.name }),
        row(e).map((t) => h("td", { text: t }))))));
  }

  // The week board lists every member: one not shown yet joined since (redraw the members).
  const drawWeek = (u) => {
    const shown = new Set([...members.querySelectorAll("li[data-player]")].map((li) => li.dataset.player));
    if (u.entries.some((e) => !shown.has(e.player))) drawLeague().catch(() => {});
    drawWeekTable(u);
  };
  const drawWeekTable = (u) => week.replaceChildren(table(["#", "Player", "Points", "Results", "Wins", "Firsts", "Streak"],
    u.entries, (e) => [e.points, e.results, e.wins, e.firsts, e.streak]));
  const drawDaily = (u) => dailyBoard.replaceChildren(table(["#", "Player", "Result", "Score", "Moves"],
    u.entries, (e) => [e.walked_away ? "walked away" : e.status, e.score, e.moves]));

  // Watched live; read over REST while the socket is down (and each time it goes down).
  function follow(name, draw, matches) {
    unwatch.get(name)?.();
    unwatch.set(name, net.watchBoard(name, 100));
    const read = async () => {
      try {
        const page = await net.rest("GET", `/boards/${name.split("/").map(encodeURIComponent).join("/")}?count=100`);
        if (!closed) draw(page);
      } catch { /* shown again when the socket is back */ }
    };
    if (net.state !== "online") read();
    return [net.on("board.update", (u) => { if (!closed && u.kind === "human" && matches(u.board)) draw(u); }),
      net.on("net.state", (state) => { if (state !== "online" && !closed) read(); })];
  }

  await drawLeague();
  offs.push(...follow(`league/${id}/weekly/current`, drawWeek, (b) => b.startsWith(`league/${id}/weekly/`)));
  const day = await net.request({ type: "daily.get" });
  const deals = (day.deals || []).slice().sort((a, b) => a.name.localeCompare(b.name) || easyFirst(a, b));
  picker.replaceChildren(...deals.map((d) => h("option", { value: `${d.game}/${d.variant}`, text: `${d.name} (${d.variant})` })));
  let dailyOffs = [];
  let current = null;
  function pick() {
    for (const off of dailyOffs) off();
    if (current) unwatch.get(current)?.();
    if (current) unwatch.delete(current);
    if (!picker.value) return;
    current = `league/${id}/daily/${day.day}/${picker.value}`;
    dailyBoard.replaceChildren(h("p", { text: "Loading…" }));
    dailyOffs = follow(current, drawDaily, (b) => b === current);
  }
  picker.addEventListener("change", pick);
  pick();
  return () => {
    closed = true;
    for (const off of [...offs, ...dailyOffs]) off();
    for (const stop of unwatch.values()) stop();
  };
}
