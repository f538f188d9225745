// Small DOM helpers shared by every page: element builders, SVG, toasts, downloads.

const SVG_NS = "http://www.w3.org/2000/svg";

/** Build an HTML element: el("button.primary", {onclick}, "Play"). */
export function el(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const node = document.createElement(tag || "div");
  if (classes.length) node.className = classes.join(" ");
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** Build an SVG element: svg("rect", {x: 0, y: 0, width: 10, height: 10}). */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "text") {
      node.textContent = value;
    } else if (key === "style") {
      // through the CSS object model: the Content-Security-Policy refuses style attributes
      node.style.cssText = String(value);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

let toastTimer = null;
/** A short message at the bottom of the screen (errors stay longer). */
export function toast(message, kind = "info") {
  let box = document.getElementById("toast");
  if (!box) {
    box = el("div", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  box.textContent = message;
  box.className = `show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.className = ""), kind === "error" ? 6000 : 3000);
}

/** Offer ``data`` as a JSON file download. */
export function download(filename, data) {
  const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = el("a", { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** mm:ss (or h:mm:ss) for a clock. */
export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** Case-folded with white space removed: how the engines compare notation. */
export function normalizeNotation(text) {
  return text.replace(/\s+/gu, "").toLowerCase();
}

/** The legal entries that ``text`` names: exact canonical matches first, then short forms. */
export function matchNotation(text, legal) {
  const wanted = normalizeNotation(text);
  if (!wanted) return [];
  const exact = legal.filter((l) => normalizeNotation(l.action) === wanted);
  if (exact.length) return exact;
  return legal.filter((l) => normalizeNotation(l.short || l.action) === wanted);
}

/** A modal dialog with buttons; resolves with the chosen value (or null when dismissed). */
export function ask(title, body, buttons) {
  return new Promise((resolve) => {
    const close = (value) => {
      overlay.remove();
      resolve(value);
    };
    const overlay = el(
      "div.overlay",
      { role: "dialog", "aria-modal": "true", onclick: (e) => e.target === overlay && close(null) },
      el(
        "div.dialog",
        {},
        el("h2", {}, title),
        body ? el("p", {}, body) : null,
        el(
          "div.dialog-buttons",
          {},
          buttons.map((b) =>
            el(`button.${b.kind || "secondary"}`, { onclick: () => close(b.value) }, b.label),
          ),
        ),
      ),
    );
    document.body.append(overlay);
    overlay.querySelector("button")?.focus();
  });
}
