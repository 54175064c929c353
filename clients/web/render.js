// One generic board for every rule set: the catalog's layout description says which piles exist,
// their kind and how they fan; the view says what lies in them. Moves are built in the move
// notation (docs/notation.md) from clicks, drags, double-clicks and keys, and handed to onMove.

import { backElement, cardElement, cardName } from "./cards.js";

// Groups drawn in the top row (small groups of single piles); the rest form the main area.
const TOP_KINDS = new Set(["stock", "waste", "foundation", "cell", "reserve"]);
const KIND_NAMES = {
  tableau: "column", foundation: "foundation", stock: "stock", waste: "waste", reserve: "reserve",
  cell: "cell", grid: "space",
};
// Games whose moves remove cards together (pairs, triplets, a lone King) instead of moving them.
const REMOVE_GAMES = new Set(["pyramid", "isabel", "nestor", "triplets"]);
const GRID_COLUMNS = { 52: 13, 25: 5, 24: 6, 16: 4 };
const DRAG_START = 5; // pixels of movement before a press becomes a drag

// "t3:4-t5" -> {from: "t3", n: 4, to: "t5"}; "t3+t5" -> {remove: ["t3", "t5"]}; else {named}.
export function parseMove(text) {
  let m = /^([a-z]+\d*)(?::(\d+))?-([a-z]+\d*)$/.exec(text);
  if (m) return { from: m[1], n: m[2] ? Number(m[2]) : 1, to: m[3] };
  if (text.includes("+")) return { remove: text.split("+").filter(Boolean) };
  return { named: text };
}

export function moveText(from, n, to) {
  return n > 1 ? `${from}:${n}-${to}` : `${from}-${to}`;
}

function pinRows(piles) {
  // Bowling's pins: p7..p10 at the back (top of the screen) down to p1 at the front.
  return [[7, 8, 9, 10], [4, 5, 6], [2, 3], [1]].map((row) => row.map((i) => piles[i - 1]));
}

