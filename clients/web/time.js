// Time on the live pages: the server's clock as seen from this browser, and times as players
// read them (a countdown, a time played, a finishing time).

// Server times are Unix ms by the store's clock; the browser's clock may be off. The offset is
// measured once from daily.get's `now` (halfway through the round trip) and kept.
let clockOffset = null;
export async function syncClock(net) {
  if (clockOffset !== null) return clockOffset;
  try {
    const t0 = Date.now();
    const day = await net.request({ type: "daily.get" });
    const t1 = Date.now();
    clockOffset = day.now - (t0 + t1) / 2;
  } catch {
    return 0; // try again next time; meanwhile trust the local clock
  }
  return clockOffset;
}
export function serverNow() {
  return Date.now() + (clockOffset ?? 0);
}

// 75_300 -> "1:15", 5_400_000 -> "1:30:00"; for a countdown or a time left (rounded up, so
// 0:00 means over).
export function clock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const mm = `${Math.floor(s / 60) % 60}:${String(s % 60).padStart(2, "0")}`;
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm.padStart(5, "0")}` : mm;
}

// 75_900 -> "1:15"; for the time a game has taken so far (rounded down: a second shows once it
// has passed).
export function elapsed(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// 75_340 -> "1:15.3"; for a finishing time.
export function duration(ms) {
  if (ms === null || ms === undefined) return "—";
  const t = Math.max(0, Math.round(ms / 100));
  const s = Math.floor(t / 10);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}.${t % 10}`;
}
