// Hints in practice (docs/protocol.md "Hints"): the Hint button and the H key ask the server
// for the next move, and the board shows it, not played: the cards that would move and where
// they would go are outlined until the board changes. A hint from the solver's winning line
// says so; otherwise the server's heuristic gave "a likely move", and where the search proved
// that no line from here wins, the note says that too. The move is said in the server's card
// words ("the 7♠ onto the 8♥"), the same in every client, in a note laid over the board (its
// top, or its bottom when that hides less of the move) so the board never moves.

import { h } from "./dom.js";
import { parseMove } from "./moves.js";
import { moveWords } from "./words.js";

// The sessions the server gives hints in (its allow-list): practice and replays of a
// revealed day. Elsewhere no button is shown and the key does nothing.
export function hintAllowed(mode) {
  return mode === "practice" || mode === "daily-replay";
}

// net: the socket; current(): the session payload shown; boardEl: the element holding the board;
// ruleSet: the catalog's entry, whose words name the hinted move when the reply has none.
// Returns {button, note, ask(), clear(), count}: count is the session's hints so far, as the
// server last said (0 before the first).
export function hintControl(net, current, boardEl, ruleSet) {
  const button = h("button.hint", { type: "button", text: "Hint", title: "show a good next move (H)",
    "aria-keyshortcuts": "H", onclick: () => ask() });
  const note = h("p.hint-note", { role: "status" });
  note.hidden = true;
  let asking = false;
  let count = 0;

  function clear() {
    for (const el of boardEl.querySelectorAll(".hinted")) el.classList.remove("hinted");
    note.hidden = true;
    note.textContent = "";
  }

  const pileEl = (name) => boardEl.querySelector(`.pile[data-pile="${CSS.escape(name)}"]`);
  const topCards = (name, n) => {
    const pile = pileEl(name);
    return pile ? [...pile.querySelectorAll(":scope > .card:not(.back)")].slice(-n) : [];
  };

  // The move's cards and target (or its pile, or its button, for a named move).
  function mark(text) {
    const m = parseMove(text);
    let els = [];
    if (m.from) els = [...topCards(m.from, m.n), pileEl(m.to)];
    else if (m.remove) els = m.remove.flatMap((p) => topCards(p, 1));
    else {
      const pile = pileEl(text.includes(":") ? text.split(":")[1] : text);
      const named = boardEl.querySelector(
        `.named-move[data-move="${CSS.escape(text)}"]`);
      els = [pile || named];
    }
    for (const el of els) el?.classList.add("hinted");
    return els.filter(Boolean);
  }

  // The note lies over the board's top, or its bottom where fewer of the hinted cards and
  // piles are under it: the board never moves for it, and the move it names stays in sight.
  function place(els) {
    const under = () => {
      const n = note.getBoundingClientRect();
      return els.filter((el) => {
        const r = el.getBoundingClientRect();
        return r.bottom > n.top && r.top < n.bottom && r.right > n.left && r.left < n.right;
      }).length;
    };
    note.classList.remove("low");
    const top = under();
    if (!top) return;
    note.classList.add("low");
    if (under() >= top) note.classList.remove("low");
  }

  async function ask() {
    const payload = current();
    if (asking || !hintAllowed(payload.mode) || payload.view.status !== "playing") return;
    asking = true;
    button.disabled = true;
    clear();
    try {
      const s = await net.request({ type: "hint", session: payload.session });
      count = s.hints ?? count;
      if (s.session !== current().session || s.rev !== current().rev) return; // moved on
      let els = [];
      if (!s.move) {
        note.textContent = "No move is left.";
      } else {
        els = mark(s.move);
        note.dataset.move = s.move;
        note.dataset.source = s.source;
        note.title = s.move; // the notation, for a player who reads it
        // The server's card words ("the 7♠ onto the 8♥"), else the notation read here.
        const said = s.words || moveWords(ruleSet, s.move, current().view);
        note.textContent = s.source === "solver"
          ? `Hint: ${said} (a winning line: ${s.line_left} moves to go)`
          : s.lost
            ? `Hint: ${said} (no winning line is left from here: a likely move)`
            : `Hint: ${said} (no winning line found: a likely move)`;
      }
      note.hidden = false;
      place(els);
    } catch (e) {
      note.textContent = e.message || String(e);
      note.hidden = false;
    } finally {
      asking = false;
      button.disabled = false;
    }
  }

  return { button, note, ask, clear, get count() { return count; } };
}