export function renderBoard(el, ruleSet, view, opts = {}) {
  const interactive = opts.interactive !== false;
  const layout = ruleSet.layout || [];
  const order = layout.flatMap((g) => g.piles);
  const groupOf = new Map();
  for (const g of layout) for (const p of g.piles) groupOf.set(p, g);
  const removeStyle = REMOVE_GAMES.has(ruleSet.id);

  let current = view;
  let legal = opts.legal || [];
  let sel = null; // {piles: [names], n: count from the top (move games)}
  let press = null; // a pointer press that may become a drag
  let suppressClick = false;
  const pileEls = new Map();

  const board = document.createElement("div");
  board.className = `board game-${ruleSet.id}`;
  board.dataset.game = ruleSet.id;
  board.dataset.variant = ruleSet.variant;
  const top = document.createElement("div");
  top.className = "board-top";
  const main = document.createElement("div");
  main.className = "board-main";
  const actions = document.createElement("div");
  actions.className = "board-actions";
  const info = document.createElement("div");
  info.className = "board-info";
  board.append(top, main, actions, info);

  let cols = 4;
  let topCount = 0;
  let sliderHost = null;
  for (const g of layout) {
    const section = document.createElement("section");
    section.className = `group kind-${g.kind} fan-${g.fan}`;
    section.dataset.group = g.kind;
    const inTop = TOP_KINDS.has(g.kind) && g.piles.length <= 4;
    const pins = ruleSet.id === "bowling" && g.kind === "grid" && g.piles.length === 10;
    if (pins) {
      section.classList.add("pins");
      for (const row of pinRows(g.piles)) {
        const r = document.createElement("div");
        r.className = "pin-row";
        for (const p of row) r.append(makePile(p, g));
        section.append(r);
      }
    } else if (g.fan === "pyramid") {
      // 28 positions in 7 rows; each card spans two half-columns so the rows interlock.
      let i = 0;
      for (let row = 1; i < g.piles.length; row++) {
        for (let k = 0; k < row && i < g.piles.length; k++, i++) {
          const pile = makePile(g.piles[i], g);
          pile.style.gridRow = String(row);
          pile.style.gridColumn = `${8 - row + 2 * k} / span 2`;
          section.append(pile);
        }
      }
      cols = Math.max(cols, 8);
    } else {
      for (const p of g.piles) section.append(makePile(p, g));
    }
    if (g.fan === "grid") {
      const c = GRID_COLUMNS[g.piles.length] || Math.ceil(Math.sqrt(g.piles.length));
      section.style.setProperty("--grid-cols", String(c));
      cols = Math.max(cols, c + 1);
    } else if (g.fan === "slider") {
      sliderHost = section;
    } else if (!inTop && !pins && g.fan !== "pyramid") {
      cols = Math.max(cols, g.fan === "right" ? 8 : Math.min(g.piles.length, 10));
    }
    if (inTop) {
      top.append(section);
      topCount += g.piles.length;
    } else {
      main.append(section);
    }
  }
  if (sliderHost) {
    // Slide: the sliders sit beside the grid's rows.
    const wrap = document.createElement("div");
    wrap.className = "grid-with-sliders";
    const grid = main.querySelector(".fan-grid");
    if (grid) {
      main.insertBefore(wrap, grid);
      wrap.append(sliderHost, grid);
    }
  }
  if (ruleSet.id === "bowling") cols = Math.max(cols, 6);
  cols = Math.max(cols, Math.min(topCount, 8));
  board.style.setProperty("--cols", String(cols));
  el.append(board);

  function makePile(name, g) {
    const pile = document.createElement("div");
    pile.className = `pile kind-${g.kind} fan-${g.fan}`;
    pile.dataset.pile = name;
    pile.dataset.label = name;
    if (interactive) pile.tabIndex = 0;
    if (g.fan === "slider") {
      for (const dir of ["left", "right"]) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = `slide-${dir}`;
        b.textContent = dir === "left" ? "◀" : "▶";
        b.setAttribute("aria-label", `slide row ${name.slice(1)} ${dir}`);
        b.disabled = !interactive;
        b.addEventListener("click", (e) => {
          e.stopPropagation();
          send(`${dir}:${name}`);
        });
        pile.append(b);
      }
    }
    pileEls.set(name, pile);
    return pile;
  }

  function pileLabel(name) {
    const g = groupOf.get(name);
    const kind = KIND_NAMES[g?.kind] || g?.kind || "pile";
    const num = name.replace(/^[a-z]+/, "");
    return num ? `${kind} ${num}` : kind;
  }

  // ---- drawing ----

  function drawPile(name) {
    const pile = pileEls.get(name);
    const g = groupOf.get(name);
    const data = current.piles?.[name] || { down: 0, up: [] };
    const key = JSON.stringify(data);
    if (pile.dataset.drawn === key) return;
    pile.dataset.drawn = key;
    for (const c of [...pile.querySelectorAll(":scope > .card, :scope > .count")]) c.remove();
    const down = data.down || 0;
    const up = data.up || [];
    for (let i = 0; i < down; i++) {
      const b = backElement();
      b.dataset.pile = name;
      b.dataset.index = String(i);
      pile.append(b);
    }
    up.forEach((text, i) => {
      const c = cardElement(text);
      c.dataset.pile = name;
      c.dataset.index = String(down + i);
      pile.append(c);
    });
    const total = down + up.length;
    pile.classList.toggle("empty", total === 0);
    if (g?.fan === "none" && total > 1) {
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = String(total);
      count.setAttribute("aria-hidden", "true");
      pile.append(count);
    }
    let label = pileLabel(name);
    if (total === 0) label += ", empty";
    else {
      if (down) label += `, ${down} face-down`;
      if (up.length) label += `, ${cardName(up[up.length - 1])} on top`;
    }
    pile.setAttribute("aria-label", label);
  }

  function drawNotes() {
    for (const p of board.querySelectorAll(".note")) p.remove();
    const needs = current.info?.needs;
    if (needs && typeof needs === "object") {
      for (const [name, rank] of Object.entries(needs)) {
        const pile = pileEls.get(name);
        if (!pile) continue;
        const n = document.createElement("span");
        n.className = "note";
        n.textContent = rank ? `next ${rank}` : "done";
        pile.append(n);
      }
    }
  }

  function drawActions() {
    actions.replaceChildren();
    if (!interactive) return;
    for (const m of legal) {
      const p = parseMove(m);
      if (!p.named || m === "s") continue;
      const pileName = m.split(":")[1];
      if (pileName && groupOf.get(pileName)?.fan === "slider") continue;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "named-move";
      b.dataset.move = m;
      b.textContent = m.replace(":", " ");
      b.addEventListener("click", () => send(m));
      actions.append(b);
    }
  }

  function drawInfo() {
    info.replaceChildren();
    const data = current.info;
    if (!data || typeof data !== "object") return;
    const chips = document.createElement("div");
    chips.className = "chips";
    for (const [k, v] of Object.entries(data)) {
      if (v === null || typeof v === "object") continue;
      if (["bowler", "frame", "ball", "pins", "pile", "bonus", "players", "passes"].includes(k)) {
        continue;
      }
      const chip = document.createElement("span");
      chip.className = "chip";
      chip.textContent = k === "pass"  // the stock's pass, of how many (0: no limit)
        ? `stock pass ${v}${data.passes ? ` of ${data.passes}` : ""}`
        : `${k.replace(/_/g, " ")}: ${v}`;
      chips.append(chip);
    }
    if (Array.isArray(data.sets)) {
      const chip = document.createElement("span");
      chip.className = "chip";
      chip.textContent = `sets: ${data.sets.length}`;
      chips.append(chip);
    }
    if (chips.childElementCount) info.append(chips);
    if (Array.isArray(data.bowlers)) info.append(scorecard(data));
    if (Array.isArray(data.lines)) info.append(linesTable(data.lines));
  }

  function scorecard(data) {
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
      if (b.bowler === data.bowler && current.status === "playing") row.className = "current";
      row.insertCell().textContent = opts.bowlerName?.(b.bowler) || `#${b.bowler}`;
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

  function drawSelection() {
    for (const c of board.querySelectorAll(".selected")) c.classList.remove("selected");
    if (!sel) return;
    for (const name of sel.piles) {
      const pile = pileEls.get(name);
      if (!pile) continue;
      pile.classList.add("selected");
      const cards = [...pile.querySelectorAll(":scope > .card:not(.back)")];
      for (const c of cards.slice(removeStyle ? -1 : -sel.n)) c.classList.add("selected");
    }
  }

  function draw() {
    for (const name of order) drawPile(name);
    drawNotes();
    drawActions();
    drawInfo();
    drawSelection();
    board.classList.toggle("over", current.status !== "playing");
  }

  // ---- moves ----

  async function send(text) {
    sel = null;
    drawSelection();
    if (opts.onMove) await opts.onMove(text);
  }

  function upCount(name) {
    return current.piles?.[name]?.up?.length || 0;
  }

  function sourceMoves(name) {
    return legal.filter((m) => {
      const p = parseMove(m);
      return p.from === name || (p.remove && p.remove.includes(name));
    });
  }

  // A click (or Enter) on a pile; index = the clicked card's index, or null for the pile itself.
  function activate(name, index) {
    const data = current.piles?.[name] || { down: 0, up: [] };
    const down = data.down || 0;
    const total = down + (data.up?.length || 0);
    if (groupOf.get(name)?.fan === "slider") return;
    if (sel) {
      if (removeStyle) return extendRemoval(name);
      if (sel.piles[0] === name) {
        const n = index === null || index < down ? null : total - index;
        if (n && n !== sel.n) {
          sel.n = n;
          drawSelection();
        } else {
          sel = null;
          drawSelection();
        }
        return;
      }
      return send(moveText(sel.piles[0], sel.n, name));
    }
    if (groupOf.get(name)?.kind === "stock" && (legal.includes("s") || !data.up?.length)) {
      return send("s");
    }
    if (removeStyle) {
      if (!data.up?.length) return;
      if (legal.includes(`${name}+`)) return send(`${name}+`);
      sel = { piles: [name], n: 1 };
      drawSelection();
      return;
    }
    if (!data.up?.length) {
      // An empty pile clicked first: the one legal move into it, if there is exactly one.
      const into = legal.filter((m) => parseMove(m).to === name);
      if (into.length === 1) send(into[0]);
      return;
    }
    const from = sourceMoves(name);
    if (from.length === 1) {
      const p = parseMove(from[0]);
      const target = groupOf.get(p.to);
      if (target && target.piles.length === 1 && target.kind !== "tableau") return send(from[0]);
    }
    const n = index === null || index < down ? 1 : total - index;
    sel = { piles: [name], n };
    drawSelection();
  }

  function extendRemoval(name) {
    if (sel.piles.includes(name)) {
      sel.piles = sel.piles.filter((p) => p !== name);
      if (!sel.piles.length) sel = null;
      drawSelection();
      return;
    }
    if (!upCount(name)) return;
    const chosen = [...sel.piles, name].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const key = chosen.join("+");
    const removals = legal.map(parseMove).filter((p) => p.remove);
    const exact = legal.find((m) => {
      const p = parseMove(m);
      return p.remove && [...p.remove].sort((a, b) => order.indexOf(a) - order.indexOf(b)).join("+") === key;
    });
    if (exact) return send(exact);
    const partial = removals.some((p) => chosen.every((c) => p.remove.includes(c)));
    if (partial) {
      sel.piles = chosen;
      drawSelection();
      return;
    }
    return send(key); // not a legal removal: the server says why
  }

  function toFoundation(name) {
    const m = legal.find((t) => {
      const p = parseMove(t);
      return p.from === name && p.n === 1 && groupOf.get(p.to)?.kind === "foundation";
    });
    if (m) return send(m);
    if (legal.includes(`${name}+`)) return send(`${name}+`);
    return null;
  }

  function drop(from, n, to) {
    if (from === to) return;
    if (removeStyle) {
      const chosen = [from, to].sort((a, b) => order.indexOf(a) - order.indexOf(b));
      const exact = legal.find((m) => {
        const p = parseMove(m);
        return p.remove && p.remove.length === 2 && chosen.every((c) => p.remove.includes(c));
      });
      send(exact || chosen.join("+"));
      return;
    }
    send(moveText(from, n, to));
  }

  // ---- input ----

  function cardOf(target) {
    const card = target.closest?.(".card");
    return card && board.contains(card) ? card : null;
  }

  function onClick(e) {
    if (!interactive) return;
    if (suppressClick) {
      suppressClick = false;
      return;
    }
    const pile = e.target.closest?.(".pile");
    if (!pile || !board.contains(pile)) return;
    const card = cardOf(e.target);
    activate(pile.dataset.pile, card ? Number(card.dataset.index) : null);
  }

  function onDblClick(e) {
    if (!interactive) return;
    const card = cardOf(e.target);
    if (!card || card.classList.contains("back")) return;
    sel = null;
    drawSelection();
    toFoundation(card.dataset.pile);
  }

  function onPointerDown(e) {
    if (!interactive || e.button !== 0) return;
    const card = cardOf(e.target);
    if (!card || card.classList.contains("back")) return;
    const name = card.dataset.pile;
    const data = current.piles?.[name];
    if (!data) return;
    const total = (data.down || 0) + data.up.length;
    const index = Number(card.dataset.index);
    press = { name, n: total - index, x: e.clientX, y: e.clientY, card, ghost: null };
    window.addEventListener("pointermove", onPointerMove);
    window.addEventListener("pointerup", onPointerUp);
    window.addEventListener("pointercancel", endPress);
  }

  function onPointerMove(e) {
    if (!press) return;
    if (!press.ghost) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_START) return;
      startDrag();
    }
    press.ghost.style.transform = `translate(${e.clientX - press.x}px, ${e.clientY - press.y}px)`;
  }

  function startDrag() {
    const pile = pileEls.get(press.name);
    const cards = [...pile.querySelectorAll(":scope > .card")].slice(removeStyle ? -1 : -press.n);
    const first = cards[0].getBoundingClientRect();
    const ghost = document.createElement("div");
    ghost.className = `drag-ghost ${pile.className}`;
    ghost.style.left = `${first.left}px`;
    ghost.style.top = `${first.top}px`;
    ghost.setAttribute("aria-hidden", "true");
    for (const c of cards) {
      const copy = c.cloneNode(true);
      copy.removeAttribute("data-card");
      copy.removeAttribute("data-pile");
      copy.removeAttribute("data-index");
      ghost.append(copy);
      c.classList.add("dragging");
    }
    board.append(ghost);
    press.ghost = ghost;
    sel = null;
    drawSelection();
  }

  function onPointerUp(e) {
    const p = press;
    endPress();
    if (!p?.ghost) return;
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const target = under?.closest?.(".pile");
    if (target && board.contains(target)) drop(p.name, p.n, target.dataset.pile);
  }

  function endPress() {
    window.removeEventListener("pointermove", onPointerMove);
    window.removeEventListener("pointerup", onPointerUp);
    window.removeEventListener("pointercancel", endPress);
    if (press?.ghost) {
      press.ghost.remove();
      for (const c of board.querySelectorAll(".dragging")) c.classList.remove("dragging");
    }
    press = null;
  }

  function onKey(e) {
    if (!interactive) return;
    const pile = e.target.closest?.(".pile");
    if (!pile || e.target !== pile) return;
    const name = pile.dataset.pile;
    const i = order.indexOf(name);
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      activate(name, null);
    } else if (e.key === "Escape") {
      sel = null;
      drawSelection();
    } else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      e.preventDefault();
      const next = order[(i + (e.key === "ArrowRight" ? 1 : order.length - 1)) % order.length];
      pileEls.get(next)?.focus();
    } else if ((e.key === "ArrowUp" || e.key === "ArrowDown") && sel && !removeStyle
               && sel.piles[0] === name) {
      // More or fewer cards of the selected column.
      e.preventDefault();
      const most = upCount(name);
      sel.n = Math.max(1, Math.min(most, sel.n + (e.key === "ArrowUp" ? 1 : -1)));
      drawSelection();
    } else if (e.key === "f" || e.key === "F") {
      e.preventDefault();
      sel = null;
      drawSelection();
      toFoundation(name);
    }
  }

  board.addEventListener("click", onClick);
  board.addEventListener("dblclick", onDblClick);
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("keydown", onKey);
  board.addEventListener("dragstart", (e) => e.preventDefault());

  draw();

  return {
    update(nextView, nextLegal) {
      current = nextView;
      if (nextLegal) legal = nextLegal;
      sel = null;
      endPress();
      draw();
    },
    setLegal(nextLegal) {
      legal = nextLegal || [];
      drawActions();
    },
    cancel() {
      sel = null;
      drawSelection();
    },
    get element() { return board; },
    destroy() {
      endPress();
      board.remove();
    },
  };
}
