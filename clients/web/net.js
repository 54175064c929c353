// The connection to the server: REST calls and the one WebSocket (JSON, protocol v2), with
// requests matched to replies by id, pushed messages to listeners, and reconnection that
// resumes followed races and matches from the last event seen (and boards watched live). A v2 ack's changes are applied
// to the session it follows (acks.js), so pages get whole session payloads as in v1.

import { applyAck, ownProgress } from "./acks.js";

const API = "/api/v1";
const FIRST_DELAY = 250;
const MAX_DELAY = 5000;
// A dead network shows within a few seconds: a ping every few seconds, and a socket that has
// said nothing for longer (not even a pong) is dropped and reconnected. A request waiting for
// its reply asks sooner: a ping after ASK_AFTER, dropped when nothing at all has come back
// GIVE_UP_AFTER after it was sent (its page then reads the session again, see play.js).
const PING_EVERY = 4000;
const SILENT_FOR = 7000;
const ASK_AFTER = 1500;
const GIVE_UP_AFTER = 4000;
// v2 first; a server that only speaks v1 picks samedeal.json, whose acks are whole.
const PROTOCOLS = ["samedeal.v2.json", "samedeal.json"];
const KEPT_SESSIONS = 32; // sessions whose latest payload is kept for v2 acks

export class ServerError extends Error {
  constructor(code, message, status = 0) {
    super(message || code);
    this.name = "ServerError";
    this.code = code;
    this.status = status;
  }
}

export class Connection {
  constructor({ token = null, base = "" } = {}) {
    this.token = token;
    this.base = base;
    // connecting (never online yet) → online ⇄ reconnecting; offline: a first attempt that
    // failed (it keeps trying), or closed for good. Never "offline" while merely connecting.
    this.state = "connecting";
    this.player = null;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map(); // id -> {msg, resolve, reject, sent}
    this.listeners = new Map(); // type -> Set(fn)
    this.followed = new Map(); // "race:r…" -> {kind, id}
    this.boards = new Map(); // board name -> count: boards watched live (board.subscribe)
    this.seqs = new Map(); // "race:r…" -> last event seq seen
    this.sessions = new Map(); // session id -> its latest payload (what a v2 ack changes)
    this.closed = false;
    this.delay = FIRST_DELAY;
    this.everOnline = false;
    this.retryTimer = null;
    this.pingTimer = null;
    // The browser knows the network went (or came back) before any ping can tell.
    if (typeof window !== "undefined") {
      window.addEventListener("offline", () => this.drop());
      window.addEventListener("online", () => {
        if (!this.ws && !this.closed && this.everOnline) this._open();
      });
    }
  }

  // ---- REST ----

  async rest(method, path, body) {
    const headers = { Accept: "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const init = { method, headers };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(this.base + API + path, init);
    } catch (e) {
      throw new ServerError("net.lost", "the server can't be reached", 0);
    }
    const text = await res.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch { data = null; }
    if (!res.ok) {
      throw new ServerError(data?.code || "server.error", data?.message || res.statusText, res.status);
    }
    return data;
  }

  // ---- WebSocket ----

  connect() {
    this.closed = false;
    if (this.ws) return;
    this._setState(this.everOnline ? "reconnecting" : "connecting"); // until the welcome
    this._open();
  }

