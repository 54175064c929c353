// Small DOM helpers every page uses: building elements without markup strings (player names are
// other players' words and must stay text), and the sentence of an error.

// Children for append or replaceChildren: nested lists flattened, the left-out (null, false)
// dropped.
export function kids(...list) {
  return list.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
}

// h("div.a.b", {attrs}, ...children): a DOM element. `on*` attributes are listeners, `text`
// sets the text; false/null attributes and children are left out.
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else if (k === "value") el.value = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  el.append(...kids(children));
  return el;
}

// The sentence to show for a failed request: the server's message, a player's words.
export function errorText(e) {
  return e?.message || String(e);
}
