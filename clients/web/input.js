// Moves from the player's hands: clicks, drags, double-clicks and keys on the board become
// moves in the notation (docs/notation.md), sent with `send`. A "build" rule set picks up cards
// (with those above them in a column) and drops them on a pile; a "remove" rule set (the
// description's `play`) selects cards one by one until they form a removal.

import { moveText, parseMove } from "./moves.js";

const DRAG_START = 5; // pixels of movement before a press becomes a drag

// board: {view(), legal(), send(text)}; returns {drawSelection, clear, endPress, destroy}.
export function attachInput(layout, board, { interactive, removal }) {
  const { piles, groupOf, order } = layout;
  const root = layout.board;
  let sel = null; // {piles: [names], n: count from the top (build play)}
  let press = null; // a pointer press that may become a drag
  let suppressClick = false;
  // The card the click before last picked up, and the card the last click picked up: a
  // double-click sends a card up only when its first click picked that card up. A finger that
  // drops a card on a column and picks up that column's card at once lands twice on one spot,
  // which the browser calls a double tap; it must not put down the card just picked up.
  let pickedBefore = null;
  let picked = null;

  const view = () => board.view();
  const legal = () => board.legal();
  const send = (text) => {
    clear();
    return board.send(text);
  };

  function drawSelection() {
    for (const c of root.querySelectorAll(".selected")) c.classList.remove("selected");
    if (!sel) return;
    for (const name of sel.piles) {
      const pile = piles.get(name);
      if (!pile) continue;
      pile.classList.add("selected");
      const cards = [...pile.querySelectorAll(":scope > .card:not(.back)")];
      for (const c of cards.slice(removal ? -1 : -sel.n)) c.classList.add("selected");
    }
  }

  function clear() {
    sel = null;
    drawSelection();
  }

  // ---- from a pile to a move ----

  function pileData(name) {
    return view().piles?.[name] || { down: 0, up: [] };
  }

  function upCount(name) {
    return pileData(name).up?.length || 0;
  }

  function sourceMoves(name) {
    return legal().filter((m) => {
      const p = parseMove(m);
      return p.from === name || (p.remove && p.remove.includes(name));
    });
  }

  // A click (or Enter) on a pile; index = the clicked card's index, or null for the pile itself.
  function activate(name, index) {
    const data = pileData(name);
    const down = data.down || 0;
    const total = down + (data.up?.length || 0);
    if (groupOf.get(name)?.fan === "slider") return;
    if (sel) {
      if (removal) return extendRemoval(name);
      if (sel.piles[0] === name) {
        const n = index === null || index < down ? null : total - index;
        if (n && n !== sel.n) {
          sel.n = n;
          drawSelection();
        } else {
          clear();
        }
        return;
      }
      return send(moveText(sel.piles[0], sel.n, name));
    }
    if (groupOf.get(name)?.kind === "stock" && (legal().includes("s") || !data.up?.length)) {
      return send("s");
    }
    if (removal) {
      if (!data.up?.length) return;
      if (legal().includes(`${name}+`)) return send(`${name}+`);
      sel = { piles: [name], n: 1 };
      drawSelection();
      return;
    }
    if (!data.up?.length) {
      // An empty pile clicked first: the one legal move into it, if there is exactly one.
      const into = legal().filter((m) => parseMove(m).to === name);
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

  const byOrder = (a, b) => order.indexOf(a) - order.indexOf(b);

  function extendRemoval(name) {
    if (sel.piles.includes(name)) {
      sel.piles = sel.piles.filter((p) => p !== name);
      if (!sel.piles.length) sel = null;
      drawSelection();
      return;
    }
    if (!upCount(name)) return;
    const chosen = [...sel.piles, name].sort(byOrder);
    const key = chosen.join("+");
    const removals = legal().map(parseMove).filter((p) => p.remove);
    const exact = legal().find((m) => {
      const p = parseMove(m);
      return p.remove && [...p.remove].sort(byOrder).join("+") === key;
    });
    if (exact) return send(exact);
    if (removals.some((p) => chosen.every((c) => p.remove.includes(c)))) {
      sel.piles = chosen;
      drawSelection();
      return;
    }
    return send(key); // not a legal removal: the server says why
  }

  function toFoundation(name) {
    const m = legal().find((t) => {
      const p = parseMove(t);
      return p.from === name && p.n === 1 && groupOf.get(p.to)?.kind === "foundation";
    });
    if (m) return send(m);
    if (legal().includes(`${name}+`)) return send(`${name}+`);
    return null;
  }

  function drop(from, n, to) {
    if (from === to) return;
    if (removal) {
      const chosen = [from, to].sort(byOrder);
      const exact = legal().find((m) => {
        const p = parseMove(m);
        return p.remove && p.remove.length === 2 && chosen.every((c) => p.remove.includes(c));
      });
      send(exact || chosen.join("+"));
      return;
    }
    send(moveText(from, n, to));
  }

  // ---- pointer and keys ----

  function cardOf(target) {
    const card = target.closest?.(".card");
    return card && root.contains(card) ? card : null;
  }

  function onClick(e) {
    if (suppressClick) {
      suppressClick = false;
      picked = null;
      return;
    }
    const pile = e.target.closest?.(".pile");
    if (!pile || !root.contains(pile)) return;
    const card = cardOf(e.target);
    const held = sel;
    activate(pile.dataset.pile, card ? Number(card.dataset.index) : null);
    pickedBefore = picked;
    picked = card && !held && sel ? card : null;
  }

  function onDblClick(e) {
    const card = cardOf(e.target);
    if (!card || card.classList.contains("back") || card !== pickedBefore) return;
    pickedBefore = null;
    clear();
    toFoundation(card.dataset.pile);
  }

  function onPointerDown(e) {
    if (e.button !== 0) return;
    const card = cardOf(e.target);
    if (!card || card.classList.contains("back")) return;
    const name = card.dataset.pile;
    const data = view().piles?.[name];
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
    const pile = piles.get(press.name);
    const cards = [...pile.querySelectorAll(":scope > .card")].slice(removal ? -1 : -press.n);
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
    root.append(ghost);
    press.ghost = ghost;
    clear();
  }

  function onPointerUp(e) {
    const p = press;
    endPress();
    if (!p?.ghost) return;
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const target = under?.closest?.(".pile");
    if (target && root.contains(target)) drop(p.name, p.n, target.dataset.pile);
  }

  function endPress() {
    window.removeEventListener("pointermove", onPointerMove);
    window.removeEventListener("pointerup", onPointerUp);
    window.removeEventListener("pointercancel", endPress);
    if (press?.ghost) {
      press.ghost.remove();
      for (const c of root.querySelectorAll(".dragging")) c.classList.remove("dragging");
    }
    press = null;
  }

  function onKey(e) {
    const pile = e.target.closest?.(".pile");
    if (!pile || e.target !== pile) return;
    const name = pile.dataset.pile;
    const i = order.indexOf(name);
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      activate(name, null);
    } else if (e.key === "Escape") {
      clear();
    } else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      e.preventDefault();
      const next = order[(i + (e.key === "ArrowRight" ? 1 : order.length - 1)) % order.length];
      piles.get(next)?.focus();
    } else if ((e.key === "ArrowUp" || e.key === "ArrowDown") && sel && !removal
               && sel.piles[0] === name) {
      // More or fewer cards of the selected column.
      e.preventDefault();
      const most = upCount(name);
      sel.n = Math.max(1, Math.min(most, sel.n + (e.key === "ArrowUp" ? 1 : -1)));
      drawSelection();
    } else if (e.key === "f" || e.key === "F") {
      e.preventDefault();
      clear();
      toFoundation(name);
    }
  }

  const noDrag = (e) => e.preventDefault();
  if (interactive) {
    root.addEventListener("click", onClick);
    root.addEventListener("dblclick", onDblClick);
    root.addEventListener("pointerdown", onPointerDown);
    root.addEventListener("keydown", onKey);
  }
  root.addEventListener("dragstart", noDrag);

  return { drawSelection, clear, endPress, destroy: endPress };
}
