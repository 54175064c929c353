// The board sized to the room it has: cards as large as the page's width and the viewport's
// height both allow, so a whole board shows without scrolling either way, after the deal and
// as the game grows. Columns fanned down get a fixed depth below their first card and fan their
// cards closer as they grow; piles fanned to the right get a fixed width the same way. The board
// therefore keeps its size from move to move: the next click lands where the player aimed.
// Once fitted, its box is held at that size (with a line's room under it for the named-move
// buttons and facts that come and go during play), so nothing it shows later moves it.

const MAX_CW = 112; // px: cards stop growing here on large screens
const MIN_CW = 16; // px: below this even the corner's rank is unreadable
const DEPTH_MIN = 2.4; // card heights a column may grow below its first card, at least
const DEPTH_MAX = 9;
const UP = 0.26; // the card heights each face-up card shows below the one it lies on
const BACK = 0.14; // the same for a card lying on a face-down card
const RIGHT = 0.55; // the card widths each card of a right fan shows beside the one under it
const FAN_WIDE = 2.1; // card widths a right-fanned pile of the main area is given (three cards)
const BELOW = 16; // px kept free under the board (the page's padding)
const SPARE = 36; // px held under the board's content for a line of buttons or facts to come
const SHORT = 500; // px: a screen this short (a phone held sideways) may stand a row of columns
                   // in one line, wider than the description's width, where cards come larger

// Sets the card width (--cw) and the columns' depth (--depth) on the board from the room around
// it, with the facts under the board or beside it (whichever leaves larger cards), then fans
// every pile into its room. Called once the board is in the page, and when the room changes.
export function fitBoard(board) {
  if (!board.isConnected || !board.parentElement) return;
  board.classList.remove("held");
  board.style.removeProperty("width");
  board.style.removeProperty("height");
  board.dataset.width ??= board.style.getPropertyValue("--cols") || "7";
  const described = Number(board.dataset.width);
  const widest = Math.max(0, ...[...board.querySelectorAll(".board-main .group.fan-down > .row")]
    .map((row) => row.querySelectorAll(":scope > .pile").length));
  const widths = window.innerHeight < SHORT && widest > described ? [described, widest] : [described];
  const info = board.querySelector(".board-info");
  const sides = info && info.childElementCount ? [false, true] : [false];
  let best = null;
  measured.set(board, new Map());
  for (const cols of widths) {
    board.style.setProperty("--cols", String(cols));
    for (const beside of sides) {
      const o = sizeFor(board, beside, best);
      if (o && (!best || better(o, best))) best = { cols, beside, ...o };
    }
  }
  measured.delete(board);
  board.style.setProperty("--cols", String(best.cols));
  board.classList.toggle("facts-beside", best.beside);
  setSize(board, best.cw, best.depth);
  fanPiles(board);
  hold(board, best.room);
}

// Whether a size beats another: one that fits the room beats one that does not (a line-score
// table under a narrow board wraps into a column far taller than the screen, whatever its
// cards), then the larger cards, or among sizes too tall for the room the shorter board.
function better(o, best) {
  if (o.fits !== best.fits) return o.fits;
  return o.fits ? o.cw > best.cw : o.height < best.height;
}

// The board's box, held: what appears under the cards later (a redeal button, a chip, a longer
// line-score table) takes the spare room or scrolls inside the board, never moves it.
function hold(board, room) {
  const box = board.getBoundingClientRect();
  board.style.width = `${box.width}px`;
  board.style.height = `${Math.max(box.height, Math.min(room, box.height + SPARE))}px`;
  board.classList.add("held");
}

// {cw, depth, room, height, fits}: the largest cards that fit, with the facts under the board
// or beside it; the board's height at that size, and whether it fits the room. Null when the
// room across allows no larger cards than `best`, a size that fits: that one wins (`better`),
// and the measures of this one, a layout of the page each, are spared.
function sizeFor(board, beside, best) {
  board.classList.toggle("facts-beside", beside);
  const cols = Number(board.style.getPropertyValue("--cols")) || 7;
  const wide = board.parentElement.clientWidth;
  const top = board.getBoundingClientRect().top + window.scrollY;
  const room = Math.max(window.innerHeight - top - BELOW, window.innerHeight * 0.5);
  const fill = room - SPARE; // the cards leave the spare line free
  // Across: the padding, the columns and their gaps, and beside them the facts and a gap.
  const facts = beside ? board.querySelector(".board-info").getBoundingClientRect().width : 0;
  const across = beside ? cols * 1.12 + 0.36 : cols * 1.12 + 0.12;
  const byWidth = Math.min(MAX_CW, (wide - facts) / across);
  if (best?.fits && best.cw >= Math.max(MIN_CW, byWidth)) return null;
  if (byWidth < MIN_CW) return sized(board, MIN_CW, DEPTH_MIN, room, fill);

  // The board's height is linear in the card width (all but its text scales with it) and in
  // the columns' depth: two measures of each give the sizes that fill the room exactly.
  const h1 = heightAt(board, byWidth, DEPTH_MIN);
  let cw = byWidth;
  if (h1 > fill) {
    const h2 = heightAt(board, byWidth / 2, DEPTH_MIN);
    const slope = (h1 - h2) / (byWidth / 2);
    cw = slope > 0 ? (fill - (h1 - slope * byWidth)) / slope : byWidth;
    // What does not scale (text under the board, borders) can make that a little too large.
    for (let i = 0; i < 3 && cw > MIN_CW; i++) {
      const h = heightAt(board, cw, DEPTH_MIN);
      if (h <= fill) break;
      cw *= fill / h;
    }
    cw = grow(board, Math.max(MIN_CW, cw), byWidth, h1, fill);
  }
  cw = Math.floor(Math.max(MIN_CW, Math.min(byWidth, cw)) * 4) / 4;
  let depth = DEPTH_MIN;
  if (board.querySelector(".pile.fan-down")) {
    const at = heightAt(board, cw, DEPTH_MIN);
    const perDepth = heightAt(board, cw, DEPTH_MIN + 1) - at;
    if (perDepth > 0) depth = Math.min(DEPTH_MAX, DEPTH_MIN + Math.max(0, fill - at) / perDepth);
  }
  return sized(board, cw, depth, room, fill);
}

