// Seeks: matchmaking in the lobby (docs/api.md "Seeks", docs/web.md "Seeks"). The home page
// shows "Find an opponent": a form that offers a game (its options, a clock, rated or casual,
// a range of ratings) and the seeks this player may accept. Making a seek answers the token
// of the seat the seeker will hold; it is kept here (localStorage, per seek) and never sent
// anywhere but in an Authorization header. startSeekWatch() asks the server, on every page,
// what became of the seeks this browser holds: that keeps them standing (a seek lapses
// when its page stops asking), and when one is accepted the token is kept for the match and
// the player goes to the match page. Nothing runs at import: app.js calls the exports.

import { api, saveToken } from "./api.js";
import { el, clear, toast } from "./ui.js";
import { gameCatalog, rendererFor } from "./games/index.js";
import { navigate } from "./nav.js";
import { signedIn } from "./account.js";
import { _, fmt } from "./i18n.js";

const SEEKS_KEY = "sengoku.seeks";
/** How often the seeks this browser holds are asked after (the server lets a seek lapse
 * after a minute without a look). */
const WATCH_MS = 2_000;
/** How often the home page's list of seeks is asked for again. */
const LOBBY_MS = 4_000;

/** The clocks a seek may offer: the setup page's. */
const CLOCKS = [
  ["fischer-5-3", "5 min + 3 s a move", { type: "fischer", initial: 300, increment: 3 }],
  ["fischer-15-10", "15 min + 10 s a move", { type: "fischer", initial: 900, increment: 10 }],
  ["byoyomi-10-3x30", _("10 min, then 3 × 30 s byo-yomi"), { type: "byoyomi", main: 600, periods: 3, period: 30 }],
  ["days-1", _("1 day per move"), { type: "correspondence", days: 1 }],
  ["days-3", _("3 days per move"), { type: "correspondence", days: 3 }],
  ["none", _("No clock"), null],
];

function held() {
  try {
    return JSON.parse(localStorage.getItem(SEEKS_KEY) || "{}") || {};
  } catch (err) {
    return {};
  }
}

function keep(all) {
  localStorage.setItem(SEEKS_KEY, JSON.stringify(all));
  window.dispatchEvent(new Event("sengoku:seeks"));
}

function hold(seek, token) {
  keep({ ...held(), [seek.id]: { token, game: seek.game } });
}

function drop(id) {
  const all = held();
  delete all[id];
  keep(all);
}

/** A clock in words ("5 min + 3 s", "1 day per move"). */
export function clockWords(clock) {
  if (!clock) return _("no clock");
  const min = (s) => fmt(_("{round} min"), { round: Math.round(s / 60) });
  switch (clock.type) {
    case "fischer":
      return `${min(clock.initial)} + ${clock.increment} s`;
    case "byoyomi":
      return `${min(clock.main)} + ${clock.periods} × ${clock.period} s`;
    case "sudden_death":
      return min(clock.initial);
    case "tournament":
      return fmt(_("{time} each"), { time: min(clock.initial) });
    case "correspondence":
      return clock.days === 1 ? _("1 day per move") : fmt(_("{days} days per move"), { days: clock.days });
    default:
      return clock.type;
  }
}

function rangeWords(seek) {
  if (seek.rating_min === null && seek.rating_max === null) return "";
  if (seek.rating_max === null) return fmt(_("for ratings {rating_min}+"), { rating_min: seek.rating_min });
  if (seek.rating_min === null) return fmt(_("for ratings up to {rating_max}"), { rating_max: seek.rating_max });
  return fmt(_("for ratings {rating_min}–{rating_max}"), { rating_min: seek.rating_min, rating_max: seek.rating_max });
}

/** What a seek's options change from the game's defaults, in words. */
function optionSummary(seek, info) {
  const changed = [];
  for (const opt of info?.options || []) {
    const value = seek.options[opt.name];
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(opt.default)) changed.push(`${opt.name.replace(/_/g, " ")}: ${value}`);
  }
  return changed.join(", ");
}

// -- the watch: what became of this browser's seeks -------------------------------------

let watchTimer = null;

async function lookAtSeeks() {
  for (const [id, { token }] of Object.entries(held())) {
    let seeks;
    try {
      seeks = (await api("GET", "/api/seeks/mine", { token })).seeks;
    } catch (err) {
      if (err.status === 401) drop(id); // the token is unknown: nothing to wait for
      continue;
    }
    const seek = seeks.find((s) => s.id === id);
    if (!seek || seek.status === "cancelled" || seek.status === "expired") {
      drop(id);
      continue;
    }
    if (seek.status === "accepted" && seek.match_id) {
      drop(id);
      // the token the seek's making answered holds this seat of the new match
      saveToken(seek.match_id, seek.seat, token);
      toast(_("Your seek was accepted: the game begins"));
      navigate(`/play/${seek.match_id}`);
      return;
    }
  }
}

