// The single-page app: the top bar and the pages (home, new game, records, rules); the play
// and replay pages are in match.js and replay.js. Paths: /, /new/<game>, /play/<id>,
// /replay/<id>, /records, /puzzles[/<game>[/<id>]] (puzzles.js). Nothing runs at import: main.js calls start().

import { api, saveToken, saveInvites, heldMatches, tokensFor } from "./api.js";
import { el, clear, toast } from "./ui.js";
import { gameCatalog, rendererFor } from "./games/index.js";
import { prefs, loadPrefs, navigate, setRouter, joinOpen } from "./nav.js";
import { recordsPage as listRecords, livePage } from "./lists.js";
import { optionWords, applies, HOUSE_RULES, SETUP_PRESETS } from "./setup_words.js";
import { renderMarkdown } from "./markdown.js";
import { learnButton } from "./tutorial.js";
import { accountMark, accountPage, signedIn, whenKnown } from "./account.js";
import { startYourTurn, yourTurnSection } from "./your_turn.js";
import { _, fmt, ngettext, language, LANGUAGES, saveLanguage } from "./i18n.js";
import { seekSection, startSeekWatch } from "./seeks.js";

let current = null; // the page object with destroy()

async function games() {
  return gameCatalog();
}

function topbar() {
  const toggle = el(
    "button.toggle",
    {
      type: "button",
      id: "labels-toggle",
      "aria-pressed": prefs.labels === "english" ? "true" : "false",
      title: _("Labels on every board, piece, card and tile: kanji or English"),
      onclick: () => {
        prefs.labels = prefs.labels === "kanji" ? "english" : "kanji";
        localStorage.setItem("sengoku.labels", prefs.labels);
        toggle.textContent = prefs.labels === "kanji" ? "漢字 → EN" : "EN → 漢字";
        toggle.setAttribute("aria-pressed", prefs.labels === "english" ? "true" : "false");
        window.dispatchEvent(new Event("sengoku:prefs"));
      },
    },
    prefs.labels === "kanji" ? "漢字 → EN" : "EN → 漢字",
  );
  return el(
    "header.topbar",
    {},
    el("a.brand", { href: "/", "data-nav": "" }, el("span.brand-kanji", {}, "戦国"), el("span.brand-name", {}, "Sengoku")),
    el("nav", {}, el("a", { href: "/", "data-nav": "" }, _("Play")), el("a", { href: "/live", "data-nav": "" }, _("Watch")), el("a", { href: "/records", "data-nav": "" }, _("Records")), el("a", { href: "/ratings/gungi", "data-nav": "" }, _("Ratings")), el("a", { href: "/puzzles", "data-nav": "" }, _("Puzzles"))),
    // Apart from the links, so that a phone shows the links on a row of their own under the
    // brand and these (style.css): two rows in every language.
    el("div.topbar-tools", {}, toggle, languageSwitch(), accountMark()),
  );
}

/** The header's language switch (EN / 日本語 / FR): the choice is kept (i18n.js) and the
 * page is loaded again in it. */
function languageSwitch() {
  return el(
    "span.lang-switch",
    { role: "group", "aria-label": _("Language") },
    LANGUAGES.map(([code, label]) =>
      el(
        "button.lang",
        {
          type: "button",
          lang: code,
          "data-lang": code,
          "aria-pressed": code === language() ? "true" : "false",
          onclick: () => {
            if (code === language()) return;
            saveLanguage(code);
            // Loaded again, every module makes its words in the new language (boot.js).
            location.reload();
          },
        },
        label,
      ),
    ),
  );
}

