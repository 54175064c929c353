// The revealed seed checked against the commitment published before play: SHA-256 of the seed,
// computed here in the browser so a player need not trust the server's word for it. The race,
// match, daily and replay pages show it.

import { h, errorText } from "./dom.js";

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
const toHex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

// SHA-256 of the seed's bytes, as lowercase hex. crypto.subtle exists only in secure contexts
// (https, localhost); a plain-http deployment gets the small implementation below instead.
export async function sha256Hex(hex) {
  const bytes = hexBytes(hex);
  if (globalThis.crypto?.subtle) return toHex(await crypto.subtle.digest("SHA-256", bytes));
  return toHex(sha256(bytes));
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

function sha256(msg) {
  const len = msg.length;
  const padded = new Uint8Array(((len + 9 + 63) >> 6) << 6);
  padded.set(msg);
  padded[len] = 0x80;
  const dv = new DataView(padded.buffer);
  dv.setUint32(padded.length - 4, len * 8);
  dv.setUint32(padded.length - 8, Math.floor(len / 0x20000000));
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rot = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rot(w[i - 15], 7) ^ rot(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rot(w[i - 2], 17) ^ rot(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = H;
    for (let i = 0; i < 64; i++) {
      const t1 = hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      const t2 = (rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += hh;
  }
  const out = new DataView(new ArrayBuffer(32));
  H.forEach((v, i) => out.setUint32(4 * i, v));
  return out.buffer;
}

// The revealed seed and its commitment, with the check's verdict once computed.
export function seedReveal(seed, commitment) {
  const verdict = h("p.seed-check", { "data-ok": "pending", text: "Checking SHA-256(seed)…" });
  const box = h("div.seed-reveal", {},
    h("p", {}, h("span", { text: "Seed: " }), h("code.seed", { text: seed || "not revealed yet" })),
    h("p", {}, h("span", { text: "Commitment: " }), h("code.commitment", { text: commitment || "—" })),
    verdict);
  if (!seed || !commitment) {
    verdict.dataset.ok = "unknown";
    verdict.textContent = "The seed is revealed when play is over.";
    return box;
  }
  sha256Hex(seed).then((digest) => {
    const ok = digest === commitment.toLowerCase();
    verdict.dataset.ok = ok ? "yes" : "no";
    verdict.textContent = ok
      ? "✓ SHA-256(seed) matches the commitment published before play: this was the deal."
      : `✗ SHA-256(seed) is ${digest}, not the commitment: this seed is not the one committed to.`;
  }, (e) => {
    verdict.dataset.ok = "unknown";
    verdict.textContent = `The check could not run here: ${errorText(e)}`;
  });
  return box;
}
