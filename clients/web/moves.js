// The move notation (docs/notation.md) as the board builds and reads it.

// "t3:4-t5" -> {from: "t3", n: 4, to: "t5"}; "t3+t5" -> {remove: ["t3", "t5"]}; else {named}.
export function parseMove(text) {
  const m = /^([a-z]+\d*)(?::(\d+))?-([a-z]+\d*)$/.exec(text);
  if (m) return { from: m[1], n: m[2] ? Number(m[2]) : 1, to: m[3] };
  if (text.includes("+")) return { remove: text.split("+").filter(Boolean) };
  return { named: text };
}

// ("t3", 4, "t5") -> "t3:4-t5"; one card needs no count.
export function moveText(from, n, to) {
  return n > 1 ? `${from}:${n}-${to}` : `${from}-${to}`;
}
