// Links to share a race or a match: the banner shown after creating one (it stays above the page
// it leads to), and the field on the race and match pages themselves.

import { h } from "./dom.js";

async function copyText(url, input) {
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    input.select();
    document.execCommand?.("copy");
  }
}

// A banner outside the page, so the link stays in view on the race or match page it leads to.
export function showShare(kind, id) {
  const box = document.getElementById("share");
  if (!box) return;
  const url = `${location.origin}/#/${kind}/${id}`;
  const input = h("input", { value: url, readonly: true, "aria-label": `link to this ${kind}` });
  const copy = h("button.copy", { type: "button", text: "Copy" });
  copy.addEventListener("click", async () => {
    await copyText(url, input);
    copy.textContent = "Copied";
  });
  const close = h("button.close", { type: "button", "aria-label": "close", text: "×" });
  close.addEventListener("click", () => { box.replaceChildren(); box.hidden = true; });
  box.dataset.for = `#/${kind}/${id}`;
  box.replaceChildren(h("div.share", {}, h("span", { text: `Share this ${kind}:` }), input, copy, close));
  box.hidden = false;
}

// A read-only link field with a copy button, so a race or match can be shared; none when the
// lobby's banner (#share) already offers this very page's link.
export function shareBox(url) {
  const banner = document.getElementById("share");
  if (banner && !banner.hidden && url.endsWith(banner.dataset.for || "\0")) return null;
  const input = h("input.share-url", { value: url, readonly: true, "aria-label": "link to share" });
  const copy = h("button", { type: "button", text: "Copy link" });
  copy.addEventListener("click", async () => {
    input.select();
    await copyText(url, input);
    copy.textContent = "Copied";
  });
  return h("div.share", {}, h("span", { text: "Share: " }), input, copy);
}
