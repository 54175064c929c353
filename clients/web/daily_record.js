// What this browser knows of the player's ranked daily attempts today: which deals they have
// started (the session) and, once over, how they ended (status, score, rank). The day's page
// is the same for everyone, so this is how the front door and the daily page know not to offer
// "Ranked" again; the leaderboard and a `daily.played` refusal add what another browser did.

const KEY = "samedeal.daily.mine";

function todayUTC() {
  return new Date().toISOString().slice(0, 10);
}

export function dailyRecord(player, day = todayUTC()) {
  let rec;
  try { rec = JSON.parse(localStorage.getItem(KEY) || "null"); } catch { rec = null; }
  if (!rec || rec.player !== player || rec.day !== day) rec = { player, day, deals: {} };
  return {
    // {session?, status?, score?, rank?, total?} of a deal the player has started, else null
    played: (game, variant) => rec.deals[`${game}/${variant}`] || null,
    note(game, variant, info) {
      const k = `${game}/${variant}`;
      rec.deals[k] = { ...rec.deals[k], ...info };
      localStorage.setItem(KEY, JSON.stringify(rec)); // one day's record: yesterday's goes
    },
  };
}