// Facts beside the cards that are taller than small cards hold the board's height up below some
// card width, so the line through the two measures falls short of the room there (a called-card
// grid's ten line scores held sideways: 27 px cards where 31 fit): secant steps between the
// largest width that fits and the smallest too tall reach the largest that fits.
function grow(board, lo, hi, hHi, fill) {
  let hLo = heightAt(board, lo, DEPTH_MIN);
  for (let i = 0; i < 4 && hLo <= fill; i++) {
    const next = lo + ((hi - lo) * (fill - hLo)) / (hHi - hLo);
    if (next - lo < 0.25) break;
    const h = heightAt(board, next, DEPTH_MIN);
    if (h <= fill) [lo, hLo] = [next, h];
    else [hi, hHi] = [next, h];
  }
  return lo;
}

function sized(board, cw, depth, room, fill) {
  const height = heightAt(board, cw, depth);
  return { cw, depth, room, height, fits: height <= fill + 1 };
}

// Every pile's cards spread within its room: after the size is set and after each move.
export function fanPiles(board) {
  const cw = Number.parseFloat(board.style.getPropertyValue("--cw"));
  if (!cw) return;
  const ch = cw * 1.4;
  const depth = Number.parseFloat(board.style.getPropertyValue("--depth")) || DEPTH_MIN;
  for (const pile of board.querySelectorAll(".pile.fan-down")) fanDown(pile, ch, depth * ch);
  for (const pile of board.querySelectorAll(".board-main .pile.fan-right")) {
    fanRight(pile, cw, (FAN_WIDE - 1) * cw);
  }
  const band = board.querySelector(".board-top");
  const fans = band ? [...band.querySelectorAll(".pile.fan-right")] : [];
  for (const pile of fans) fanRight(pile, cw, Infinity);
  if (!fans.length) return;
  // The top band keeps one line: its right-fanned piles (a waste) close up into what is left.
  const over = band.scrollWidth - band.clientWidth;
  if (over <= 0) return;
  const steps = fans.reduce((n, p) => n + shownSteps(p), 0);
  for (const pile of fans) {
    const width = shownSteps(pile) * (RIGHT * cw - over / steps);
    fanRight(pile, cw, Math.max(width, 0));
  }
}

// The heights a fitting measured, by the board's columns, facts' side, card width and depth:
// the steps of its searches often come back to a size (about one layout in six).
const measured = new WeakMap();

function heightAt(board, cw, depth) {
  setSize(board, cw, depth);
  const seen = measured.get(board);
  const side = board.classList.contains("facts-beside");
  const key = `${board.style.getPropertyValue("--cols")} ${side} ${cw} ${depth}`;
  let height = seen?.get(key);
  if (height === undefined) {
    height = board.getBoundingClientRect().height;
    seen?.set(key, height);
  }
  return height;
}

function setSize(board, cw, depth) {
  board.style.setProperty("--cw", `${cw}px`);
  board.style.setProperty("--depth", String(depth));
}

// A column: its cards' steps shrink together when their natural fan is deeper than its room.
function fanDown(pile, ch, room) {
  const cards = [...pile.querySelectorAll(":scope > .card")];
  let need = 0;
  for (let i = 1; i < cards.length; i++) need += cards[i - 1].classList.contains("back") ? BACK : UP;
  const scale = need * ch > room ? room / (need * ch) : 1;
  pile.style.setProperty("--up-step", `${UP * ch * scale}px`);
  pile.style.setProperty("--back-step", `${BACK * ch * scale}px`);
}

// A right fan: the cards it shows (the description's `show`, or all) spread over at most
// `room` beyond the first card; cards under them are squared up beneath the first shown.
function fanRight(pile, cw, room) {
  const steps = shownSteps(pile);
  const step = steps ? Math.min(RIGHT * cw, room / steps) : RIGHT * cw;
  pile.style.setProperty("--right-step", `${step}px`);
}

function shownSteps(pile) {
  return pile.querySelectorAll(":scope > .card:not(.squared)").length - 1;
}