  _url() {
    if (this.base) return this.base.replace(/^http/, "ws") + API + "/ws";
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}${API}/ws`;
  }

  _open() {
    clearTimeout(this.retryTimer);
    let ws;
    try {
      ws = new WebSocket(this._url(), PROTOCOLS);
    } catch {
      this._lost(1006);
      return;
    }
    this.ws = ws;
    this.authed = false;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      ws.send(JSON.stringify({ type: "hello", token: this.token || "", id: "hello" }));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this._receive(msg);
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this._lost(ev.code);
    };
    ws.onerror = () => {}; // a close always follows
  }

  _receive(msg) {
    this.lastHeard = Date.now();
    if (msg.id === "hello") {
      if (msg.type === "welcome") this._welcomed(msg.player);
      else this._authFailed(msg);
      return;
    }
    if (msg.id === "ping") return;
    const waiting = msg.id !== undefined && msg.id !== null ? this.pending.get(msg.id) : null;
    if (waiting) {
      this.pending.delete(msg.id);
      this._noteSeq(msg, true);
      if (msg.type === "error") waiting.reject(new ServerError(msg.code, msg.message, 0));
      else if (msg.type === "ack") this._ack(msg, waiting);
      else waiting.resolve(this._keep(msg));
      return;
    }
    this._keep(msg);
    this._noteSeq(msg, false);
    this._emit(msg.type, msg);
    this._emit("*", msg);
  }

  // Keep a session payload (a reply or a push) when it is the newest of its session.
  _keep(msg) {
    if ((msg.type === "session" || msg.type === "ack") && typeof msg.session === "string") {
      const had = this.sessions.get(msg.session);
      if (!had || msg.rev >= had.rev) {
        this.sessions.delete(msg.session);
        this.sessions.set(msg.session, msg);
        if (this.sessions.size > KEPT_SESSIONS) this.sessions.delete(this.sessions.keys().next().value);
      }
    }
    return msg;
  }

  // A move's ack: made whole (v2), then in a followed race the mover's own race.progress,
  // which the ack stands in for, numbered as it says. An ack whose previous revision this
  // page never had is answered with the session read again.
  _ack(msg, waiting) {
    const before = this.sessions.get(msg.session);
    const whole = applyAck(before, msg);
    if (whole) waiting.resolve(this._keep(whole));
    else this.request({ type: "session.get", session: msg.session }).then(waiting.resolve, waiting.reject);
    // The session's race is its payload's word: an id is never cut apart for it.
    const key = before?.race && `race:${before.race}`;
    if (!key || typeof msg.seq !== "number" || !this.seqs.has(key)) return;
    if (msg.seq <= this.seqs.get(key)) return;
    this.seqs.set(key, msg.seq);
    if (!whole) return; // the race page sees a gap in the numbers and reads the race again
    const progress = ownProgress(whole, msg, this.player?.id);
    this._emit(progress.type, progress);
    this._emit("*", progress);
  }

  // Remember the last event number per race or match so a reconnect resumes after it. A reply that
  // seated us carries joined_seq: events after that one follow the reply, so resume from there.
  _noteSeq(msg, isReply) {
    const kind = msg.type.startsWith("race") ? "race" : msg.type.startsWith("match") ? "match" : null;
    if (!kind || typeof msg[kind] !== "string") return;
    const key = `${kind}:${msg[kind]}`;
    if (isReply) {
      if (typeof msg.joined_seq === "number") {
        this.seqs.set(key, Math.max(this.seqs.get(key) ?? 0, msg.joined_seq));
      }
      return;
    }
    if (typeof msg.seq !== "number") return;
    if (msg.type === kind) this.seqs.set(key, msg.seq); // a resync: the summary's seq is where events resume
    else this.seqs.set(key, Math.max(this.seqs.get(key) ?? 0, msg.seq));
  }

  _welcomed(player) {
    const resumed = this.everOnline;
    this.authed = true;
    this.everOnline = true;
    this.player = player;
    this.delay = FIRST_DELAY;
    this._setState("online");
    for (const { kind, id } of this.followed.values()) this._subscribe(kind, id);
    for (const [board, count] of this.boards) this._watchBoard(board, count);
    for (const [id, p] of this.pending) {
      if (!p.sent) this._send(id, p);
    }
    this._startPings();
    if (resumed) this._emit("net.resumed", player);
    this._emit("net.welcome", player);
  }

  _authFailed(msg) {
    // A token the server does not know (a reset store, a bad preset): reconnecting won't help.
    this._emit("net.auth", new ServerError(msg.code || "auth.invalid", msg.message, 401));
    this.close();
  }

  _lost(code) {
    const ws = this.ws;
    this.ws = null;
    this.authed = false;
    clearInterval(this.pingTimer);
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try { ws.close(); } catch { /* already closed */ }
    }
    for (const [id, p] of this.pending) {
      if (p.sent) {
        this.pending.delete(id);
        p.reject(new ServerError("net.lost", "the connection dropped before the reply", 0));
      }
    }
    if (this.closed) {
      this._setState("offline");
      return;
    }
    // Lost after a welcome: reconnecting. Failed before any: the server is really out of reach.
    this._setState(this.everOnline ? "reconnecting" : "offline");
    const now = code === 1012 || code === 1013;
    const wait = now ? 0 : this.delay;
    if (!now) this.delay = Math.min(this.delay * 2, MAX_DELAY);
    this.retryTimer = setTimeout(() => this._open(), wait);
  }

  _startPings() {
    clearInterval(this.pingTimer);
    this.lastHeard = Date.now();
    this.pingTimer = setInterval(() => {
      if (!this.authed) return;
      if (Date.now() - this.lastHeard > SILENT_FOR) {
        this.drop(); // nothing heard, not even a pong: the network is gone
        return;
      }
      this._ping();
    }, PING_EVERY);
  }

  _ping() {
    try { this.ws?.send(JSON.stringify({ type: "ping", id: "ping" })); } catch { /* closing */ }
  }

  _send(id, p) {
    p.sent = true;
    const ws = this.ws;
    const at = Date.now();
    ws.send(JSON.stringify({ ...p.msg, id }));
    // Nothing back since it went: ask whether the socket lives, then give it up.
    const silent = () => this.ws === ws && this.pending.get(id) === p && this.lastHeard < at;
    setTimeout(() => { if (silent()) this._ping(); }, ASK_AFTER);
    setTimeout(() => { if (silent()) this.drop(); }, GIVE_UP_AFTER);
  }

  request(msg) {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const p = { msg, resolve, reject, sent: false };
      this.pending.set(id, p);
      if (this.authed && this.ws && this.ws.readyState === WebSocket.OPEN) this._send(id, p);
      else if (this.closed) {
        this.pending.delete(id);
        reject(new ServerError("net.lost", "not connected", 0));
      }
    });
  }

  on(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type).add(fn);
    return () => this.listeners.get(type)?.delete(fn);
  }

  _emit(type, arg) {
    const fns = this.listeners.get(type);
    if (!fns) return;
    for (const fn of [...fns]) {
      try { fn(arg); } catch (e) { console.error(e); }
    }
  }

  _setState(state) {
    if (this.state === state) return;
    this.state = state;
    this._emit("net.state", state);
  }

  follow(kind, id) {
    this.followed.set(`${kind}:${id}`, { kind, id });
    if (this.authed) this._subscribe(kind, id);
  }

  unfollow(kind, id) {
    const key = `${kind}:${id}`;
    if (!this.followed.delete(key)) return;
    if (this.authed) this.ws.send(JSON.stringify({ type: `${kind}.unsubscribe`, [kind]: id }));
  }

  // A board published live: its board.update events (the top `count` and your own entry, at
  // most one a second) reach on("board.update") listeners; watched again after a reconnect,
  // whose first update is the board as it is then. Returns the unwatch function.
  watchBoard(board, count = 20) {
    this.boards.set(board, count);
    if (this.authed) this._watchBoard(board, count);
    return () => {
      if (!this.boards.delete(board)) return;
      if (this.authed) this.ws.send(JSON.stringify({ type: "board.unsubscribe", board }));
    };
  }

  _watchBoard(board, count) {
    this.ws.send(JSON.stringify({ type: "board.subscribe", board, count }));
  }

  lastSeq(kind, id) {
    return this.seqs.get(`${kind}:${id}`) ?? null;
  }

  _subscribe(kind, id) {
    const msg = { type: `${kind}.subscribe`, [kind]: id };
    const seq = this.seqs.get(`${kind}:${id}`);
    if (seq !== undefined) msg.after = seq;
    this.ws.send(JSON.stringify(msg));
  }

  // Close the socket as if the network dropped: the connection reconnects by itself.
  drop() {
    if (this.ws) this._lost(1006);
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    if (this.ws) this._lost(1000);
    else this._setState("offline");
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new ServerError("net.lost", "the connection is closed", 0));
    }
  }
}
