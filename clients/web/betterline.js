// The better line from a game's turning point, stepped through on the replay's board. Like the
// replay itself (replay.js), it deals the seed again as a practice game of its own, plays the
// game's moves up to the turning point and then the line's moves as the player steps, keeping
// every board the server answers. The line's last move ends the game (a win, or the best score
// of a game played for points): it is described, never played, so the line never counts in the
// viewer's own statistics.

import { errorText } from "./dom.js";
import { moveWords } from "./words.js";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// t: the transcript; tp: the analysis's turning point; host: the replay's stepper;
// changed(): called when the step shown changes (the panel redraws its buttons).
export function betterLine(ctx, t, tp, host, changed) {
  const { net } = ctx;
  const from = tp.move_number - 1; // the position before the turning move
  const line = tp.better;
  const playable = line.length - 1;
  const views = []; // views[i]: the board after i moves of the line
  let sid = null;
  let sent = 0;
  let failed = null;
  let dead = false;
  let at = 0;
  let busy = Promise.resolve();

  async function send(move) {
    const ack = await net.request({ type: "move", session: sid, move, rev: sent });
    if (++sent % 50 === 0) await sleep(300); // stay well under the socket's rate limit
    return ack.view;
  }

  async function reach(n) {
    if (!sid) {
      const s = await net.request({ type: "solo.start", game: t.game, variant: t.variant, seed: t.seed });
      sid = s.session;
      let view = s.view;
      for (let k = 0; k < from && !dead; k++) view = await send(t.moves[k]);
      views[0] = view;
    }
    while (views.length - 1 < Math.min(n, playable) && !dead) {
      views.push(await send(line[views.length - 1]));
    }
  }

  // A game played for points has a best score at the line's end rather than a win.
  const points = tp.to_go == null && tp.score_before != null;
  function text(i) {
    if (failed) return failed;
    if (i === 0) {
      const end = points ? `to a score of ${tp.score_before}` : "to the win";
      return `Before move ${tp.move_number}: the better line starts here, ${line.length} moves ${end}.`;
    }
    const words = moveWords(host.rules, line[i - 1], views[i - 1] ?? null);
    const last = points ? " — this move ends the game." : " — this move wins the game.";
    return `Better line, move ${i} of ${line.length}: ${words}${i === line.length ? last : "."}`;
  }

  async function step(n) {
    n = Math.max(0, Math.min(line.length, n));
    at = n;
    changed();
    if (!sid && !failed) host.show(null, `Playing the game up to move ${from} to start the better line…`, `Better line ${n} of ${line.length}`);
    busy = busy.then(() => reach(n)).catch((e) => { failed = `The better line did not replay: ${errorText(e)}`; });
    await busy;
    if (dead || at !== n) return;
    const view = views[Math.min(n, views.length - 1)];
    host.show(view ?? null, text(n), `Better line ${n} of ${line.length}`);
  }

  return {
    step,
    get at() { return at; },
    length: line.length,
    destroy() { dead = true; },
  };
}
