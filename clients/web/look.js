// How the client looks and sounds, as the player chose (kept in localStorage) or the system asks:
// the theme (light, dark, or the system's), animations (off where the system asks for reduced
// motion, or the player switches them off), a four-colour deck, and card sounds (off until the
// player switches them on). Each choice lands as an attribute on the page's root element
// (data-theme, data-motion, data-deck, data-sound), which style.css and the board read; the
// header's Look menu changes them on every page.

import { h } from "./dom.js";

const KEYS = {
  theme: "samedeal.theme", // "light" | "dark" | absent: the system's
  motion: "samedeal.motion", // "off" | absent: on unless the system asks for reduced motion
  deck: "samedeal.deck", // "four" | absent: two colours
  sound: "samedeal.sound", // "on" | absent: off
};

const root = document.documentElement;
const darkQuery = matchMedia("(prefers-color-scheme: dark)");
const stillQuery = matchMedia("(prefers-reduced-motion: reduce)");

function stored(key) {
  try { return localStorage.getItem(KEYS[key]); } catch { return null; }
}

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(KEYS[key]);
    else localStorage.setItem(KEYS[key], value);
  } catch { /* private mode: the choice lasts for this page */ }
}

// The choices resolved against the system's settings, onto the root element.
export function applyLook() {
  const theme = stored("theme");
  root.dataset.theme = theme === "light" || theme === "dark" ? theme
    : darkQuery.matches ? "dark" : "light";
  root.dataset.motion = stored("motion") === "off" || stillQuery.matches ? "off" : "on";
  root.dataset.deck = stored("deck") === "four" ? "four" : "two";
  root.dataset.sound = stored("sound") === "on" ? "on" : "off";
  root.style.colorScheme = root.dataset.theme;
}

// Follow the system's settings as they change, while the player has not chosen otherwise.
export function followSystem() {
  darkQuery.addEventListener("change", applyLook);
  stillQuery.addEventListener("change", applyLook);
  applyLook();
}

export const animating = () => root.dataset.motion === "on";
export const sounding = () => root.dataset.sound === "on";

// The Look menu in the header: a theme picker and three switches.
export function mountLookControl(el) {
  const theme = h("select", { name: "theme", "aria-label": "Theme",
    onchange: () => { store("theme", theme.value || null); applyLook(); } },
  h("option", { value: "", text: "System" }),
  h("option", { value: "light", text: "Light" }),
  h("option", { value: "dark", text: "Dark" }));
  theme.value = stored("theme") || "";

  const toggle = (key, on, off, label, what) => {
    const box = h("input", { type: "checkbox", name: key, "data-setting": key,
      onchange: () => { store(key, box.checked ? on : off); applyLook(); } });
    box.checked = what();
    return h("label", {}, box, ` ${label}`);
  };
  const menu = h("details.look", {},
    h("summary", { title: "theme, animations, deck and sounds", text: "Look" }),
    h("div.look-menu", {},
      h("label", {}, "Theme ", theme),
      toggle("motion", null, "off", "Animations", () => stored("motion") !== "off"),
      toggle("deck", "four", null, "Four-colour deck", () => stored("deck") === "four"),
      toggle("sound", "on", null, "Card sounds", () => stored("sound") === "on")));
  // Closed by a click anywhere else, like any menu.
  document.addEventListener("click", (e) => { if (!menu.contains(e.target)) menu.open = false; });
  el.replaceChildren(menu);
}
