// What a board guarantees against a player with a second account (docs/fairness.md): the
// server's `format` of a board, in players' words, under the board's title.

import { h } from "./dom.js";

const NOTES = {
  live: "Live board: everyone on it was dealt this deal at the same instant, so nobody could play it first.",
  open: "Open board: each player was dealt this deal when they started, so a second account could have played it first.",
};

export function formatNote(format) {
  const text = NOTES[format];
  return text ? h("p.board-format", { "data-format": format, text }) : null;
}
