// The "Rules" panel of every game page: the rules in our own words (docs/rules, shipped as
// sengoku/web/rules and served by GET /api/rules/<game>?lang=<the page's language>, each
// paragraph translated through the "texts" catalogs, docs/i18n-texts.md) and a reference
// of the game's pieces, cards, units and tiles from its catalog (GET /api/games/<game>: its
// data files, public by nature). A modal <dialog>: Escape closes it and focus returns where
// it was. Opened during a game, it starts with "Now: <phase>": what the current phase or step of
// the turn is and what can be done in it, from sengoku/web/phases/<game>.json (keyed by
// what the seat's view says the phase is; see phaseKeys), kept up to date while open.

import { api } from "./api.js";
import { el, clear } from "./ui.js";
import { renderMarkdown } from "./markdown.js";
import { _, fmt, language } from "./i18n.js";

/** Catalog fields that are engine internals, not words for a player. */
const SKIP = new Set(["id", "score_text", "letters", "letter"]);
/** Catalog lists that describe our sources, not the game. */
const SKIP_LISTS = new Set(["reconstructed"]);

/** The catalogs' field names in words (the keys are the engines' own). */
const FIELD_WORDS = {
  actions: _("Actions"),
  army: _("Army"),
  attack: _("Attack"),
  banners: _("Banners"),
  cards: _("Cards"),
  chainable: _("Chainable"),
  copies: _("Copies"),
  cost: _("Cost"),
  count: _("Count"),
  defence: _("Defence"),
  en_route_cost: _("En route cost"),
  halves: _("Halves"),
  kumi: _("Kumi"),
  min_players: _("Min players"),
  ongoing: _("Ongoing"),
  ongoing_text: _("Ongoing ability"),
  pieces: _("Pieces"),
  requires: _("Requires"),
  set: _("Set"),
  shield: _("Shield"),
  small_tiles: _("Small tiles"),
  special: _("Special"),
  symbols: _("Symbols"),
  tiles: _("Tiles"),
  troop: _("Troop"),
  troops: _("Troops"),
  units: _("Units"),
  values: _("Values"),
};