async function homePage(root) {
  const list = el("div.game-grid");
  root.append(
    el(
      "section.hero",
      {},
      el("h1", {}, _("Four games of the warring states")),
      el("p", {}, _("Play Gungi, Gunshi, Gunkimono and Sashimono against the computer, with a friend on this device, or by sending a link.")),
    ),
    list,
  );
  // Signed in: the games whose move is the player's, first on the page (your_turn.js).
  const yourTurn = yourTurnSection();
  root.prepend(yourTurn.box);
  resumeList(root);
  // Matchmaking: offer a game, or accept another player's seek (seeks.js).
  const seeks = seekSection({ optionInput, syncOptions });
  root.append(seeks.box);
  openGames(root);
  let served = [];
  try {
    served = (await games()).games.map((g) => g.name);
  } catch (err) {
    toast(err.message, "error");
  }
  const renderers = await Promise.all(served.map((name) => rendererFor(name)));
  served.forEach((name, i) => {
    const r = renderers[i];
    list.append(
      el(
        "article.game-card",
        { "data-game": name },
        el("div.game-kanji", {}, r.kanji),
        el("h2", {}, r.title),
        el("p", {}, r.tagline),
        el("div.game-card-buttons", {}, el("a.button.primary", { href: `/new/${name}`, "data-nav": "" }, fmt(_("Play {game}"), { game: r.title })), learnButton(name, r.title)),
      ),
    );
  });
  return {
    destroy: () => {
      yourTurn.stop();
      seeks.stop();
    },
  };
}

/** The games in progress this browser holds a seat in: one click to go back to them. */
async function resumeList(root) {
  const ids = heldMatches().slice(0, 12);
  const box = el("section.card.resume", { hidden: true }, el("h2", {}, _("Your games in progress")));
  root.insertBefore(box, root.querySelector(".game-grid"));
  let shown = 0;
  for (const id of ids) {
    if (shown >= 6) break;
    const tokens = tokensFor(id);
    const seat = Object.keys(tokens)[0];
    let snap;
    try {
      snap = await api("GET", `/api/matches/${encodeURIComponent(id)}`, { token: tokens[seat] });
    } catch (err) {
      continue;
    }
    if (!["waiting", "active"].includes(snap.status)) continue;
    const r = await rendererFor(snap.game);
    const mine = snap.status === "active" && Object.keys(tokens).map(Number).includes(snap.to_act);
    box.append(
      el(
        "a.record-row",
        { href: `/play/${id}`, "data-nav": "", "data-id": id },
        el("span.game-kanji.small", {}, r.kanji),
        el("span.record-main", {}, el("strong", {}, r.title), el("span", {}, snap.seats.map((s) => s.name || r.seatName(s.seat)).join(_(" vs ")))),
        el("span.record-result", {}, snap.status === "waiting" ? _("waiting for players") : mine ? _("your move") : fmt(_("move {n}"), { n: snap.ply + 1 })),
      ),
    );
    shown++;
    box.hidden = false;
  }
}

/** The lobby: games waiting for anyone to take an open seat. */
async function openGames(root) {
  const box = el("section.card.resume.lobby", { hidden: true }, el("h2", {}, _("Open games: take a seat")));
  root.append(box);
  let waiting = [];
  try {
    waiting = (await api("GET", "/api/matches?status=waiting&limit=20")).matches;
  } catch (err) {
    return;
  }
  for (const m of waiting) {
    if (Object.keys(tokensFor(m.id)).length) continue;
    let snap;
    try {
      snap = await api("GET", `/api/matches/${encodeURIComponent(m.id)}`);
    } catch (err) {
      continue;
    }
    const open = snap.seats.filter((s) => s.open);
    if (!open.length) continue;
    const r = await rendererFor(snap.game);
    box.append(
      el(
        "div.record-row",
        { "data-id": m.id },
        el("span.game-kanji.small", {}, r.kanji),
        el("span.record-main", {}, el("strong", {}, r.title, " ", el(`span.rated-mark${m.rated ? ".rated" : ""}`, {}, m.rated ? _("rated") : _("casual"))), el("span", {}, snap.seats.map((s) => (s.open ? _("open seat") : s.name || r.seatName(s.seat))).join(_(" vs ")))),
        el("button.primary.join-open", { type: "button", onclick: () => joinOpen(m.id) }, fmt(_("Play as {seat}"), { seat: r.seatName(open[0].seat) })),
      ),
    );
    box.hidden = false;
  }
}

