// Moves seen as moves: after the board is redrawn, a card that changed place slides from where
// it was, and a card newly face up flips over. The board is already the new one while they run:
// each card stands in its new place at once (unseen until its animation ends, but there for a
// tap), and a copy that takes no pointer events does the sliding or the flipping over it. So a
// tap during an animation acts on the new board, and a transform never moves the board's box.
// Both are CSS animations (look.css, "moves animate"), so the system's reduced-motion setting
// and the player's switch still them in one place. With sounds on, a move makes a card sound.
import { animating, sounding } from "./look.js";

const MANY = 12; // more cards changed than this is a new deal, not a move: drawn as it is

// Where each face-up card is before a redraw: card text -> its box; null when moves neither
// animate nor sound, so that a redraw reads no boxes for nothing.
export function snapshot(board) {
  if (!animating() && !sounding()) return null;
  const at = new Map();
  for (const el of board.querySelectorAll(".pile > .card:not(.back)")) {
    at.set(el.dataset.card, el.getBoundingClientRect());
  }
  return at;
}

// After the redraw: slide the cards that moved, flip the ones turned up; a sound if any did.
// Every box is read before anything is written: a read after a write would lay the page out
// again, once a card.
export function animateChange(board, before) {
  for (const copy of document.querySelectorAll(".card.moving")) copy.remove(); // a newer board
  if (!before) return;
  const moved = [];
  const turned = [];
  for (const el of board.querySelectorAll(".pile > .card:not(.back)")) {
    const was = before.get(el.dataset.card);
    const now = el.getBoundingClientRect();
    if (!was) { turned.push([el, now, 0, 0]); continue; }
    const dx = was.left - now.left;
    const dy = was.top - now.top;
    if (Math.abs(dx) > 0.5 || Math.abs(dy) > 0.5) moved.push([el, now, dx, dy]);
  }
  const changed = moved.length + turned.length;
  if (!changed || before.size === 0) return;
  const cw = getComputedStyle(board).getPropertyValue("--cw");
  if (sounding()) cardSound();
  if (!animating() || changed > MANY) return;
  for (const card of moved) stand("glide", cw, ...card);
  for (const card of turned) stand("flip", cw, ...card);
}

// The card waits unseen in its place (its box `r`) while its copy moves over it: `kind` is
// glide or flip.
function stand(kind, cw, el, r, dx, dy) {
  el.classList.add(kind);
  const copy = el.cloneNode(true);
  for (const a of ["data-card", "data-pile", "data-index", "role", "aria-label", "tabindex"]) {
    copy.removeAttribute(a);
  }
  copy.setAttribute("aria-hidden", "true");
  copy.classList.remove("glide", "flip", "selected", "hinted", "dragging");
  copy.classList.add("moving", kind);
  if (el.parentElement?.classList.contains("fan-down")) copy.classList.add("strip");
  const st = copy.style;
  st.setProperty("--cw", cw);
  st.setProperty("--from-x", `${dx}px`);
  st.setProperty("--from-y", `${dy}px`);
  st.left = `${r.left}px`;
  st.top = `${r.top}px`;
  st.width = `${r.width}px`;
  st.height = `${r.height}px`;
  copy.addEventListener("animationend", () => copy.remove());
  copy.addEventListener("animationcancel", () => copy.remove());
  document.body.append(copy);
  setTimeout(() => copy.remove(), 1000); // however its animation went
}

let audio = null;

// A soft card sound: a short burst of filtered noise, made here (no sound file to load). The
// number played is kept on the root element, where a page's tests can read it.
export function cardSound() {
  const root = document.documentElement;
  root.dataset.sounds = String(Number(root.dataset.sounds || 0) + 1);
  try {
    audio ??= new AudioContext();
    const length = Math.floor(audio.sampleRate * 0.06);
    const buffer = audio.createBuffer(1, length, audio.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
    const source = audio.createBufferSource();
    source.buffer = buffer;
    const filter = audio.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = 1800;
    const gain = audio.createGain();
    gain.gain.value = 0.25;
    source.connect(filter).connect(gain).connect(audio.destination);
    source.start();
  } catch { /* no audio here: the move stands without its sound */ }
}
