// The daily's live edition on the daily page (docs/protocol.md#the-dailys-live-edition): its
// instant in the player's own time, a Join button until the deal, and the game opened the
// moment it is dealt (daily_live.dealt names the race; the race page opens the player's
// session in it). Asking daily_live.get over the socket makes the server follow the editions
// the player joined, so the event reaches this page; it is asked again after each reconnect.

import { h, errorText } from "./dom.js";
import { clock, serverNow } from "./time.js";

function localTime(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// A section for the daily page, or null when the server holds no live edition or the day is
// not today's. Returns {node, destroy}.
export function liveBox(ctx, day) {
  if (!day.live || day.state !== "open") return null;
  const { net } = ctx;
  let live = day.live;
  const status = h("p.live-edition-when", { role: "status" });
  const error = h("p.live-error", { role: "alert" });
  const list = h("ul.live-editions");
  const node = h("section.live-edition", {},
    h("h2", { text: "Live edition" }),
    h("p", { text: "Everyone signed up is dealt the same deal at the same moment, and nobody " +
      "joins after it: a board nobody can scout." }),
    status, error, list);

  const open = (race) => { if (race) location.hash = `#/race/${encodeURIComponent(race)}`; };

  function draw() {
    const before = serverNow() < live.at;
    status.textContent = before
      ? `Dealt at ${localTime(live.at)} (your time), in ${clock(live.at - serverNow())}; ` +
        `${Math.round(live.window / 60)} minutes to play.`
      : serverNow() < live.ends_at ? `Dealt at ${localTime(live.at)}: under way until ${localTime(live.ends_at)}.`
        : "Today's live edition is over.";
    list.replaceChildren(...live.editions.map((e) => h("li.live-edition-item",
      { "data-game": e.game, "data-variant": e.variant, "data-state": e.state },
      `${e.name} (${e.variant}) · ${e.signed_up} signed up`,
      e.joined && !e.session ? " · you are in" : "",
      before && !e.joined ? h("button.primary", {
        type: "button", "data-act": "live-join", text: "Join", onclick: () => join(e),
      }) : null,
      e.session && e.state !== "ended" ? h("button.primary", {
        type: "button", "data-act": "live-play", text: "Play now", onclick: () => open(e.race),
      }) : null)));
  }

  async function refresh() {
    try {
      live = await net.request({ type: "daily_live.get" }); // follows the editions joined
      draw();
    } catch (e) {
      if (e?.code !== "auth.required") error.textContent = errorText(e);
    }
  }

  async function join(e) {
    error.textContent = "";
    try {
      live = await net.request({ type: "daily_live.join", game: e.game, variant: e.variant });
      draw();
    } catch (err) {
      error.textContent = errorText(err);
    }
  }

  const offs = [
    net.on("daily_live.dealt", (e) => { if (e.day === live.day) open(e.race); }),
    net.on("daily_live.ended", refresh),
    net.on("net.welcome", refresh),
  ];
  const ticker = setInterval(draw, 1000);
  draw();
  refresh();
  return {
    node,
    destroy() {
      clearInterval(ticker);
      for (const off of offs) off();
    },
  };
}