const CLOCKS = {
  none: null,
  "fischer-5-3": { type: "fischer", initial: 300, increment: 3 },
  "fischer-15-10": { type: "fischer", initial: 900, increment: 10 },
  "byoyomi-10-3x30": { type: "byoyomi", main: 600, periods: 3, period: 30 },
  // Turn-based play: days for each move (docs/api.md "clock").
  "days-1": { type: "correspondence", days: 1 },
  "days-2": { type: "correspondence", days: 2 },
  "days-3": { type: "correspondence", days: 3 },
  "days-7": { type: "correspondence", days: 7 },
};

function optionInput(opt, game) {
  const id = `opt-${opt.name}`;
  const words = optionWords(game, opt);
  let input;
  if (Array.isArray(opt.allowed) && !opt.allowed.length) {
    // Free text (e.g. a list of card names); sent as typed.
    input = el("input", { id, name: opt.name, type: "text", value: opt.default ?? "", "data-kind": "text", "aria-describedby": `${id}-help` });
  } else if (Array.isArray(opt.allowed)) {
    input = el(
      "select",
      { id, name: opt.name, "aria-describedby": `${id}-help` },
      opt.allowed.map((v) => el("option", { value: JSON.stringify(v), selected: v === opt.default }, words.value(v))),
    );
  } else {
    input = el("input", { id, name: opt.name, type: "number", min: opt.allowed.min, max: opt.allowed.max, value: opt.default ?? "", placeholder: opt.default === null ? _("none") : "", "aria-describedby": `${id}-help` });
  }
  const field = el("div.field", { "data-option": opt.name }, el("label", { for: id }, words.label), input, el("small", { id: `${id}-help` }, words.help));
  field.optionWords = words;
  return field;
}

/** Show only the options that apply to the values chosen; the others are neither shown nor
 * sent (the game's default stands). */
function syncOptions(box) {
  const fields = [...box.querySelectorAll(".field[data-option]")];
  // Twice: an option shown or hidden may decide another (Gunshi's agreed deck).
  for (let pass = 0; pass < 2; pass++) {
    const values = {};
    for (const f of fields) {
      const input = f.querySelector("select, input");
      if (f.hidden || !input) continue;
      values[f.dataset.option] = input.tagName === "SELECT" ? JSON.parse(input.value) : input.value;
    }
    for (const f of fields) {
      const on = applies(f.optionWords, values);
      f.hidden = !on;
      const input = f.querySelector("select, input");
      if (input) input.disabled = !on;
    }
  }
}

