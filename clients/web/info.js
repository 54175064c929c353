// What shows under the board: buttons for the legal moves that have a name (redeal, finish),
// and the view's info: simple facts as chips, a scorecard of frames, a table of line scores.

import { parseMove } from "./moves.js";
import { fanOf } from "./layout.js";

// Info keys the scorecard shows, or that are parts of another chip: not chips of their own.
const NOT_CHIPS = new Set(["bowler", "frame", "ball", "pins", "pile", "bonus", "players", "passes"]);

// A button per named legal move; the stock's move is the stock itself, a row's shift its buttons.
export function drawActions(el, legal, groupOf, send) {
  el.replaceChildren();
  for (const m of legal) {
    const p = parseMove(m);
    if (!p.named || m === "s") continue;
    const pileName = m.split(":")[1];
    if (pileName && fanOf(groupOf.get(pileName) || {}) === "slider") continue;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "named-move";
    b.dataset.move = m;
    b.textContent = m.replace(":", " ");
    b.addEventListener("click", () => send(m));
    el.append(b);
  }
}

// opts.bowlerName(number): the scorecard's name for a bowler (else "#n").
export function drawInfo(el, view, opts = {}) {
  el.replaceChildren();
  const data = view.info;
  if (!data || typeof data !== "object") return;
  const chips = document.createElement("div");
  chips.className = "chips";
  for (const [k, v] of Object.entries(data)) {
    if (v === null || typeof v === "object" || NOT_CHIPS.has(k)) continue;
    chips.append(chip(k === "pass" // the stock's pass, of how many (0: no limit)
      ? `stock pass ${v}${data.passes ? ` of ${data.passes}` : ""}`
      : `${k.replace(/_/g, " ")}: ${v}`));
  }
  if (Array.isArray(data.sets)) chips.append(chip(`sets: ${data.sets.length}`));
  if (chips.childElementCount) el.append(chips);
  if (Array.isArray(data.bowlers)) el.append(scorecard(data, view.status, opts.bowlerName));
  if (Array.isArray(data.lines)) el.append(linesTable(data.lines));
}

function chip(text) {
  const c = document.createElement("span");
  c.className = "chip";
  c.textContent = text;
  return c;
}

function scorecard(data, status, bowlerName) {
  const table = document.createElement("table");
  table.className = "scorecard";
  const head = table.createTHead().insertRow();
  head.insertCell().textContent = "bowler";
  for (let f = 1; f <= 10; f++) head.insertCell().textContent = String(f);
  head.insertCell().textContent = "total";
  const body = table.createTBody();
  for (const b of data.bowlers) {
    const row = body.insertRow();
    row.dataset.bowler = String(b.bowler);
    if (b.bowler === data.bowler && status === "playing") row.className = "current";
    row.insertCell().textContent = bowlerName?.(b.bowler) || `#${b.bowler}`;
    for (const f of b.frames) {
      const cell = row.insertCell();
      const marks = document.createElement("div");
      marks.className = "marks";
      marks.textContent = (f.marks || []).join(" ");
      const tot = document.createElement("div");
      tot.className = "frame-total";
      tot.textContent = f.total ?? "";
      cell.append(marks, tot);
      if (b.bowler === data.bowler && f.frame === data.frame) cell.className = "current";
    }
    row.insertCell().textContent = String(b.total ?? "");
  }
  const cap = table.createCaption();
  cap.textContent = data.frame ? `frame ${data.frame}, ball ${data.ball}` : "the bowling is over";
  return table;
}

function linesTable(lines) {
  const table = document.createElement("table");
  table.className = "lines";
  const body = table.createTBody();
  for (const l of lines) {
    const row = body.insertRow();
    row.insertCell().textContent = l.line;
    row.insertCell().textContent = l.hand ?? (l.parts ? partsText(l.parts) : "");
    row.insertCell().textContent = String(l.points ?? 0);
  }
  return table;
}

function partsText(parts) {
  return Object.entries(parts).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(", ");
}
