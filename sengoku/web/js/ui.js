// Small DOM helpers shared by every page: element builders, SVG, toasts, downloads.


import { _, fmt } from "./i18n.js";

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

/** Time left on a turn-based clock (days per move): "2 d 5 h", "5 h 12 min", then m:ss. */
export function formatTimeLeft(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return `${d} d ${h} h`;
  if (h) return fmt(_("{h} h {m} min"), { h, m });
  return formatClock(s);
}

/** A name the player chose, or null for the server's placeholders ("Player 1", "AI (1)"):
 * those only repeat the seat and its kind, which the page says already. */
export function ownName(name) {
  if (!name || /^(Player \d+|AI( \(\d+\))?|Computer)$/i.test(String(name).trim())) return null;
  return String(name);
}

/** Set ``node``'s text, or an attribute (``null``: remove it), only when it differs: what a
 * timer writes every tick is then no change to the page, and the browser draws nothing anew
 * (and observers of the page, keyboard.js's, see nothing). */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function setAttr(node, name, value) {
  if (value === null) {
    if (node.hasAttribute(name)) node.removeAttribute(name);
  } else if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/**
 * Put ``nodes`` into ``box`` only when they differ from what it shows: a panel redrawn from
 * a poll keeps the very buttons under the pointer, so a click across a poll is not lost.
 */
export function replaceIfChanged(box, nodes) {
  const fresh = document.createElement(box.tagName);
  fresh.append(...nodes.filter(Boolean));
  if (fresh.innerHTML === box.innerHTML) return false;
  clear(box).append(...fresh.childNodes);
  return true;
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

/**
 * A modal dialog with buttons; resolves with the chosen value (or null when dismissed).
 * It opens with the focus on the safe choice (the button marked ``safe``, else the first that
 * is not ``danger``), so Enter, Enter never resigns; Escape or a click outside closes it, Tab
 * stays inside, and the focus goes back to what opened it.
 */
export function ask(title, body, buttons) {
  const opener = document.activeElement;
  return new Promise((resolve) => {
    const close = (value) => {
      document.removeEventListener("keydown", onKey, true);
      overlay.remove();
      // A page that redrew meanwhile replaced the opener: its successor, by id, gets it.
      const back = opener instanceof HTMLElement ? (opener.isConnected ? opener : opener.id ? document.getElementById(opener.id) : null) : null;
      back?.focus({ preventScroll: true });
      resolve(value);
    };
    const onKey = (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation(); // the page's own Escape (closing the end panel) is not this one's
        close(null);
      } else if (e.key === "Tab") {
        const all = [...overlay.querySelectorAll("button")];
        const at = all.indexOf(document.activeElement);
        const next = e.shiftKey ? (at <= 0 ? all.length - 1 : at - 1) : at >= all.length - 1 ? 0 : at + 1;
        e.preventDefault();
        all[next]?.focus();
      }
    };
    const titleId = `ask-${Math.random().toString(36).slice(2)}`;
    const nodes = buttons.map((b) => el(`button.${b.kind || "secondary"}`, { type: "button", "data-value": String(b.value), onclick: () => close(b.value) }, b.label));
    const overlay = el(
      "div.overlay",
      { role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, onclick: (e) => e.target === overlay && close(null) },
      el("div.dialog", {}, el("h2", { id: titleId }, title), body ? el("p", {}, body) : null, el("div.dialog-buttons", {}, nodes)),
    );
    document.body.append(overlay);
    document.addEventListener("keydown", onKey, true);
    const safe = buttons.findIndex((b) => b.safe);
    const calm = buttons.findIndex((b) => b.kind !== "danger");
    (nodes[safe >= 0 ? safe : calm >= 0 ? calm : 0])?.focus();
  });
}

// -- shared helpers for every game's renderer -----------------------------------------------

/** The data attributes that name a control for good across redraws: a choice's action, a hand
 * tile, a small tile, a hand piece and its side, a card. */
const FOCUS_NAMES = ["action", "tile", "small", "piece", "color", "card"];

/** Whether ``node`` is a control that takes the focus: an HTML element, or an SVG one (a
 * board's arrow or edge, drawn as a shape that is a button). */
function focusable(node) {
  return node instanceof HTMLElement || node instanceof SVGElement;
}

/** A selector for the control ``node`` is (its naming data attributes, else its id), or null
 * for a control nothing names (it cannot be found again after a redraw). */
function focusSelector(node) {
  if (!focusable(node) || node.dataset.pick !== undefined) return null;
  const parts = FOCUS_NAMES.filter((name) => node.dataset[name] !== undefined).map((name) => `[data-${name}="${CSS.escape(node.dataset[name])}"]`);
  if (parts.length) return `${node.tagName.toLowerCase()}${parts.join("")}`;
  return node.id ? `#${CSS.escape(node.id)}` : null;
}

/**
 * Run ``redraw`` (which draws the controls under ``roots`` anew) and keep a keyboard player's
 * focus: if a control that a name finds again had it (a choice button, ``data-action``; a hand
 * tile or piece, a card, ``FOCUS_NAMES``; else its id) and is replaced, the new control of the
 * same name gets it, an SVG one too (Gunshi's arrows and edges). Renderers redraw on every
 * snapshot, even one that changes nothing (the socket's first message repeats what the page
 * fetched), and on their own (a card catalog that arrives late, a card tapped for its text);
 * the focused control is then gone and the
 * player's Enter would go nowhere, or, once keyboard.js gave the focus back to the last square,
 * somewhere else. (Squares and cards, ``data-pick``, are given their focus back by
 * keyboard.js.) Returns what ``redraw`` returns.
 */
export function keepActionFocus(roots, redraw) {
  const active = document.activeElement;
  const selector = roots.some((r) => r?.contains(active)) ? focusSelector(active) : null;
  const out = redraw();
  if (selector === null) return out;
  const now = document.activeElement;
  if (now && now !== document.body && now.isConnected) return out;
  for (const root of roots) {
    const again = [...(root?.querySelectorAll(selector) ?? [])].find((n) => focusable(n) && !n.disabled);
    if (again) {
      again.focus({ preventScroll: true });
      break;
    }
  }
  return out;
}

/** Whether the player asked the system for less motion (then nothing on the board moves). */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * A short arrival animation for ``node`` (an HTML or SVG element): it slides in from
 * (``dx``, ``dy``) in the node's own units, or fades in when no offset is given. Nothing moves
 * under prefers-reduced-motion. Returns the Animation, or null when none was started.
 */
export function animateArrival(node, { dx = 0, dy = 0, duration = 260 } = {}) {
  if (!node || reducedMotion() || typeof node.animate !== "function") return null;
  const slide = dx || dy;
  const frames = slide
    ? [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0px, 0px)" }]
    : [{ opacity: 0, transform: "scale(0.7)" }, { opacity: 1, transform: "scale(1)" }];
  if (!slide) node.style.transformBox = "fill-box";
  node.style.transformOrigin = "center";
  const animation = node.animate(frames, { duration, easing: "cubic-bezier(.2,.8,.3,1)" });
  animation.id = "sengoku-move";
  return animation;
}

/**
 * The last move's mark on an SVG board: a white halo under a dark vermilion frame, so it keeps
 * at least 3:1 contrast on light wood, on dark pieces and on coloured cells alike. ``role``:
 * "to" (solid frame) or "from" (dashed frame). Returns the group, already appended.
 */
export function markLastMove(parent, { x, y, width, height }, role = "to") {
  const g = svg("g", { class: `last-move last-${role}`, "data-last": role, "aria-hidden": "true" });
  const inset = 4;
  const box = { x: x + inset, y: y + inset, width: width - 2 * inset, height: height - 2 * inset, rx: 6 };
  g.append(svg("rect", { ...box, class: "last-halo" }), svg("rect", { ...box, class: "last-line" }));
  parent.append(g);
  return g;
}

/** The same mark on an HTML element (a card, a tile in a row): a class the page styles. */
export function markLastElement(node, role = "to") {
  node?.classList.add("last-move", `last-${role}`);
  return node;
}

// What each kind of choice (the server's description rows: ``kind``) asks a player to do.
const KIND_WORDS = {
  move: _("move a piece"),
  capture: "capture",
  drop: _("drop a piece from your hand"),
  place: _("place a piece from your hand"),
  done: _("declare your setup done"),
  place_tile: _("place a tile"),
  play_card: _("play a card"),
  choose_slot: _("choose a slot"),
  fence: _("build a fence"),
  shogun: _("choose your Shogun"),
  pass: "pass",
  take: "take",
  action: _("make a move"),
};

function listWords(words) {
  if (words.length < 2) return words.join("");
  return `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}

/** Steps whose name is no noun to pick one of ("cells": the two cells a tile covers). */
const STEP_WORDS = { cells: _("pick where the tile goes"), choice: _("choose one of the options") };

/** "pick a unit", "pick an edge": what a step of a multi-step choice asks for. */
function pickWords(step) {
  if (STEP_WORDS[step]) return STEP_WORDS[step];
  const noun = step.replace(/_/g, " ");
  // "an edge", but "a unit": the steps' nouns that start with a u say "you".
  return fmt(/^[aeio]/i.test(noun) ? _("pick an {what}") : _("pick a {what}"), { what: noun });
}

/**
 * One sentence saying what the player is deciding, from the legal rows (each has kind, label
 * and text): the only choice's own sentence, or the kinds of choice on offer, in words.
 * ``describe`` (a renderer's describeChoice) words a row in the page's language.
 */
/** A described choice (a legal row, a described move) in the page's language: the
 * renderer's own words (its ``describeChoice``), else the server's label and sentence (the
 * engines write them in English: docs/i18n.md, "Not translated yet"). */
export function choiceWords(l, describe = null) {
  const own = typeof describe === "function" ? describe(l) : null;
  const label = own?.label || l?.label || l?.short || l?.action || "";
  return { label, text: own?.text || l?.text || label };
}

export function promptFromLegal(legal, describe = null) {
  if (!legal?.length) return "";
  if (legal.length === 1) return choiceWords(legal[0], describe).text;
  const counts = new Map();
  for (const row of legal) {
    const kind = row.step ? `pick_${row.step}` : row.kind || "action";
    counts.set(kind, (counts.get(kind) || 0) + 1);
  }
  // A game that names no kinds (every row "action"): the number of moves is all there is to say.
  if (counts.size === 1 && counts.has("action")) return fmt(_("Choose one of the {length} legal moves."), { length: legal.length });
  // What there is to do, not how many ways the engine counts ("(816 ways)" helps nobody).
  const words = [...counts.keys()].map((kind) => (kind.startsWith("pick_") ? pickWords(kind.slice(5)) : KIND_WORDS[kind] || kind.replace(/_/g, " ")));
  const sentence = listWords(words);
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

let tipBox = null;
let tipFor = null;
let pressTimer = null;

function showTip(node, text) {
  if (!text) return;
  if (!tipBox) {
    tipBox = el("div.tip", { id: "tip", role: "tooltip" });
    document.body.append(tipBox);
    // A tip never outstays what it describes: the pointer moving off it (a redraw may have
    // replaced it, so no mouseleave came), a tap elsewhere or a scroll hides it.
    const away = (e) => {
      if (tipFor && (!tipFor.isConnected || !(e.target instanceof Node) || !tipFor.contains(e.target))) hideTip();
    };
    document.addEventListener("pointermove", (e) => e.pointerType === "mouse" && away(e), { passive: true });
    document.addEventListener("pointerdown", away, { capture: true, passive: true });
    window.addEventListener("scroll", () => tipFor && hideTip(), { capture: true, passive: true });
  }
  tipBox.textContent = text;
  tipBox.hidden = false;
  tipFor = node;
  const r = node.getBoundingClientRect();
  const t = tipBox.getBoundingClientRect();
  const left = Math.min(Math.max(8, r.left + r.width / 2 - t.width / 2), window.innerWidth - t.width - 8);
  const above = r.top - t.height - 8;
  const top = above >= 8 ? above : Math.min(r.bottom + 8, window.innerHeight - t.height - 8);
  tipBox.style.left = `${left}px`;
  tipBox.style.top = `${top}px`;
}

/** Hide the description when what it described left the page (a board redrawn under it). */
export function pruneTip() {
  if (tipFor && !tipFor.isConnected) hideTip();
}

export function hideTip() {
  clearTimeout(pressTimer);
  if (tipBox) tipBox.hidden = true;
  tipFor = null;
}

/**
 * What a piece, card or tile is and does, shown when it is hovered, focused or long-pressed
 * (touch: half a second). ``text`` is a string or a function giving one when shown.
 */
export function tooltip(node, text) {
  const say = () => (typeof text === "function" ? text() : text);
  node.dataset.tip = "";
  node.addEventListener("mouseenter", () => showTip(node, say()));
  node.addEventListener("mouseleave", () => tipFor === node && hideTip());
  node.addEventListener("focus", () => showTip(node, say()));
  node.addEventListener("blur", () => tipFor === node && hideTip());
  node.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "touch") return;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => showTip(node, say()), 500);
  });
  for (const end of ["pointerup", "pointercancel", "pointermove"]) {
    node.addEventListener(end, (e) => e.pointerType === "touch" && end !== "pointerup" && clearTimeout(pressTimer));
  }
  node.addEventListener("pointerup", () => clearTimeout(pressTimer));
  return node;
}