async function newGamePage(root, name) {
  let info;
  let levels = [];
  try {
    const all = await games();
    info = all.games.find((g) => g.name === name);
    levels = all.ai_levels.map((l) => l.level);
  } catch (err) {
    toast(err.message, "error");
  }
  const r = await rendererFor(name);
  if (!info) {
    root.append(el("div.card", {}, el("h2", {}, fmt(_("{game} is not available on this server yet"), { game: r.title })), el("a.button", { href: "/", "data-nav": "" }, _("Home"))));
    return;
  }
  // The options a game needs first, then the house rules folded away (<details>): they stay
  // in the same form (read and sent alike), only out of the way.
  const house = new Set(HOUSE_RULES[name] || []);
  const fields = info.options.map((o) => optionInput(o, name));
  const houseFields = fields.filter((f) => house.has(f.dataset.option));
  const options = el(
    "div.options",
    {},
    fields.filter((f) => !house.has(f.dataset.option)),
    houseFields.length ? el("details.house-rules", { id: "house-rules" }, el("summary", {}, fmt(_("House rules ({n})"), { n: houseFields.length })), el("p.muted", {}, _("Other readings of rules the rulebook leaves open. Left alone, the game plays as the rulebook reads.")), el("div.house-fields", {}, houseFields)) : null,
  );
  // Ready-made choices (First game, Standard, Tournament): they set the options they name and
  // put the others back to the game's defaults.
  const setupPresets = SETUP_PRESETS[name] || [];
  const presetBox = setupPresets.length ? el("div.presets.option-presets", { role: "group", "aria-label": _("Kind of game") }) : null;
  const presetHelp = el("p.muted.option-preset-help");
  const applyPreset = (preset) => {
    for (const o of info.options) {
      const input = options.querySelector(`#opt-${o.name}`);
      if (!input) continue;
      const value = o.name in preset.values ? preset.values[o.name] : o.default;
      input.value = input.tagName === "SELECT" ? JSON.stringify(value) : value ?? "";
    }
    for (const b of presetBox.querySelectorAll("button")) b.classList.toggle("active", b.dataset.optionPreset === preset.id);
    presetHelp.textContent = preset.help;
    syncOptions(options);
    options.dispatchEvent(new Event("change"));
  };
  for (const p of setupPresets) presetBox.append(el("button.preset", { type: "button", "data-option-preset": p.id, title: p.help, onclick: () => applyPreset(p) }, p.label));
  syncOptions(options);
  const seatsBox = el("div.seats");
  const savedName = localStorage.getItem("sengoku.name") || "";
  const seatCount = () => {
    const values = {};
    for (const field of options.querySelectorAll("select")) if (!field.disabled) values[field.name] = JSON.parse(field.value);
    const players = options.querySelector("#opt-players");
    if (players) return Number(players.value);
    return r.seatCount ? r.seatCount(values, info) : info.min_players;
  };
  const seatRow = (i, kind) => {
    const kindSel = el(
      "select.seat-kind",
      { "aria-label": fmt(_("{seat} is played by"), { seat: r.seatName(i) }), "data-seat": i },
      el("option", { value: "local", selected: kind === "local" }, _("Me / this device")),
      el("option", { value: "invite", selected: kind === "invite" }, _("A friend (invitation link)")),
      el("option", { value: "ai", selected: kind === "ai" }, _("The computer")),
      el("option", { value: "open", selected: kind === "open" }, _("Anyone (open seat in the lobby)")),
    );
    const level = el(
      "select.seat-level",
      { "aria-label": _("AI level"), "data-seat": i },
      levels.map((l) => el("option", { value: l, selected: l === 1 }, fmt(_("level {n}"), { n: l }))),
    );
    const nameInput = el("input.seat-name", { placeholder: _("Name"), maxlength: 64, value: kind === "local" && i === 0 ? savedName : "", "aria-label": _("Name"), "data-seat": i });
    const sync = () => {
      level.hidden = kindSel.value !== "ai";
      nameInput.hidden = kindSel.value === "ai";
    };
    kindSel.addEventListener("change", sync);
    sync();
    return el("div.seat-row", { "data-seat": i }, el("span.seat-label", {}, r.seatIcon(i, prefs.labels), r.seatName(i)), kindSel, level, nameInput);
  };
  const fillSeats = (preset) => {
    clear(seatsBox);
    for (let i = 0; i < seatCount(); i++) {
      const kind = preset === "ai" ? (i === 0 ? "local" : "ai") : preset === "invite" ? (i === 0 ? "local" : "invite") : "local";
      seatsBox.append(seatRow(i, kind));
    }
    for (const b of presets.querySelectorAll("button")) b.classList.toggle("active", b.dataset.preset === preset);
  };
  const presets = el(
    "div.presets",
    { role: "group", "aria-label": _("Who plays") },
    [
      ["ai", _("vs computer")],
      ["hotseat", _("Hot seat")],
      ["invite", _("Invite a friend")],
    ].map(([p, label]) => el("button.preset", { type: "button", "data-preset": p, onclick: () => fillSeats(p) }, label)),
  );
  options.addEventListener("change", () => {
    syncOptions(options);
    if (seatsBox.children.length !== seatCount()) fillSeats(presets.querySelector(".active")?.dataset.preset || "ai");
  });
  const clock = el(
    "select",
    { id: "clock" },
    el("option", { value: "none" }, _("No clock")),
    el("option", { value: "fischer-5-3" }, _("5 min + 3 s a move")),
    el("option", { value: "fischer-15-10" }, _("15 min + 10 s a move")),
    el("option", { value: "byoyomi-10-3x30" }, _("10 min, then 3 × 30 s byo-yomi")),
    el(
      "optgroup",
      { label: _("Turn-based (play at your own pace)") },
      el("option", { value: "days-1" }, fmt(ngettext("{n} day per move", "{n} days per move", 1), { n: 1 })),
      el("option", { value: "days-2" }, fmt(ngettext("{n} day per move", "{n} days per move", 2), { n: 2 })),
      el("option", { value: "days-3" }, fmt(ngettext("{n} day per move", "{n} days per move", 3), { n: 3 })),
      el("option", { value: "days-7" }, fmt(ngettext("{n} day per move", "{n} days per move", 7), { n: 7 })),
    ),
  );
  // A game's own tournament clock (Gunshi's time_control option) is the match's clock: the
  // server refuses another clock beside it, so the choice is not offered then.
  const syncClock = () => {
    const own = options.querySelector('select[name="time_control"]');
    const tournament = !!own && !own.disabled && JSON.parse(own.value) === "tournament";
    if (tournament) clock.value = "none";
    clock.disabled = tournament;
    clock.title = tournament ? _("The tournament clock chosen above: 20 minutes each") : "";
  };
  options.addEventListener("change", syncClock);
  syncClock();
  // Rated or casual (docs/ratings.md): rated needs every player signed in, a clock, and no
  // hot seat; the server names whatever else stands in the way.
  const ratedBox = el("input", { type: "radio", name: "rated", id: "rated-yes", value: "rated", disabled: true });
  const casualBox = el("input", { type: "radio", name: "rated", id: "rated-no", value: "casual", checked: true });
  const ratedHelp = el("small", { id: "rated-help" }, _("Checking whether you are signed in…"));
  const ratedField = el(
    "fieldset.field.rated-choice",
    { "aria-describedby": "rated-help" },
    el("legend", {}, _("Rated or casual")),
    el("span.radio-pair", {}, el("label", { for: "rated-no" }, casualBox, " ", _("Casual")), el("label", { for: "rated-yes" }, ratedBox, " ", _("Rated"))),
    ratedHelp,
  );
  signedIn().then((account) => {
    ratedBox.disabled = !account;
    clear(ratedHelp).append(
      account
        ? _("Rated games change your rating: every player signs in, the game has a clock, and the computer plays at its level's fixed rating.")
        : el("span", {}, _("Rated games are for signed-in players: "), el("a", { href: "/account", "data-nav": "" }, _("sign in")), _(" to play one.")),
    );
  });
  ratedBox.addEventListener("change", () => {
    // a rated game needs a clock: the first one is chosen if none was
    if (ratedBox.checked && clock.value === "none" && !clock.disabled) clock.value = "fischer-5-3";
  });
  const start = async (e) => {
    e.preventDefault();
    const opts = {};
    for (const field of options.querySelectorAll("select, input")) {
      if (field.disabled) continue; // an option that does not apply: the default stands
      if (field.tagName === "SELECT") opts[field.name] = JSON.parse(field.value);
      else if (field.dataset.kind === "text") opts[field.name] = field.value;
      else if (field.value !== "") opts[field.name] = Number(field.value);
    }
    const seats = [...seatsBox.querySelectorAll(".seat-row")].map((row) => {
      const kind = row.querySelector(".seat-kind").value;
      const spec = { kind };
      if (kind === "ai") spec.level = Number(row.querySelector(".seat-level").value);
      const nm = row.querySelector(".seat-name").value.trim();
      if (nm && kind !== "ai") spec.name = nm;
      return spec;
    });
    const first = seats.find((s) => s.kind === "local" && s.name);
    if (first) localStorage.setItem("sengoku.name", first.name);
    try {
      const body = { game: name, options: opts, seats, clock: CLOCKS[clock.value] };
      if (ratedBox.checked) body.rated = true;
      const out = await api("POST", "/api/matches", { body });
      for (const [seat, token] of Object.entries(out.tokens)) saveToken(out.id, seat, token);
      if (out.invites.length) saveInvites(out.id, out.invites);
      navigate(`/play/${out.id}`);
    } catch (err) {
      toast(err.message, "error");
    }
  };
  root.append(
    el(
      "div.new-game",
      {},
      el(
        "section.card.how-to",
        {},
        el("div.game-kanji", {}, r.kanji),
        el("h1", {}, r.title),
        el("p.tagline", {}, r.tagline),
        el("h2", {}, _("How to play")),
        el("ul", {}, r.howTo.map((t) => el("li", {}, t))),
        learnButton(name, r.title, (b) => el("p.learn", {}, _("New to the game? A guided first turn against the computer: "), b)),
        el("a", { href: `/rules/${name}`, target: "_blank", rel: "noopener" }, _("Full rules")),
      ),
      el(
        "form.card.setup",
        { onsubmit: start },
        el("h2", {}, _("Who plays")),
        presets,
        seatsBox,
        el("h2", {}, _("Rules and options")),
        presetBox,
        presetBox ? presetHelp : null,
        options,
        el("div.field", {}, el("label", { for: "clock" }, _("Clock")), clock),
        ratedField,
        el("button.primary.start", { type: "submit", id: "start" }, _("Start the game")),
      ),
    ),
  );
  fillSeats("ai");
  if (setupPresets.length) applyPreset(setupPresets.find((p) => p.chosen) || setupPresets[0]);
  // The header's toggle redraws the seats' icons (Gungi's Marshals carry their label).
  const onPrefs = () => {
    for (const row of seatsBox.querySelectorAll(".seat-row")) {
      const i = Number(row.dataset.seat);
      clear(row.querySelector(".seat-label")).append(...[r.seatIcon(i, prefs.labels), r.seatName(i)].filter(Boolean));
    }
  };
  window.addEventListener("sengoku:prefs", onPrefs);
  return { destroy: () => window.removeEventListener("sengoku:prefs", onPrefs) };
}

