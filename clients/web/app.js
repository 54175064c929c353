// The shell: who the player is (a token kept in localStorage), the catalog, the connection, and a
// hash router that mounts one page module at a time. Only the lobby is imported up front: every
// other page (and the board it brings) is fetched when the player first goes there, so the front
// door's first visit loads the front door's scripts and no more.

import { Connection, ServerError } from "./net.js";
import * as lobby from "./lobby.js";
import { guestName, markGuest, mountNameControl } from "./name.js";
import { mountChallenges } from "./challenge.js";
import { followSystem, mountLookControl } from "./look.js";

const TOKEN = "samedeal.token";
const NAME = "samedeal.name";
const PLAYER = "samedeal.player";

const app = document.getElementById("app");
const netEl = document.getElementById("net");
const nameEl = document.getElementById("player");

const STATE_TEXT = {
  connecting: "connecting…", online: "online", reconnecting: "reconnecting…", offline: "offline",
};

// Each page's module, loaded on first use (the browser keeps it for the next time).
const games = () => import("./games.js");
const practice = () => import("./practice.js");
const race = () => import("./race.js");
const daily = () => import("./daily.js");
const match = () => import("./match.js");
const replay = () => import("./replay.js");
const ghost = () => import("./ghost.js");
const leagues = () => import("./leagues.js");
const arenas = () => import("./arenas.js");

// [pattern, the page's module, names of the path parts]
const ROUTES = [
  [/^$/, () => lobby, []],
  [/^games$/, games, []],
  [/^play\/([^/]+)\/([^/]+)$/, practice, ["game", "variant"]],
  [/^race\/([^/]+)$/, race, ["id"]],
  [/^daily$/, daily, []],
  [/^daily\/([^/]+)$/, daily, ["day"]],
  [/^match\/([^/]+)$/, match, ["id"]],
  [/^replay\/(race|match|session)\/([^/]+)$/, replay, ["kind", "id"]],
  [/^ghost\/([^/]+)$/, ghost, ["id"]],
  [/^leagues$/, leagues, []],
  [/^league\/([^/]+)$/, leagues, ["id"]],
  [/^arenas$/, arenas, []],
  [/^arena\/([^/]+)$/, arenas, ["id"]],
];

function showNet(state) {
  netEl.textContent = STATE_TEXT[state] || state;
  netEl.dataset.state = state;
}

function message(text, cls = "notice") {
  const p = document.createElement("p");
  p.className = cls;
  p.textContent = text;
  return p;
}

async function register(name) {
  const res = await fetch("/api/v1/players", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, kind: "human" }),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new ServerError(data.code || "server.error", data.message || res.statusText, res.status);
  localStorage.setItem(TOKEN, data.token);
  localStorage.setItem(PLAYER, JSON.stringify(data.player));
  return data.player;
}

async function identify() {
  const token = localStorage.getItem(TOKEN);
  if (token) {
    const res = await fetch("/api/v1/players/me", { headers: { Authorization: `Bearer ${token}` } });
    if (res.ok) {
      const me = await res.json();
      const player = { id: me.id, name: me.name, kind: me.kind };
      localStorage.setItem(PLAYER, JSON.stringify(player));
      return player;
    }
    if (res.status !== 401) throw new ServerError("server.error", `the server answered ${res.status}`);
    localStorage.removeItem(TOKEN); // a token this server does not know: register again
  }
  // A preset name (the tests set one) registers silently as that name; anyone else plays at
  // once as a guest and chooses a name later (name.js).
  const preset = localStorage.getItem(NAME);
  if (preset) return register(preset);
  const player = await register(guestName());
  markGuest();
  return player;
}

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, "");
  const q = raw.indexOf("?");
  const path = (q < 0 ? raw : raw.slice(0, q)).replace(/\/$/, "");
  const query = new URLSearchParams(q < 0 ? "" : raw.slice(q + 1));
  return { path, query };
}

// A page's module; null, with a sentence and a way to retry in `root`, when it can't be fetched
// (the network gone). A module that failed stays failed for this document: retrying reloads.
async function loadPage(load, root) {
  const slow = setTimeout(() => root.append(message("Loading…")), 300);
  try {
    const mod = await load();
    root.replaceChildren();
    return mod;
  } catch (e) {
    console.error(e);
    const again = document.createElement("button");
    again.type = "button";
    again.textContent = "Try again";
    again.addEventListener("click", () => location.reload());
    root.replaceChildren(message("This page can't be loaded: the server can't be reached. "
      + "Check your connection and try again.", "error"), again);
    return null;
  } finally {
    clearTimeout(slow);
  }
}

let cleanup = null;
let generation = 0;

async function route(ctx) {
  const gen = ++generation;
  if (cleanup) {
    try { cleanup(); } catch (e) { console.error(e); }
    cleanup = null;
  }
  app.replaceChildren();
  const { path, query } = parseHash();
  const share = document.getElementById("share");
  if (share && share.dataset.for !== `#/${path}`) {
    share.replaceChildren(); // a share banner belongs to the race or match it links to
    share.hidden = true;
    delete share.dataset.for;
  }
  for (const [pattern, load, names] of ROUTES) {
    const m = pattern.exec(path);
    if (!m) continue;
    const params = { query };
    names.forEach((n, i) => { params[n] = decodeURIComponent(m[i + 1]); });
    const root = document.createElement("div");
    root.className = "page";
    app.append(root);
    const mod = await loadPage(load, root);
    if (!mod || gen !== generation) return; // not loaded, or the player has gone elsewhere
    try {
      const done = await mod.mount(root, ctx, params);
      if (gen !== generation) done?.();
      else cleanup = typeof done === "function" ? done : null;
    } catch (e) {
      console.error(e);
      if (gen === generation) root.append(message(e.message || String(e), "error"));
    }
    window.scrollTo(0, 0);
    return;
  }
  app.append(message("There is no such page."));
  const a = document.createElement("a");
  a.href = "#/";
  a.textContent = "Back to the lobby";
  app.append(a);
}

async function start() {
  followSystem(); // the theme before anything is drawn
  mountLookControl(document.getElementById("look"));
  showNet("connecting");
  let player;
  try {
    player = await identify();
  } catch (e) {
    showNet("offline"); // no connection will be made
    app.replaceChildren(message(e.status
      ? `You can't be signed in right now: ${e.message}` // answered, e.g. rate.limited
      : `The server can't be reached: ${e.message}`, "error"));
    return;
  }
  const net = new Connection({ token: localStorage.getItem(TOKEN) });
  net.on("net.state", showNet);
  net.on("net.auth", () => {
    // The server no longer knows this token: forget it and start over.
    localStorage.removeItem(TOKEN);
    location.reload();
  });
  const games = await net.rest("GET", "/games");
  const catalog = games.rule_sets;
  const ctx = {
    net,
    catalog,
    player,
    ruleSet(game, variant) {
      return catalog.find((r) => r.id === game && r.variant === variant) || null;
    },
  };
  window.samedeal = { net, ctx };
  mountNameControl(nameEl, ctx);
  mountChallenges(ctx); // challenges to you, on every page
  net.connect();
  window.addEventListener("hashchange", () => route(ctx));
  await route(ctx);
}

start();
