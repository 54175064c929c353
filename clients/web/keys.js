// The session's keyboard shortcuts: the keys that act anywhere on the page while a game is shown
// (undo, auto-complete, this help), and the "?" panel that lists them with the board's own keys
// (input.js). Keys typed into a text field are left alone.

import { h } from "./dom.js";

// [keys, what they do], in the order a player learns them.
const KEYS = [
  ["?", "show or hide this list"],
  ["Tab", "go to the next pile (every pile is a tab stop)"],
  ["← →", "go to the pile before or after"],
  ["Enter or Space", "pick up the focused pile's top card, or drop the picked cards on it"],
  ["↑ ↓", "pick up more or fewer cards of the picked column"],
  ["F", "send the focused pile's top card to a foundation"],
  ["Escape", "put the picked cards down; close this list"],
  ["U or Ctrl+Z", "undo"],
  ["A", "auto-complete, once nothing is hidden"],
  ["H", "a hint: the next move, shown on the board (practice and replays)"],
];

// The "?" button and its panel; returns {button, panel, toggle()}.
export function keysHelp() {
  const panel = h("dialog.keys-help", { "aria-label": "keyboard shortcuts" },
    h("h2", { text: "Keyboard shortcuts" }),
    h("dl", {}, KEYS.map(([keys, what]) => [h("dt", {}, h("kbd", { text: keys })),
      h("dd", { text: what })])),
    h("button", { type: "button", "data-act": "close-keys", text: "Close",
      onclick: () => panel.close() }));
  const button = h("button.keys", { type: "button", text: "?", title: "keyboard shortcuts",
    "aria-label": "keyboard shortcuts", "aria-keyshortcuts": "Shift+?" });
  const toggle = () => (panel.open ? panel.close() : panel.showModal());
  button.addEventListener("click", toggle);
  return { button, panel, toggle };
}

function typing(target) {
  return target instanceof HTMLElement
    && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

// Listens on the whole page; actions: {help, undo, autoComplete, hint}. Returns the way to stop.
export function listenKeys(actions) {
  function onKey(e) {
    if (e.defaultPrevented || typing(e.target) || e.altKey) return;
    const key = e.key;
    let act = null;
    if ((e.ctrlKey || e.metaKey) && (key === "z" || key === "Z") && !e.shiftKey) act = actions.undo;
    else if (e.ctrlKey || e.metaKey) return;
    else if (key === "?") act = actions.help;
    else if (key === "u" || key === "U") act = actions.undo;
    else if (key === "a" || key === "A") act = actions.autoComplete;
    else if (key === "h" || key === "H") act = actions.hint;
    if (!act) return;
    e.preventDefault();
    act();
  }
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