async function recordsPage(root) {
  const fileInput = el("input", { type: "file", accept: "application/json,.json", id: "import-file", "aria-label": _("Record file") });
  const text = el("textarea", { id: "import-text", rows: 4, placeholder: _("…or paste a record (JSON) here"), "aria-label": _("Record (JSON)") });
  const doImport = async (e) => {
    e.preventDefault();
    let body = text.value.trim();
    if (fileInput.files.length) body = await fileInput.files[0].text();
    let data;
    try {
      data = JSON.parse(body);
    } catch (err) {
      toast(_("That is not a JSON record"), "error");
      return;
    }
    try {
      const out = await api("POST", "/api/records", { body: data });
      navigate(`/replay/${out.id}`);
    } catch (err) {
      toast(err.message, "error");
    }
  };
  const importForm = el("form.card.import", { onsubmit: doImport }, el("h2", {}, _("Import a record")), el("p", {}, _("A record saved from this site or with sengoku play --save.")), fileInput, text, el("button.primary", { type: "submit", id: "import" }, _("Import and replay")));
  await listRecords(root, importForm);
}

async function rulesPage(root, name) {
  const r = await rendererFor(name);
  const card = el(
    "section.card.rules",
    {},
    el("div.game-kanji", {}, r.kanji),
    el("h1", {}, fmt(_("{game}: how to play"), { game: r.title })),
    el("ul", {}, r.howTo.map((t) => el("li", {}, t))),
    el("a.button.primary", { href: `/new/${name}`, "data-nav": "" }, fmt(_("Play {game}"), { game: r.title })),
  );
  root.append(card);
  try {
    const doc = await api("GET", `/api/rules/${encodeURIComponent(name)}`);
    card.append(el("hr"), renderMarkdown(doc.markdown));
  } catch (err) {
    card.append(el("p.muted", {}, _("The full rules document is not on this server.")));
  }
}