/** Watch this browser's seeks on every page, every WATCH_MS while it holds some. */
export function startSeekWatch() {
  if (watchTimer) return;
  const tick = async () => {
    if (Object.keys(held()).length) await lookAtSeeks();
    watchTimer = setTimeout(tick, WATCH_MS);
  };
  watchTimer = setTimeout(tick, 0);
}

// -- the home page's section --------------------------------------------------------------

/**
 * "Find an opponent": the seek form and the lobby's seeks. ``widgets`` are the setup page's
 * option widgets (app.js): ``optionInput(opt, game)`` and ``syncOptions(box)``. Returns
 * ``{box, stop}``.
 */
export function seekSection({ optionInput, syncOptions }) {
  const gameSelect = el("select", { id: "seek-game", "aria-label": _("Game") });
  const optionsBox = el("div.options.seek-options", { id: "seek-options" });
  const clock = el("select", { id: "seek-clock" }, CLOCKS.map(([key, words]) => el("option", { value: key }, words)));
  const rated = el("input", { type: "radio", name: "seek-rated", id: "seek-rated", value: "rated", disabled: true });
  const casual = el("input", { type: "radio", name: "seek-rated", id: "seek-casual", value: "casual", checked: true });
  const low = el("input", { type: "number", id: "seek-min", min: 0, max: 4000, step: 50, placeholder: "any", disabled: true });
  const high = el("input", { type: "number", id: "seek-max", min: 0, max: 4000, step: 50, placeholder: "any", disabled: true });
  const help = el("small", { id: "seek-help" }, _("Checking whether you are signed in…"));
  const mine = el("div.records.my-seeks", { id: "my-seeks" });
  const list = el("div.records.seek-list", { id: "seek-list" }, el("p.muted", {}, _("Looking for seeks…")));
  let catalog = [];
  let account = null;

  const info = () => catalog.find((g) => g.name === gameSelect.value);
  const drawOptions = () => {
    clear(optionsBox);
    const game = info();
    if (!game) return;
    optionsBox.append(...game.options.map((o) => optionInput(o, game.name)));
    const players = optionsBox.querySelector('select[name="players"]');
    if (players) players.value = JSON.stringify(2);
    sync();
  };
  const sync = () => {
    syncOptions(optionsBox);
    // a seek is a game of two: the number of players is not a choice here
    const players = optionsBox.querySelector('.field[data-option="players"]');
    if (players) players.hidden = true;
  };
  gameSelect.addEventListener("change", drawOptions);
  optionsBox.addEventListener("change", sync);
  rated.addEventListener("change", () => {
    if (rated.checked && clock.value === "none") clock.value = CLOCKS[0][0];
  });

  const create = async (e) => {
    e.preventDefault();
    const options = {};
    for (const field of optionsBox.querySelectorAll("select, input")) {
      if (field.disabled) continue; // an option that does not apply: the default stands
      if (field.tagName === "SELECT") options[field.name] = JSON.parse(field.value);
      else if (field.dataset.kind === "text") options[field.name] = field.value;
      else if (field.value !== "") options[field.name] = Number(field.value);
    }
    const body = { game: gameSelect.value, options, clock: CLOCKS.find(([key]) => key === clock.value)[2], rated: rated.checked };
    if (account && low.value !== "") body.rating_min = Number(low.value);
    if (account && high.value !== "") body.rating_max = Number(high.value);
    if (!account) {
      const name = localStorage.getItem("sengoku.name");
      if (name) body.name = name;
    }
    try {
      const out = await api("POST", "/api/seeks", { body });
      hold(out.seek, out.token);
      toast(_("Seek created: waiting for an opponent"));
      refresh();
    } catch (err) {
      toast(err.message, "error");
    }
  };

  const form = el(
    "form.seek-form",
    { id: "seek-form", onsubmit: create },
    el("div.field", {}, el("label", { for: "seek-game" }, _("Game")), gameSelect),
    optionsBox,
    el("div.field", {}, el("label", { for: "seek-clock" }, _("Clock")), clock),
    el(
      "fieldset.field.rated-choice",
      { "aria-describedby": "seek-help" },
      el("legend", {}, _("Rated or casual")),
      el("span.radio-pair", {}, el("label", { for: "seek-casual" }, casual, " Casual"), el("label", { for: "seek-rated" }, rated, " Rated")),
      help,
    ),
    el(
      "fieldset.field.seek-range",
      {},
      el("legend", {}, "Opponent's rating (optional)"),
      el("span.radio-pair", {}, el("label", { for: "seek-min" }, "from ", low), el("label", { for: "seek-max" }, "to ", high)),
    ),
    el("button.primary", { type: "submit", id: "seek-create" }, _("Create a seek")),
  );

  const box = el(
    "section.card.seeks",
    { id: "seeks" },
    el("h2", {}, _("Find an opponent")),
    el("p.muted", {}, _("Offer a game and wait here for someone to accept it, or accept another player's seek: the game starts at once.")),
    el("div.seeks-grid", {}, el("details.seek-create", {}, el("summary", {}, _("Create a seek")), form), el("div", {}, el("h3", {}, _("Your seeks")), mine, el("h3", {}, _("Seeks you can accept")), list)),
  );

  // Each list is built whole before it replaces what is shown: two redraws at once (the
  // periodic one and one after a change) would otherwise both clear, then both append.
  const drawMine = async () => {
    const entries = Object.entries(held());
    const rows = [];
    for (const [id, { token, game }] of entries) {
      const r = await rendererFor(game);
      rows.push(
        el(
          "div.record-row.seek-row.mine",
          { "data-seek": id },
          el("span.game-kanji.small", { "aria-hidden": "true" }, r.kanji),
          el("span.record-main", {}, el("strong", {}, r.title), el("span.muted", {}, _("Waiting for an opponent…"))),
          el(
            "button.secondary.seek-withdraw",
            {
              type: "button",
              onclick: async () => {
                try {
                  await api("DELETE", `/api/seeks/${encodeURIComponent(id)}`, { token });
                } catch (err) {
                  if (err.code !== "no_such_seek") toast(err.message, "error");
                }
                drop(id);
                refresh();
              },
            },
            _("Withdraw"),
          ),
        ),
      );
    }
    clear(mine);
    if (!rows.length) mine.append(el("p.muted", {}, _("None. Create one to be matched.")));
    else mine.append(...rows);
  };

  const drawList = async () => {
    let seeks;
    try {
      seeks = (await api("GET", "/api/seeks")).seeks;
    } catch (err) {
      return;
    }
    const own = held();
    seeks = seeks.filter((s) => !own[s.id]); // a guest's own seeks are listed to all
    const rows = [];
    for (const s of seeks) {
      const r = await rendererFor(s.game);
      const rating = s.rating ? ` (${s.rating.rating}${s.rating.provisional ? "?" : ""})` : "";
      const details = [clockWords(s.clock), rangeWords(s), optionSummary(s, catalog.find((g) => g.name === s.game))].filter(Boolean).join(" · ");
      rows.push(
        el(
          "div.record-row.seek-row",
          { "data-seek": s.id, "data-game": s.game },
          el("span.game-kanji.small", { "aria-hidden": "true" }, r.kanji),
          el(
            "span.record-main",
            {},
            el("strong", {}, r.title, " ", el(`span.rated-mark${s.rated ? ".rated" : ""}`, {}, s.rated ? "rated" : "casual")),
            el("span.seek-by", {}, `${s.name}${rating}`),
            el("span.muted", {}, details),
          ),
          el("button.primary.seek-accept", { type: "button", onclick: () => acceptSeek(s.id) }, _("Accept")),
        ),
      );
    }
    clear(list);
    if (!rows.length) list.append(el("p.muted", {}, _("No seek you can accept right now.")));
    else list.append(...rows);
  };

  const acceptSeek = async (id) => {
    const body = {};
    if (!account) {
      const name = localStorage.getItem("sengoku.name");
      if (name) body.name = name;
    }
    try {
      const out = await api("POST", `/api/seeks/${encodeURIComponent(id)}/accept`, { body });
      saveToken(out.id, out.seat, out.token);
      navigate(`/play/${out.id}`);
    } catch (err) {
      toast(err.message, "error");
      refresh();
    }
  };

  let timer = null;
  let stopped = false;
  const refresh = async () => {
    clearTimeout(timer);
    await Promise.all([drawMine(), drawList()]);
    if (!stopped) timer = setTimeout(refresh, LOBBY_MS);
  };
  const onSeeks = () => drawMine();
  window.addEventListener("sengoku:seeks", onSeeks);

  (async () => {
    try {
      catalog = (await gameCatalog()).games.filter((g) => g.min_players <= 2 && 2 <= g.max_players);
    } catch (err) {
      catalog = [];
    }
    for (const g of catalog) {
      const r = await rendererFor(g.name);
      gameSelect.append(el("option", { value: g.name }, r.title));
    }
    drawOptions();
    account = await signedIn();
    rated.disabled = !account;
    low.disabled = high.disabled = !account;
    clear(help).append(
      account
        ? _("Rated games change your rating; the range limits who may accept.")
        : el("span", {}, _("Rated seeks and rating ranges are for signed-in players: "), el("a", { href: "/account", "data-nav": "" }, _("sign in")), "."),
    );
    refresh();
  })();

  return {
    box,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener("sengoku:seeks", onSeeks);
    },
  };
}
