// The fairness proof at the end of a race or match, in plain words: the commitment the server
// published before play, the seed it reveals after, and this browser's own SHA-256 of the seed
// (seed.js) compared with the commitment, so a player need not take the server's word that the
// deal was fixed before anyone played. With the link to the replay on that deal.

import { h, errorText } from "./dom.js";
import { sha256Hex } from "./seed.js";

// what: "race" or "match"; replay: the replay page's route.
export function fairnessProof({ seed, commitment, what, replay }) {
  const verdict = h("p.seed-check.proof-check", { "data-ok": "pending", text: "Your browser is checking SHA-256(seed)…" });
  const box = h("section.proof", { "aria-label": "Fairness proof" },
    h("h2", { text: "The deal was fixed before play" }),
    h("p.proof-before", {}, `Before the ${what} the server committed to the deal: `,
      h("code.commitment", { text: commitment })),
    h("p.proof-after", {}, "The seed is now revealed: ", h("code.seed", { text: seed })),
    verdict,
    h("p.proof-why", {
      text: "The commitment is SHA-256 of the seed, published before anyone played: no other seed "
        + "has that hash, so the server could not change the deal once it had published it.",
    }),
    h("p.verify", {},
      h("a.verify-link", { href: replay, text: "Watch the replay" }),
      ` — every move on this deal. Or check it yourself: `,
      h("code", { text: `samedeal verify --seed ${seed} --commitment ${commitment}` }),
      " (docs/fairness.md explains it)."));
  sha256Hex(seed).then((digest) => {
    const ok = digest === commitment.toLowerCase();
    verdict.dataset.ok = ok ? "yes" : "no";
    verdict.replaceChildren(...(ok
      ? ["Your browser checked SHA-256(seed) = ", h("code", { text: commitment }), " ✓"]
      : [`✗ Your browser computed SHA-256(seed) = ${digest}: that is not the commitment, so this is not the seed committed to.`]));
  }, (e) => {
    verdict.dataset.ok = "unknown";
    verdict.textContent = `The check could not run here: ${errorText(e)}`;
  });
  return box;
}
