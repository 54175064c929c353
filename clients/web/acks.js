// Protocol v2's acks (docs/protocol.md, "Protocol v2"): an ack carries what changed since the
// revision before it; the connection rebuilds the whole session payload from the one it had,
// so pages always see a full `session`. In a race the ack stands in for the mover's own
// race.progress event, which v2 does not send: the connection makes that event from it.

// The whole payload after `ack`, given the session's payload before it (or undefined);
// null when that is not the revision before the ack's (the page then reads the session).
export function applyAck(before, ack) {
  if (!ack.changes) return ack;
  if (before && before.rev >= ack.rev) return before; // a newer push overtook the ack
  if (!before || before.rev !== ack.rev - 1) return null;
  const { changes, ...fields } = ack;
  const view = { ...before.view, ...changes, piles: { ...before.view.piles, ...(changes.piles || {}) } };
  return { ...before, ...fields, view };
}

// The race.progress event a v2 race ack stands in for: its race is the session payload's own
// word, never cut out of the session's id (ids carry no meaning).
export function ownProgress(whole, ack, player) {
  return {
    type: "race.progress", race: whole.race, player,
    moves: whole.view.moves, score: whole.view.score, cards: ack.cards ?? 0,
    status: whole.view.status, seq: ack.seq,
  };
}
