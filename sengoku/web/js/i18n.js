// The client's language (docs/i18n.md): English, Japanese or French, from the player's choice
// (the header switch, kept in localStorage and in the sengoku_lang cookie so that the
// server's error messages follow it) or else the browser's languages. The messages come
// from the server's gettext catalogs (GET /api/i18n/<lang>.json, built from
// sengoku/locale/<lang>/LC_MESSAGES/messages.po); a message missing from the catalog shows
// in English. Nothing runs at import: main.js awaits loadLanguage() before start().

export const LANGUAGES = [
  ["en", "EN"],
  ["ja", "日本語"],
  ["fr", "FR"],
];
const KEY = "sengoku.lang";
const COOKIE = "sengoku_lang";

let current = "en";
let messages = {};
// The games' words (card, unit and troop names) an engine's sentence may name.
let gameWords = {};
// The catalog's plural rule: CLDR category (Intl.PluralRules) -> index of the plural form.
let pluralTable = { one: 0, other: 1 };
let pluralRules = new Intl.PluralRules("en");

/** The language shown now ("en", "ja" or "fr"). */
export function language() {
  return current;
}

/** The player's saved choice, else the first of the browser's languages we speak. */
export function preferredLanguage() {
  const saved = localStorage.getItem(KEY);
  if (LANGUAGES.some(([code]) => code === saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.some(([c]) => c === code)) return code;
  }
  return "en";
}

/** Load ``lang``'s catalog and show it from now on (the page redraws itself after). */
export async function loadLanguage(lang) {
  let data = { messages: {}, words: {}, plural: { one: 0, other: 1 } };
  if (lang !== "en") {
    try {
      const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}.json`);
      if (response.ok) data = await response.json();
    } catch (err) {
      data = { messages: {}, words: {}, plural: { one: 0, other: 1 } };
    }
  }
  current = lang;
  messages = data.messages || {};
  gameWords = data.words || {};
  pluralTable = data.plural || { one: 0, other: 1 };
  pluralRules = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
}

/** Remember ``lang`` as the player's choice (this browser, and the cookie the server reads). */
export function saveLanguage(lang) {
  localStorage.setItem(KEY, lang);
  document.cookie = `${COOKIE}=${encodeURIComponent(lang)}; path=/; max-age=31536000; SameSite=Lax`;
}

/** The translation of ``message`` (the English itself when the catalog lacks it). */
export function _(message) {
  const found = messages[message];
  return typeof found === "string" && found ? found : message;
}

/** The catalog's plural form of a message for ``n``: the browser's CLDR rule for the
 * language (Intl.PluralRules) names the category, the catalog's table names the form. */
export function ngettext(singular, plural, n) {
  const forms = messages[singular];
  if (Array.isArray(forms) && forms.length) {
    const index = pluralTable[pluralRules.select(n)] ?? forms.length - 1;
    return forms[Math.min(index, forms.length - 1)];
  }
  return n === 1 ? singular : plural;
}

/** ``text`` with each ``{name}`` replaced by ``values[name]``: messages carry named places
 * so that a translation may put them in its own order. */
export function fmt(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** An engine's sentence (an event's or an error's ``say``: sengoku/core/sentence.py) in the
 * language: its template translated, each value it marks as a game word named in the
 * language, a value that is a sentence put into the language too, the other values as they
 * are. */
export function said(say) {
  const args = { ...(say.args || {}) };
  // a value that is itself a sentence (a phrase: a Kumi's place, a reason), as a whole
  for (const [name, value] of Object.entries(args)) if (value && typeof value === "object") args[name] = said(value);
  for (const name of say.words || []) {
    const w = args[name];
    if (typeof w === "string") args[name] = word(w);
  }
  return fmt(_(say.text || ""), args);
}

/** A game word (a colour, a unit, a card) in the language, else as it is: the games' own
 * name first (Gunshi's card "Move" is not the catalog's "Move", a move of a game). */
export function word(w) {
  if (gameWords[w]) return gameWords[w];
  const found = messages[w];
  return typeof found === "string" && found ? found : w;
}

/** Mark ``message`` for the catalog without translating it now: for tables built when a
 * module loads, translated with _() where they are shown (the language may change since). */
export function N_(message) {
  return message;
}
