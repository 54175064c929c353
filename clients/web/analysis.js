// The analysis of a finished game on its replay (GET /sessions/{id}/analysis): a bar with one
// cell per position (the deal, then after each move) saying whether the deal could still be won
// from it, the turning point one click away with its sentence, the better line from there
// (betterline.js) and, for a won game, its moves over par. Asked for only once the game is over
// (the server refuses it before); while the server works on it the bar says "analysing…" and
// asks again after the server's retry_ms. The panel's height is reserved from the start, so the
// board does not move when the bar arrives.

import { h, errorText } from "./dom.js";
import { betterLine } from "./betterline.js";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const RETRY_MIN = 250;
const RETRY_MAX = 30_000;
const RETRY_LOST = 5_000; // the server out of reach: try again this much later

// A verdict in players' words, for the key and each cell's label.
export const VERDICT_WORDS = { won: "winnable", lost: "lost", unknown: "not decided", best: "best score" };

// host: the replay's stepper ({go(k), show(view, text, pos), rules}); t: the transcript.
export function analysisPanel(ctx, t, host) {
  const { net } = ctx;
  const bar = h("div.analysis-bar", { role: "group", "aria-label": "the deal's verdict at each position" });
  const status = h("span.analysis-status", { role: "status", text: "analysing…" });
  const key = h("span.analysis-key", { "aria-hidden": "true" },
    ["won", "lost", "unknown"].map((v) => h("span", { "data-verdict": v },
      h("i.swatch"), VERDICT_WORDS[v])));
  const actions = h("span.analysis-actions");
  const el = h("div.analysis", { "data-state": "pending" }, bar,
    h("div.analysis-row", {}, h("span.analysis-info", {}, key, status), actions));
  let analysis = null;
  let line = null; // the better line, kept once the player has opened it
  let lineOpen = false; // whether the board shows it
  const lineHost = { rules: host.rules, show: (...args) => lineOpen && host.show(...args) };
  let dead = false;
  let current = 0;

  function ready(a) {
    analysis = a;
    el.dataset.state = "ready";
    const scored = a.positions.some((p) => p.verdict === "best");
    const top = Math.max(1, ...a.positions.map((p) => p.score ?? 0));
    key.hidden = scored;
    bar.dataset.dense = a.positions.length > 80 ? "1" : "";
    bar.setAttribute("aria-label", a.summary);
    bar.replaceChildren(...a.positions.map((p, k) => {
      const said = p.verdict === "best" ? `best score ${p.score ?? "?"}` : VERDICT_WORDS[p.verdict] || p.verdict;
      const where = k === 0 ? "the deal" : `after move ${k}`;
      const cell = h(`button.cell.v-${p.verdict}`, {
        type: "button", tabindex: "-1", "data-pos": k, "data-verdict": p.verdict,
        title: `${where}: ${said}`, "aria-label": `${where}: ${said}`,
        onclick: () => host.go(k),
      });
      if (p.verdict === "best") cell.style.setProperty("--part", String((p.score ?? 0) / top));
      return cell;
    }));
    const tp = a.turning_point;
    if (tp) bar.children[tp.move_number - 1]?.classList.add("tp");
    status.textContent = a.status === "won" && a.over_par != null ? `${overPar(a.over_par)}. ${a.summary}` : a.summary;
    status.title = status.textContent;
    drawActions();
    mark(current);
  }

  function overPar(n) {
    return n === 0 ? "On par" : `${n} over par`;
  }

  // The row's buttons: the turning point and the better line; while the line is shown, its
  // steps and the way back. Made once, so a button keeps the focus while it is pressed again.
  const button = (cls, text, onclick, aria) => h(`button.${cls}`, { type: "button", text, onclick, "aria-label": aria });
  const toTurn = () => host.go(analysis.turning_point.move_number - 1);
  const jump = button("turning-point", "", toTurn);
  const play = button("better-line", "Play the better line", () => openLine());
  const prev = button("line-prev", "‹", () => line.step(line.at - 1), "the better line's previous move");
  const next = button("line-next", "›", () => line.step(line.at + 1), "the better line's next move");
  const back = button("line-back", "Back to the game", toTurn);

  function drawActions() {
    const tp = analysis?.turning_point;
    if (!tp) return actions.replaceChildren();
    jump.textContent = `Turning point: move ${tp.move_number}`;
    const want = lineOpen ? [prev, next, back] : [jump, ...(tp.better?.length ? [play] : [])];
    if (want.some((b, i) => actions.children[i] !== b) || actions.children.length !== want.length) {
      const focused = actions.contains(document.activeElement);
      actions.replaceChildren(...want);
      if (focused) want[lineOpen ? 1 : 0].focus();
    }
    if (line) {
      prev.disabled = line.at === 0;
      next.disabled = line.at === line.length;
    }
  }

  // The line starts from the turning point's position: the replay goes there first, so its own
  // buttons and the bar step on from where the line branches off.
  async function openLine() {
    await toTurn();
    line ??= betterLine(ctx, t, analysis.turning_point, lineHost, () => drawActions());
    lineOpen = true;
    line.step(0);
  }

  // The current step's cell marked (and made the bar's one stop for Tab).
  function mark(k) {
    current = k;
    const had = bar.contains(document.activeElement);
    for (const c of bar.children) {
      const on = Number(c.dataset.pos) === k;
      c.classList.toggle("current", on);
      c.tabIndex = on ? 0 : -1;
      if (on && had) c.focus();
    }
    if (k >= bar.children.length && bar.lastElementChild) bar.lastElementChild.tabIndex = 0;
  }

  async function load() {
    while (!dead) {
      let r;
      try {
        r = await net.rest("GET", `/sessions/${encodeURIComponent(t.session)}/analysis`);
      } catch (e) {
        if (dead) return;
        if (e.code === "net.lost" || e.status === 429 || e.status >= 500) {
          await sleep(RETRY_LOST);
          continue;
        }
        el.dataset.state = "none";
        status.textContent = e.code === "analysis.not_over" ? "The analysis comes when the game is over." : `No analysis: ${errorText(e)}`;
        return;
      }
      if (dead) return;
      if (r?.state === "ready" && r.analysis) return ready(r.analysis);
      status.textContent = "analysing…";
      await sleep(Math.min(RETRY_MAX, Math.max(RETRY_MIN, Number(r?.retry_ms) || 2000)));
    }
  }
  load();

  return {
    el,
    // The replay shows step k of the game: the better line is left, the step marked.
    shown(k) {
      if (lineOpen) {
        lineOpen = false;
        drawActions();
      }
      if (analysis) mark(k);
    },
    // What the note adds at step k: the turning point's sentence at the position before it.
    say(k) {
      const tp = analysis?.turning_point;
      return tp && k === tp.move_number - 1 ? ` — the turning point: ${tp.text}` : "";
    },
    // A key while the better line is shown: true when the line took it.
    key(name) {
      if (!lineOpen) return false;
      if (name === "Escape") {
        toTurn();
        return true;
      }
      const to = { ArrowLeft: line.at - 1, ArrowRight: line.at + 1, Home: 0, End: line.length }[name];
      if (to === undefined) return false;
      line.step(to);
      return true;
    },
    destroy() {
      dead = true;
      line?.destroy();
    },
  };
}
