// The player's name: a newcomer plays at once under a guest name ("Guest 4821") and chooses
// theirs later, from the header or when their first game ends (PATCH /api/v1/players/me).

import { h, errorText } from "./dom.js";

const PLAYER = "samedeal.player";
const GUEST = "samedeal.guest"; // "1" while the player still has the guest name they were given
const CHANGED = "samedeal:name"; // a window event: the name changed (header and offers follow)

export function guestName() {
  return `Guest ${1000 + Math.floor(Math.random() * 9000)}`;
}

export function isGuest() {
  return localStorage.getItem(GUEST) === "1";
}

export function markGuest() {
  localStorage.setItem(GUEST, "1");
}

export async function rename(ctx, name) {
  const { player } = await ctx.net.rest("PATCH", "/players/me", { name });
  ctx.player.name = player.name;
  localStorage.setItem(PLAYER, JSON.stringify(player));
  localStorage.removeItem(GUEST);
  window.dispatchEvent(new CustomEvent(CHANGED, { detail: player }));
  return player;
}

// The one-field form; `done(player)` after a rename, `cancel()` for "Not now" (if given).
export function nameForm(ctx, { done, cancel, label = "Your name" } = {}) {
  const input = h("input", {
    name: "name", required: true, maxlength: "32", autocomplete: "nickname",
    value: isGuest() ? "" : ctx.player.name, placeholder: ctx.player.name,
  });
  const error = h("p.error", { role: "alert" });
  const save = h("button.primary", { type: "submit", text: "Save" });
  const form = h("form.name-choice", {},
    h("label", {}, label, input), save,
    cancel ? h("button", { type: "button", text: "Not now", onclick: cancel }) : null, error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    save.disabled = true;
    error.textContent = "";
    try {
      done?.(await rename(ctx, name));
    } catch (err) {
      error.textContent = errorText(err);
    } finally {
      save.disabled = false;
    }
  });
  return { form, input };
}

// The header's name: a button that opens the name form beside it; a guest is also told they
// can choose one.
export function mountNameControl(el, ctx) {
  const show = () => {
    const who = h("button.player-name", {
      type: "button", text: ctx.player.name, title: "choose your name", "aria-haspopup": "dialog",
    });
    const hint = isGuest() ? h("button.choose-name", { type: "button", text: "choose your name" }) : null;
    const open = () => {
      const { form, input } = nameForm(ctx, { done: show, cancel: show });
      const pop = h("div.name-popover", { role: "dialog", "aria-label": "choose your name" }, form);
      pop.addEventListener("keydown", (e) => { if (e.key === "Escape") show(); });
      el.replaceChildren(pop);
      input.focus();
    };
    who.addEventListener("click", open);
    hint?.addEventListener("click", open);
    el.replaceChildren(...[who, hint].filter(Boolean));
  };
  window.addEventListener(CHANGED, show);
  show();
}

// Shown when a guest's game ends: an invitation to choose a name (null for a named player).
export function nameOffer(ctx) {
  if (!isGuest()) return null;
  const box = h("aside.name-offer", { "aria-label": "choose your name" });
  const { form } = nameForm(ctx, {
    label: `You played as ${ctx.player.name}. Choose the name other players see:`,
    done: (p) => box.replaceChildren(h("p", { text: `You are ${p.name} from now on.` })),
    cancel: () => box.remove(),
  });
  box.append(form);
  return box;
}
