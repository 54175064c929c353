// One generic board for every rule set, put together from its parts: the frame drawn from the
// catalog's description (layout.js), the cards the view puts in the piles (piles.js), moves from
// clicks, drags and keys (input.js), the named moves and facts under the board (info.js), and the
// board's size fitted to the room it has (fit.js).
// Moves are handed to opts.onMove in the move notation (docs/notation.md).

import { drawLayout } from "./layout.js";
import { drawPiles } from "./piles.js";
import { attachInput } from "./input.js";
import { drawActions, drawInfo } from "./info.js";
import { fanPiles, fitBoard } from "./fit.js";
import { animateChange, snapshot } from "./motion.js";

// opts: {legal, interactive, onMove(text), bowlerName(number)}
export function renderBoard(el, ruleSet, view, opts = {}) {
  const interactive = opts.interactive !== false;
  let current = view;
  let legal = opts.legal || [];

  const layout = drawLayout(ruleSet, { interactive, onShift: send });
  const input = attachInput(layout, { view: () => current, legal: () => legal, send },
    { interactive, removal: ruleSet.play === "remove" });
  el.append(layout.board);

  async function send(text) {
    input.clear();
    if (opts.onMove) await opts.onMove(text);
  }

  // The size follows the room: once the board is in the page, and whenever the room changes.
  const fit = () => fitBoard(layout.board);
  let width = -1;
  const room = new ResizeObserver(() => {
    if (el.clientWidth !== width) {
      width = el.clientWidth;
      fit();
    }
  });
  room.observe(el);
  window.addEventListener("resize", fit);

  function drawMoves() {
    if (interactive) drawActions(layout.actions, legal, layout.groupOf, send);
    else layout.actions.replaceChildren();
  }

  function draw() {
    const before = snapshot(layout.board);
    drawPiles(layout, current, legal);
    drawMoves();
    drawInfo(layout.info, current, opts);
    fanPiles(layout.board);
    input.drawSelection();
    layout.board.classList.toggle("over", current.status !== "playing");
    if (layout.board.isConnected) animateChange(layout.board, before);
  }

  draw();

  return {
    update(nextView, nextLegal) {
      current = nextView;
      if (nextLegal) legal = nextLegal;
      input.clear();
      input.endPress();
      draw();
    },
    setLegal(nextLegal) {
      legal = nextLegal || [];
      drawPiles(layout, current, legal);
      drawMoves();
    },
    cancel() {
      input.clear();
    },
    get element() { return layout.board; },
    fit,
    destroy() {
      room.disconnect();
      window.removeEventListener("resize", fit);
      input.destroy();
      layout.board.remove();
    },
  };
}