/** The tab's title on every page that sets none of its own (index.html's). */
const TITLE = "Sengoku — Gungi, Gunshi, Gunkimono, Sashimono";

/** A path the client has no page for: say so in words, and offer the way on. */
export function notFoundPage(root) {
  document.title = _("Page not found — Sengoku");
  root.append(
    el(
      "div.card.not-found",
      { id: "not-found" },
      el("h1", {}, _("Page not found")),
      el("p", {}, fmt(_("There is no page at {path}. The link may be mistyped, or the game it pointed to may be gone."), { path: location.pathname })),
      el(
        "p.actions",
        {},
        el("a.button.primary", { href: "/", "data-nav": "" }, _("Home: pick a game")),
        " ",
        el("a.button.secondary", { href: "/records", "data-nav": "" }, _("Finished games")),
      ),
    ),
  );
}

export async function route() {
  if (current?.destroy) current.destroy();
  current = null;
  document.title = TITLE;
  const main = clear(document.getElementById("app"));
  const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  document.body.dataset.page = parts[0] || "home";
  try {
    if (!parts.length) current = await homePage(main);
    else if (parts[0] === "new" && parts[1]) current = await newGamePage(main, parts[1]);
    else if (parts[0] === "play" && parts[1]) {
      const { matchPage } = await import("./match.js");
      current = await matchPage(main, parts[1]);
    } else if (parts[0] === "replay" && parts[1]) {
      const { replayPage } = await import("./replay.js");
      current = await replayPage(main, parts[1]);
    } else if (parts[0] === "board" && parts[1] && parts.length === 2) {
      const { boardPage } = await import("./board.js");
      current = await boardPage(main, parts[1]);
    } else if (parts[0] === "records" && parts.length === 1) await recordsPage(main);
    else if (parts[0] === "live" && parts.length === 1) await livePage(main);
    else if (parts[0] === "account" && parts.length === 1) await accountPage(main);
    else if (parts[0] === "rules" && parts[1]) await rulesPage(main, parts[1]);
    else if (parts[0] === "puzzles" && parts.length <= 3) {
      const { puzzlePage, puzzlesIndex } = await import("./puzzles.js");
      if (parts[1]) current = await puzzlePage(main, parts[1], parts[2]);
      else await puzzlesIndex(main);
    } else if (parts[0] === "player" && parts[1] && parts.length === 2) {
      const { playerPage } = await import("./ratings.js");
      await playerPage(main, parts[1]);
    } else if (parts[0] === "ratings" && parts[1] && parts.length === 2) {
      const { leaderboardPage } = await import("./ratings.js");
      await leaderboardPage(main, parts[1]);
    }
    else notFoundPage(main);
  } catch (err) {
    console.error(err);
    toast(err.message || String(err), "error");
  }
}

/** Start the client: the top bar, link handling, and the page for the current path. */
export function start() {
  loadPrefs();
  setRouter(route);
  document.body.prepend(topbar());
  document.addEventListener("click", (e) => {
    const a = e.target.closest("a[data-nav]");
    if (!a || e.metaKey || e.ctrlKey || e.shiftKey || a.target) return;
    e.preventDefault();
    navigate(a.getAttribute("href"));
  });
  window.addEventListener("popstate", route);
  route();
  whenKnown().then((account) => startYourTurn(!!account));
  startSeekWatch(); // what became of this browser's seeks, on every page
}
