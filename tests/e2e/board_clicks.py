"""Playing a practice board by clicks, in the page: each move of a line is turned into the clicks
a player makes (the card to pick up, then the pile to drop it on; the stock; the cards of a
removal; a named move's button), each dispatched at a point where that card or pile shows (the
element under the point, as a finger would hit it), and the board's box is read after every
move. Runs in the page so that 30 moves on each of 60 rule sets at five sizes stay quick."""

from __future__ import annotations

# ([moves]) -> {played, failed, moved: [[move, box]], box, scrolled}: `box` is the board's
# getBoundingClientRect (top, left, width, height) at the start; `moved` lists each move after
# which it differed, `scrolled` the moves after which the page was scrolled.
PLAY_BY_CLICKS = """
async ([moves]) => {
  const session = document.querySelector('.session');
  const board = session.querySelector('.board');
  const rev = () => Number(session.dataset.rev);
  const boxOf = () => {
    const r = board.getBoundingClientRect();
    return [r.top, r.left, r.width, r.height].map((x) => Math.round(x * 10) / 10);
  };
  const pile = (name) => board.querySelector(`.pile[data-pile="${name}"]`);
  // A point where `el` itself is what the pointer hits (a card's visible strip).
  const spot = (el) => {
    const r = el.getBoundingClientRect();
    for (const fy of [0.5, 0.1, 0.05, 0.3, 0.7, 0.9]) {
      for (const fx of [0.5, 0.2, 0.8, 0.05, 0.95]) {
        const x = r.left + r.width * fx, y = r.top + r.height * fy;
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === el || el.contains(hit))) return [x, y, hit];
      }
    }
    return null;
  };
  const click = (el) => {
    const at = spot(el);
    if (!at) return false;
    const [x, y, hit] = at;
    const o = {bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0,
               pointerId: 1, pointerType: 'mouse', isPrimary: true, view: window};
    hit.dispatchEvent(new PointerEvent('pointerdown', o));
    hit.dispatchEvent(new PointerEvent('pointerup', o));
    hit.dispatchEvent(new MouseEvent('click', {...o, detail: 1}));
    return true;
  };
  const card = (name, index) => pile(name)?.querySelector(`:scope > .card[data-index="${index}"]`);
  const top = (name) => [...(pile(name)?.querySelectorAll(':scope > .card') || [])].pop();
  const selected = () => board.querySelector('.pile.selected') !== null;
  // Resolves once the session's revision reaches r (true), or after 4 s without (false).
  const until = (r) => new Promise((ok) => {
    if (rev() >= r) return ok(true);
    const seen = new MutationObserver(() => {
      if (rev() >= r) { seen.disconnect(); clearTimeout(late); ok(true); }
    });
    const late = setTimeout(() => { seen.disconnect(); ok(rev() >= r); }, 4000);
    seen.observe(session, {attributes: true, attributeFilter: ['data-rev']});
  });
  // The clicks of one move, each a function giving the element to click (or null).
  const clicksOf = (m) => {
    const b = /^([a-z]+\\d*)(?::(\\d+))?-([a-z]+\\d*)$/.exec(m);
    if (b) {
      const [, from, n, to] = b;
      const cards = pile(from)?.querySelectorAll(':scope > .card').length || 0;
      const first = from === 's' || pile(from)?.classList.contains('kind-stock')
        ? () => top(from) || pile(from) : () => card(from, cards - Number(n || 1));
      return [first, () => pile(to)];
    }
    if (m === 's') return [() => board.querySelector('.pile.kind-stock')];
    if (m.includes('+')) return m.split('+').filter(Boolean).map((p) => () => top(p));
    const shift = /^(left|right):(.+)$/.exec(m);
    if (shift) return [() => pile(shift[2])?.querySelector(`button.slide-${shift[1]}`)];
    return [() => board.querySelector(`button.named-move[data-move="${m}"]`)];
  };
  const start = boxOf();
  const out = {played: 0, failed: null, moved: [], box: start, scrolled: []};
  for (const m of moves) {
    const at = rev();
    const steps = clicksOf(m);
    for (const [i, step] of steps.entries()) {
      const el = step();
      if (!el || !click(el)) { out.failed = `${m}: nothing to click at step ${i + 1}`; break; }
      // One click was enough (a single legal move): the move is on its way.
      if (i < steps.length - 1 && !selected()) break;
    }
    if (out.failed) break;
    if (!(await until(at + 1))) {
      const why = session.querySelector('.refusal')?.textContent || 'no answer';
      out.failed = `${m}: not played (${why})`;
      break;
    }
    out.played += 1;
    const now = boxOf();
    if (now.some((v, i) => Math.abs(v - start[i]) > 0.5)) out.moved.push([m, now]);
    if (scrollX || scrollY) out.scrolled.push(m);
  }
  return out;
}
"""

# () -> the cards a player can play now (each legal move's source card, or the stock) whose
# box leaves the viewport, as "pile card" texts.
OFF_SCREEN = """
async () => {
  const session = document.querySelector('.session');
  const board = session.querySelector('.board');
  const sid = session.dataset.session;
  const payload = await samedeal.net.request({type: 'session.get', session: sid});
  const out = [];
  for (const m of payload.legal) {
    const b = /^([a-z]+\\d*)(?::(\\d+))?-([a-z]+\\d*)$/.exec(m);
    const from = b ? [[b[1], Number(b[2] || 1)]]
      : m.includes('+') ? m.split('+').filter(Boolean).map((p) => [p, 1]) : [];
    for (const [name, n] of from) {
      const pile = board.querySelector(`.pile[data-pile="${name}"]`);
      if (!pile) continue;
      const cards = [...pile.querySelectorAll(':scope > .card')];
      const el = cards[cards.length - n] || pile;
      const r = el.getBoundingClientRect();
      if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
        out.push(`${name} ${el.dataset.card || 'pile'}`);
      }
    }
  }
  return [...new Set(out)];
}
"""
