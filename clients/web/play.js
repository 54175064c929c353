// The game area for one session (practice, race or daily): board, score, moves, timer, undo and
// resign, the refusal sentence of a refused move, and the won/lost screen. Moves go over the
// WebSocket with the revision they were chosen at, so a repeat is refused rather than played twice.

import { renderBoard } from "./render.js";
import { elapsed } from "./time.js";

const OVER_TEXT = { won: "You won!", lost: "Game lost", finished: "Game over" };

function button(label, onClick, className = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (className) b.className = className;
  b.addEventListener("click", onClick);
  return b;
}

// opts: {undo, resign, onEnd(session), actions: [{label, onClick}], overActions: [...],
//        startedAt (ms, local clock), interactive}
export function mountSession(el, ctx, session, opts = {}) {
  const { net } = ctx;
  let payload = session;
  let ended = payload.view.status !== "playing";
  let busy = false;
  const startedAt = opts.startedAt ?? Date.now();
  let stoppedAt = ended ? startedAt : null;

  const root = document.createElement("div");
  root.className = "session";
  const bar = document.createElement("div");
  bar.className = "session-bar";
  const stats = document.createElement("div");
  stats.className = "stats";
  stats.innerHTML = `<span>Score <b class="score"></b></span> <span>Moves <b class="moves"></b></span>`
    + ` <span>Time <b class="timer">0:00</b></span> <span class="status"></span>`;
  const tools = document.createElement("div");
  tools.className = "tools";
  const undoBtn = button("Undo", () => act({ type: "undo", session: payload.session }), "undo");
  undoBtn.setAttribute("aria-keyshortcuts", "Control+Z");
  const resignBtn = button("Resign", () => act({ type: "resign", session: payload.session }), "resign");
  if (opts.undo !== false) tools.append(undoBtn);
  if (opts.resign !== false) tools.append(resignBtn);
  for (const a of opts.actions || []) tools.append(button(a.label, a.onClick, a.className || ""));
  bar.append(stats, tools);

  const refusal = document.createElement("p");
  refusal.className = "refusal";
  refusal.setAttribute("role", "alert");
  refusal.hidden = true;

  const boardHost = document.createElement("div");
  boardHost.className = "board-host";

  const over = document.createElement("div");
  over.className = "game-over";
  over.setAttribute("role", "dialog");
  over.setAttribute("aria-label", "game over");
  over.hidden = true;

  root.append(bar, refusal, boardHost, over);
  el.append(root);

  const ruleSet = ctx.ruleSet(payload.view.game, payload.view.variant);
  const board = renderBoard(boardHost, ruleSet, payload.view, {
    legal: payload.legal,
    interactive: opts.interactive !== false,
    onMove: (move) => act({ type: "move", session: payload.session, move, rev: payload.rev }),
  });

  function refuse(message) {
    refusal.textContent = message;
    refusal.hidden = !message;
  }

  function drawStats() {
    const v = payload.view;
    root.dataset.session = payload.session;
    root.dataset.rev = String(payload.rev);
    root.dataset.status = v.status;
    stats.querySelector(".score").textContent = String(v.score);
    stats.querySelector(".moves").textContent = String(v.moves);
    stats.querySelector(".status").textContent = v.status === "playing" ? "" : v.status;
    undoBtn.disabled = !payload.can_undo || busy;
    resignBtn.disabled = v.status !== "playing" || busy;
  }

  function drawOver() {
    const v = payload.view;
    if (v.status === "playing") {
      over.hidden = true;
      return;
    }
    over.replaceChildren();
    const h = document.createElement("h2");
    h.textContent = OVER_TEXT[v.status] || "Game over";
    const p = document.createElement("p");
    p.textContent = `Score ${v.score} in ${v.moves} moves, ${elapsed((stoppedAt ?? Date.now()) - startedAt)}.`;
    const row = document.createElement("div");
    row.className = "over-actions";
    for (const a of opts.overActions || []) row.append(button(a.label, a.onClick, a.className || ""));
    row.append(button("See the board", () => { over.hidden = true; }, "close"));
    over.append(h, p, row);
    over.classList.toggle("won", v.status === "won");
    over.hidden = false;
    row.querySelector("button")?.focus();
  }

  function tick() {
    const end = stoppedAt ?? Date.now();
    stats.querySelector(".timer").textContent = elapsed(end - startedAt);
  }
  const timer = setInterval(tick, 1000);

  function show(next) {
    if (next.session !== payload.session) return;
    if (next.rev < payload.rev) return; // an older answer overtaken by a newer one
    payload = next;
    board.update(next.view, next.legal);
    drawStats();
    const isOver = next.view.status !== "playing";
    if (isOver && !ended) {
      ended = true;
      stoppedAt = Date.now();
      tick();
      drawOver();
      opts.onEnd?.(next);
    } else if (!isOver) {
      ended = false;
      stoppedAt = null;
      over.hidden = true;
    }
  }

  async function act(msg) {
    if (busy) return;
    busy = true;
    drawStats();
    try {
      const reply = await net.request(msg);
      refuse("");
      busy = false;
      show(reply);
    } catch (e) {
      busy = false;
      refuse(e.message || String(e));
      if (e.code === "conflict" || e.code === "net.lost") refresh();
    } finally {
      busy = false;
      drawStats();
    }
  }

  async function refresh() {
    try {
      show(await net.request({ type: "session.get", session: payload.session }));
    } catch { /* the next resume tries again */ }
  }

  function onKey(e) {
    if ((e.ctrlKey || e.metaKey) && e.key === "z" && payload.can_undo && opts.undo !== false) {
      e.preventDefault();
      act({ type: "undo", session: payload.session });
    }
  }
  root.addEventListener("keydown", onKey);

  const offs = [
    net.on("session", (m) => show(m)),
    net.on("net.resumed", () => refresh()),
  ];

  drawStats();
  tick();
  if (ended) drawOver();

  return {
    update(next) { show(next); },
    refuse,
    get payload() { return payload; },
    board,
    destroy() {
      clearInterval(timer);
      for (const off of offs) off();
      board.destroy();
      root.remove();
    },
  };
}
