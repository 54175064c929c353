// The game area for one session (practice, race or daily): board, score, moves, timer, undo and
// resign, the refusal sentence of a refused move, and the won/lost screen; with the
// conveniences (conveniences.js, keys.js): auto-move, auto-complete, the resign question in
// ranked play, the keyboard help. Moves go over the WebSocket with the revision they were
// chosen at, so a repeat is refused rather than played twice.

import { renderBoard } from "./render.js";
import { elapsed, serverNow } from "./time.js";
import { h } from "./dom.js";
import { autoCompleteRun, autoMoveSetting, canAutoComplete, confirmResign, isRanked } from "./conveniences.js";
import { keysHelp, listenKeys } from "./keys.js";
import { hintAllowed, hintControl } from "./hint.js";

const OVER_TEXT = { won: "You won!", lost: "Game lost", finished: "Game over" };
const SENDING_AFTER = 250; // ms a move may take before the page says it is still sending

function button(label, onClick, className = "") {
  return h(`button${className ? `.${className.split(" ").join(".")}` : ""}`,
    { type: "button", text: label, onclick: onClick });
}

// opts: {undo, resign, onEnd(session), actions: [{label, onClick}], overActions: [...],
//        startedAt (ms, local clock; default: the payload's `created`), interactive}
export function mountSession(el, ctx, session, opts = {}) {
  const { net } = ctx;
  let payload = session;
  let ended = payload.view.status !== "playing";
  let busy = false;
  let autoRunning = false;
  const interactive = opts.interactive !== false;
  // The clock runs from the deal (server time, on this browser's clock), so a reload keeps it.
  const startedAt = opts.startedAt
    ?? (payload.created ? payload.created - (serverNow() - Date.now()) : Date.now());
  let stoppedAt = ended ? startedAt : null;
  const ranked = isRanked(payload.mode);
  const autoMove = autoMoveSetting(payload.mode);
  const ruleSet = ctx.ruleSet(payload.view.game, payload.view.variant);

  const root = h("div.session");
  const score = h("b.score");
  const moves = h("b.moves");
  const timerText = h("b.timer", { text: "0:00" });
  const status = h("span.status");
  const stats = h("div.stats", {}, h("span", {}, "Score ", score), " ",
    h("span", {}, "Moves ", moves), " ", h("span", {}, "Time ", timerText), " ", status);

  const undoBtn = button("Undo", () => undo(), "undo");
  undoBtn.setAttribute("aria-keyshortcuts", "U Control+Z");
  const resignBtn = button("Resign", () => resign(), "resign");
  const completeBtn = button("Auto-complete", () => autoComplete(), "auto-complete");
  completeBtn.setAttribute("aria-keyshortcuts", "A");
  completeBtn.hidden = true;
  const autoBox = h("input", { type: "checkbox", "data-setting": "auto-move" });
  autoBox.checked = autoMove.get();
  autoBox.addEventListener("change", () => {
    autoMove.set(autoBox.checked);
    if (autoBox.checked) autoPlay();
  });
  const autoLabel = h("label.auto-move", { title: "play safe cards to the foundations for me" },
    autoBox, " Auto-move");
  const help = keysHelp();

  const tools = h("div.tools");
  if (opts.undo !== false) tools.append(undoBtn);
  // A hint where the server gives them (practice, replays of a revealed day): button and H.
  const hint = interactive && hintAllowed(payload.mode) ? hintControl(net, () => payload, root, ruleSet) : null;
  if (hint) tools.append(hint.button);
  if (interactive) tools.append(completeBtn);
  for (const a of opts.actions || []) tools.append(button(a.label, a.onClick, a.className || ""));
  if (interactive) tools.append(autoLabel);
  tools.append(help.button);
  // Resign stands apart, at the end, so a hurried Undo never lands on it.
  if (opts.resign !== false) tools.append(h("span.tools-gap", { "aria-hidden": "true" }), resignBtn);
  const bar = h("div.session-bar", {}, stats, tools);

  const refusal = h("p.refusal", { role: "alert" });
  refusal.hidden = true;
  // A move on its way: said over the top of the board, as a refusal is, once it takes a moment
  // (a dead network shows here and in the header's badge, not as a tap that did nothing).
  const sending = h("p.sending", { role: "status", text: "Sending your move…" });
  sending.hidden = true;
  const boardHost = h("div.board-host");
  const over = h("div.game-over", { role: "dialog", "aria-label": "game over" });
  over.hidden = true;

  root.append(bar, refusal, sending, ...(hint ? [hint.note] : []), boardHost, over, help.panel);
  el.append(root);

  const board = renderBoard(boardHost, ruleSet, payload.view, {
    legal: payload.legal,
    interactive,
    onMove: (move) => playerMove(move),
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
    score.textContent = String(v.score);
    moves.textContent = String(v.moves);
    status.textContent = v.status === "playing" ? "" : v.status;
    undoBtn.disabled = !payload.can_undo || busy;
    resignBtn.disabled = v.status !== "playing" || busy;
    completeBtn.hidden = !canAutoComplete(ruleSet, payload);
    completeBtn.disabled = busy || autoRunning;
  }

  function drawOver() {
    const v = payload.view;
    if (v.status === "playing") {
      over.hidden = true;
      return;
    }
    const row = h("div.over-actions", {},
      (opts.overActions || []).map((a) => button(a.label, a.onClick, a.className || "")),
      button("See the board", () => { over.hidden = true; }, "close"));
    over.replaceChildren(h("h2", { text: OVER_TEXT[v.status] || "Game over" }),
      h("p", { text: `Score ${v.score} in ${v.moves} moves, ${elapsed((stoppedAt ?? Date.now()) - startedAt)}.` }),
      ...(hint?.count ? [h("p.hints-used", { text: `${hint.count} hint${hint.count > 1 ? "s" : ""} used.` })] : []),
      row);
    over.classList.toggle("won", v.status === "won");
    over.hidden = false;
    row.querySelector("button")?.focus();
  }

  function tick() {
    timerText.textContent = elapsed((stoppedAt ?? Date.now()) - startedAt);
  }
  const timer = setInterval(tick, 1000);

  function show(next) {
    if (next.session !== payload.session) return;
    if (next.rev < payload.rev) return; // an older answer overtaken by a newer one
    if (next.rev !== payload.rev) hint?.clear(); // the board changed: the hint is stale
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

  // Sends one change; true when the server accepted it.
  async function act(msg) {
    if (busy) return false;
    busy = true;
    drawStats();
    const slow = setTimeout(() => { sending.hidden = false; }, SENDING_AFTER);
    try {
      const reply = await net.request(msg);
      refuse("");
      busy = false;
      show(reply);
      return true;
    } catch (e) {
      busy = false;
      refuse(e.message || String(e));
      if (e.code === "conflict" || e.code === "net.lost") refresh();
      return false;
    } finally {
      clearTimeout(slow);
      sending.hidden = true;
      busy = false;
      drawStats();
    }
  }

  const move = (text) => act({ type: "move", session: payload.session, move: text, rev: payload.rev });

  async function playerMove(text) {
    if (await move(text)) await autoPlay();
  }

  function undo() {
    if (opts.undo !== false && payload.can_undo) act({ type: "undo", session: payload.session });
  }

  async function resign() {
    if (payload.view.status !== "playing" || busy) return;
    if (ranked && !(await confirmResign(root, payload.mode))) return;
    if (payload.view.status === "playing") act({ type: "resign", session: payload.session });
  }

  // Runs `next(payload)`'s moves one at a time until it gives none or a move is refused.
  async function run(next) {
    if (autoRunning || !interactive) return;
    autoRunning = true;
    try {
      for (let m = next(payload); m && !ended; m = next(payload)) {
        if (!(await move(m))) break;
      }
    } finally {
      autoRunning = false;
      drawStats();
    }
  }

  // Auto-move: the safe foundation moves, after each accepted move while the setting is on.
  // In unranked play auto-complete follows by itself the first time it is offered (only where
  // it will finish); after that it waits for the button or the A key.
  let selfCompleted = false;
  async function autoPlay() {
    if (!autoBox.checked || autoRunning) return;
    await run((p) => (p.view.status === "playing" && p.safe?.length ? p.safe[0] : null));
    if (!ranked && !selfCompleted && canAutoComplete(ruleSet, payload)) {
      selfCompleted = true;
      await autoComplete();
    }
  }

  function autoComplete() {
    if (!canAutoComplete(ruleSet, payload)) return Promise.resolve();
    return run(autoCompleteRun(ruleSet));
  }

  async function refresh() {
    try {
      show(await net.request({ type: "session.get", session: payload.session }));
    } catch { /* the next resume tries again */ }
  }

  const offs = [
    net.on("session", (m) => show(m)),
    net.on("net.resumed", () => refresh()),
    listenKeys({
      help: help.toggle,
      undo: interactive ? undo : null,
      autoComplete: interactive ? () => autoComplete() : null,
      hint: hint ? () => hint.ask() : null,
    }),
  ];

  drawStats();
  tick();
  if (ended) drawOver(); // no auto-move at the deal: it starts with the player's first move

  return {
    update(next) { show(next); },
    refuse,
    get payload() { return payload; },
    board,
    destroy() {
      clearInterval(timer);
      for (const off of offs) off();
      board.destroy();
      if (help.panel.open) help.panel.close();
      root.remove();
    },
  };
}