function words(key) {
  if (FIELD_WORDS[key]) return FIELD_WORDS[key];
  const w = key.replace(/_/g, " ");
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function valueText(v) {
  if (v === true) return _("yes");
  if (v === false) return _("no");
  if (Array.isArray(v)) return v.map(valueText).join(", ");
  if (v && typeof v === "object") {
    if (v.name && v.text) return `${v.name}: ${v.text}`;
    return Object.entries(v)
      .filter(([k]) => !SKIP.has(k))
      .map(([k, x]) => `${words(k).toLowerCase()} ${valueText(x)}`)
      .join(" ");
  }
  return String(v);
}

/** One catalog entry: its name (and kanji), what it does, then its other facts. */
function entry(item) {
  if (!item || typeof item !== "object") return el("li", {}, String(item));
  const title = [item.kanji, item.name || item.kind || item.id].filter(Boolean).join(" ");
  const facts = Object.entries(item).filter(([k]) => !SKIP.has(k) && !["name", "kanji", "text", "kind"].includes(k));
  return el(
    "li.rules-entry",
    {},
    el("strong", {}, title),
    item.text ? el("span.rules-entry-text", {}, ` — ${item.text}`) : null,
    facts.length ? el("div.muted.rules-entry-facts", {}, facts.map(([k, v]) => `${words(k)}: ${valueText(v)}`).join(" · ")) : null,
  );
}

export function catalogReference(catalog) {
  const box = el("div.rules-reference");
  for (const [key, items] of Object.entries(catalog || {})) {
    if (SKIP_LISTS.has(key) || !Array.isArray(items) || !items.length) continue;
    box.append(el("h3", {}, words(key)), el("ul.rules-entries", { "data-catalog": key }, items.map(entry)));
  }
  return box;
}

/** The phase reference of each game (sengoku/web/phases/<game>.json, its titles and lines
 * in the page's language: GET /api/phases/<game>?lang=), fetched once per language. */
const phaseData = new Map();

export function loadPhases(game) {
  const lang = language();
  const key = `${game}/${lang}`;
  if (!phaseData.has(key)) {
    phaseData.set(
      key,
      fetch(`/api/phases/${encodeURIComponent(game)}?lang=${encodeURIComponent(lang)}`)
        .then((r) => (r.ok ? r.json() : null))
        .catch(() => null),
    );
  }
  return phaseData.get(key);
}

function field(view, path) {
  let v = view;
  for (const part of path.split(".")) v = v && typeof v === "object" ? v[part] : undefined;
  return v === undefined || v === null || v === "" ? null : String(v);
}

/**
 * The phase keys of a snapshot, most specific first: the view fields the data file names
 * (`key`, e.g. ["phase", "step"]) joined with dots, then shorter ("battle.send", "battle"),
 * then "default". A finished game is "over". Only the seat's own view is read, so a phase
 * the seat may not know (another seat's secret step) is never named.
 */
export function phaseKeys(data, snap) {
  if (!data || !snap) return [];
  if (snap.status && !["active", "waiting"].includes(snap.status)) return ["over", "default"];
  const values = [];
  for (const path of data.key || []) {
    const v = field(snap.view, path);
    if (v === null) break;
    values.push(v);
  }
  const keys = [];
  for (let n = values.length; n > 0; n--) keys.push(values.slice(0, n).join("."));
  keys.push("default");
  return keys;
}

/** The entry (title and lines) of the phase a snapshot is in, with its key, or null. */
export function phaseEntry(data, snap) {
  for (const key of phaseKeys(data, snap)) {
    const entry = data.phases?.[key];
    if (entry) return { key, ...entry };
  }
  return null;
}

export class RulesPanel {
  constructor(game, title) {
    this.game = game;
    this.loaded = false;
    this.body = el("div.rules-body", {}, el("p.muted", {}, _("Loading the rules…")));
    // "Now: <phase>": filled from the game's live snapshot (showPhase), empty elsewhere.
    this.now = el("section.rules-now", { "data-part": "now", hidden: true, "aria-live": "polite" });
    this.snap = null;
    this.who = "";
    this.dialog = el(
      "dialog.rules-dialog",
      { id: "rules-dialog", "aria-labelledby": "rules-title" },
      el(
        "div.rules-head",
        {},
        el("h2", { id: "rules-title" }, fmt(_("{title} — rules"), { title })),
        el("button.secondary", { type: "button", id: "rules-close", onclick: () => this.close() }, _("Close")),
      ),
      this.now,
      this.body,
    );
    this.button = el("button.secondary", { type: "button", id: "rules-open", "aria-haspopup": "dialog", onclick: () => this.open() }, _("Rules"));
  }

  async load() {
    this.loaded = true;
    const parts = [];
    try {
      const doc = await api("GET", `/api/rules/${encodeURIComponent(this.game)}?lang=${encodeURIComponent(language())}`);
      parts.push(el("section", { "data-part": "rules" }, renderMarkdown(doc.markdown)));
    } catch (err) {
      parts.push(el("p.muted", {}, fmt(_("The rules cannot be read: {message}"), { message: err.message })));
    }
    try {
      const info = await api("GET", `/api/games/${encodeURIComponent(this.game)}?lang=${encodeURIComponent(language())}`);
      parts.push(el("section", { "data-part": "reference" }, el("h2", {}, _("Reference")), catalogReference(info.catalog)));
    } catch (err) {
      // the rules alone still help
    }
    clear(this.body).append(...parts);
  }

  /** The game's current snapshot (the seat's own) and who acts, in words: the "Now"
   * section follows it, live while the panel is open. */
  showPhase(snap, who = "") {
    this.snap = snap;
    this.who = who;
    if (this.dialog.open) this.drawPhase();
  }

  async drawPhase(force = false) {
    const snap = this.snap;
    const data = await loadPhases(this.game);
    if (snap !== this.snap) return; // a newer one is being drawn
    const entry = phaseEntry(data, snap);
    if (!entry) {
      this.now.hidden = true;
      return;
    }
    // Redrawn only when it says something new: the section is a live region.
    const drawn = `${entry.key}|${this.who}`;
    if (!force && drawn === this.drawn) return;
    this.drawn = drawn;
    this.now.hidden = false;
    this.now.dataset.phase = entry.key;
    clear(this.now).append(
      el("h2", { id: "rules-now-title" }, fmt(_("Now: {title}"), { title: entry.title })),
      this.who ? el("p.rules-now-who", {}, this.who) : null,
      el("ul", {}, (entry.lines || []).map((line) => el("li", {}, line))),
    );
  }

  open() {
    if (!this.dialog.isConnected) document.body.append(this.dialog);
    if (!this.loaded) this.load();
    if (this.snap) this.drawPhase(true);
    this.dialog.showModal();
  }

  close() {
    this.dialog.close();
  }

  destroy() {
    if (this.dialog.open) this.dialog.close();
    this.dialog.remove();
  }
}
