// A random bot in plain JavaScript: the protocol needs no SDK (docs/protocol.md).
//
//   node random-bot.mjs http://127.0.0.1:8000                 # register, one practice game of Golf
//   node random-bot.mjs http://127.0.0.1:8000 TOKEN RACE_ID   # join a race and play it
//
// Node 22+ has WebSocket built in; on Node 20/21 run `node --experimental-websocket ...`.
// Only fetch and WebSocket are used, so it runs in a browser console just as well.

if (typeof WebSocket === "undefined") {        // before anything is registered
  console.error("This Node has no WebSocket: use Node 22 or later, or run "
    + "`node --experimental-websocket random-bot.mjs ...` on Node 20 or 21.");
  process.exit(2);
}

const [server = "http://127.0.0.1:8000", givenToken, raceId] = process.argv.slice(2);
const api = `${server}/api/v1`;

async function register(name) {
  const r = await fetch(`${api}/players`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, kind: "bot" }),
  });
  const body = await r.json();
  if (!r.ok) throw new Error(`${body.code}: ${body.message}`);
  console.log(`registered ${body.player.id}; token (shown once): ${body.token}`);
  return body.token;
}

const token = givenToken ?? await register("js-random");
// Protocol v2: a move's ack carries only what changed (docs/protocol.md, "Protocol v2").
const ws = new WebSocket(`${server.replace(/^http/, "ws")}/api/v1/ws`, ["samedeal.v2.json"]);
let nextId = 1;
const waiting = new Map();                      // request id -> resolve, for replies

function request(message) {                     // send with an id; the reply carries it back
  const id = nextId++;
  ws.send(JSON.stringify({ ...message, id }));
  return new Promise((resolve) => waiting.set(id, resolve));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let raceSession = null;                         // pushed when our race starts
let raceOver = null;

ws.onmessage = ({ data }) => {
  const m = JSON.parse(data);
  if (m.id !== undefined && waiting.has(m.id)) {
    waiting.get(m.id)(m); waiting.delete(m.id);
  } else if (m.type === "session") {
    raceSession = m;
  } else if (m.type === "race.ended") {
    raceOver = m;
  } else if (m.type === "race.joined" || m.type === "race.started") {
    console.log(`event ${m.seq}: ${m.type}`, m.player?.name ?? m.player ?? "");
  }
};

function applyAck(session, ack) {               // the session after an ack, made whole
  if (!ack.changes) return ack;                 // already whole (a session the socket never had)
  const { changes, ...fields } = ack;           // else what changed since session.rev
  const piles = { ...session.view.piles, ...changes.piles };
  return { ...session, ...fields, view: { ...session.view, ...changes, piles } };
}

async function play(session) {                  // random legal moves until the game is over
  while (session.view.status === "playing" && session.legal.length) {
    const move = session.legal[Math.floor(Math.random() * session.legal.length)];
    const reply = await request({ type: "move", session: session.session, move, rev: session.rev });
    if (reply.type === "error") {
      if (reply.code === "race.not_started") { await sleep(200); continue; }
      if (reply.code === "race.over") break;
      throw new Error(`${reply.code}: ${reply.message}`);
    }
    session = reply.rev === session.rev + 1       // the ack: the new view and legal moves
      ? applyAck(session, reply)
      : await request({ type: "session.get", session: session.session }); // a gap: read it all
  }
  console.log(`session ${session.session}: ${session.view.status}, score ${session.view.score}, ` +
              `${session.view.moves} moves`);
}

ws.onopen = async () => {
  const welcome = await request({ type: "hello", token });
  if (welcome.type === "error") throw new Error(`${welcome.code}: ${welcome.message}`);
  console.log(`hello, ${welcome.player.name} (${ws.protocol})`);
  if (raceId) {
    const race = await request({ type: "race.join", race: raceId });
    if (race.type === "error") throw new Error(`${race.code}: ${race.message}`);
    while (!raceSession && !raceOver) await sleep(100);    // the start pushes our session
    if (raceSession) await play(raceSession);
    while (!raceOver) await sleep(100);
    for (const r of raceOver.ranking) console.log(`${r.rank}. ${r.name} ${r.status} ${r.score}`);
    console.log(`seed ${raceOver.seed}`);
  } else {
    await play(await request({ type: "solo.start", game: "golf", variant: "easy" }));
  }
  ws.close();
};
