// Turn-based play for a signed-in player (docs/web.md "Your turn"): the games of the account
// whose move it is, across every game, asked of the server (GET /api/account/games?turn=mine)
// on every page, now and then. When there are some, the tab's title carries a badge
// "(2) Sengoku", the favicon a dot; when a new one comes, a short sound ("turn", made by
// tools/make_sounds.py) and, if the player allowed them with the button (never asked on
// page load), a system notification. Nothing runs at import: app.js calls startYourTurn().

import { api } from "./api.js";
import { el, formatTimeLeft } from "./ui.js";
import { sounds } from "./sound.js";
import { rendererFor } from "./games/index.js";
import { _, fmt } from "./i18n.js";

/** The notifications switch (shared with the match page's "Notify me"). */
export const NOTIFY_KEY = "sengoku.notify";
/** How often the list is asked for while signed in. */
const POLL_MS = 30_000;
const BADGE = /^\(\d+\) /u;

const watch = {
  signedIn: false,
  games: [], // the last answer's games whose move it is
  seen: null, // keys (match:ply) already announced; null until the first answer
  timer: null,
  favicon: null, // [plain href, href with a dot]
  listeners: new Set(),
};

/** How many games wait for this player's move (the badge's number). */
export function yourTurnCount() {
  return watch.games.length;
}

export function yourTurnGames() {
  return watch.games;
}

/** ``fn(games)`` after each answer; returns the function that stops it. */
export function onYourTurn(fn) {
  watch.listeners.add(fn);
  return () => watch.listeners.delete(fn);
}

export function notifyOn() {
  return localStorage.getItem(NOTIFY_KEY) === "on" && window.Notification?.permission === "granted";
}

/** The button that allows system notifications (the browser asks only on its click). */
export function notifyButton() {
  if (!("Notification" in window)) return null;
  const button = el("button.secondary", { type: "button", id: "your-turn-notify", "aria-pressed": "false" }, _("Notify me"));
  const draw = () => {
    const on = notifyOn();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? _("Notify me: on") : _("Notify me");
  };
  button.addEventListener("click", async () => {
    if (notifyOn()) localStorage.setItem(NOTIFY_KEY, "off");
    else if ((await Notification.requestPermission()) === "granted") localStorage.setItem(NOTIFY_KEY, "on");
    draw();
  });
  draw();
  return button;
}

function badgeTitle() {
  const plain = document.title.replace(BADGE, "");
  const wanted = watch.games.length ? `(${watch.games.length}) ${plain}` : plain;
  if (document.title !== wanted) document.title = wanted;
}

async function badgeFavicon() {
  const link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  if (!watch.favicon) {
    const plain = link.getAttribute("href");
    let dotted = plain;
    try {
      const svg = await (await fetch(plain)).text();
      // A red dot with a light ring in the corner, over the site's own icon.
      const dot = '<circle cx="50" cy="14" r="13" fill="#d7263d" stroke="#fbf6ea" stroke-width="4"/>';
      dotted = `data:image/svg+xml,${encodeURIComponent(svg.replace(/<\/svg>\s*$/u, `${dot}</svg>`))}`;
    } catch (err) {
      // no icon to draw on: the title's badge still says it
    }
    watch.favicon = [plain, dotted];
  }
  const href = watch.favicon[watch.games.length ? 1 : 0];
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  document.documentElement.dataset.yourTurn = String(watch.games.length);
}

/** The match open on this page, if any: its own table already says "your turn". */
function openMatch() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts[0] === "play" ? decodeURIComponent(parts[1] || "") : null;
}

async function announce(fresh) {
  const elsewhere = fresh.filter((g) => g.match_id !== openMatch());
  if (!elsewhere.length) return;
  sounds.play("turn", null);
  if (!notifyOn() || (!document.hidden && document.hasFocus())) return;
  for (const g of elsewhere.slice(0, 3)) {
    const r = await rendererFor(g.game).catch(() => null);
    try {
      const note = new Notification(_("Your turn"), {
        body: fmt(_("{game} against {opponents}"), { game: r?.title || g.title, opponents: g.opponents.join(", ") || _("your opponent") }),
        tag: `sengoku-${g.match_id}`,
      });
      note.onclick = () => {
        window.focus();
        location.assign(`/play/${g.match_id}`);
      };
    } catch (err) {
      // some browsers allow notifications only from a service worker: the badge still says it
    }
  }
}

/** Ask the server now (a signed-in page; signed out, the list is empty). */
export async function pollYourTurn() {
  if (!watch.signedIn) {
    watch.games = [];
  } else {
    try {
      watch.games = (await api("GET", "/api/account/games?turn=mine")).games;
    } catch (err) {
      if (err.status === 401) watch.signedIn = false;
      if (err.status === 401) watch.games = [];
      else return; // the server is away a moment: keep what was shown
    }
  }
  const keys = watch.games.map((g) => `${g.match_id}:${g.ply}`);
  if (watch.seen !== null) announce(watch.games.filter((g, i) => !watch.seen.has(keys[i])));
  watch.seen = new Set(keys);
  badgeTitle();
  await badgeFavicon();
  for (const fn of watch.listeners) fn(watch.games);
}

/** Start watching, for as long as the page lives; ``signedIn`` changes come as
 * ``sengoku:account`` events (account.js). */
export function startYourTurn(signedIn) {
  watch.signedIn = signedIn;
  const title = document.querySelector("title");
  // Every page sets its own title: the badge is put back in front of each new one.
  if (title) new MutationObserver(badgeTitle).observe(title, { childList: true, characterData: true, subtree: true });
  window.addEventListener("sengoku:account", (e) => {
    watch.signedIn = !!e.detail?.account;
    watch.seen = null; // another account's games: none of them is news
    pollYourTurn();
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && watch.signedIn) pollYourTurn();
  });
  watch.timer = setInterval(() => {
    if (watch.signedIn) pollYourTurn();
  }, POLL_MS);
  pollYourTurn();
}

/** The home page's list: a signed-in player's games whose move it is, first on the page. */
export function yourTurnSection() {
  const box = el("section.card.resume.your-turn", { id: "your-turn", hidden: true, "aria-labelledby": "your-turn-title" });
  const draw = async (games) => {
    const rows = [];
    for (const g of games) {
      const r = await rendererFor(g.game).catch(() => null);
      rows.push(
        el(
          "a.record-row",
          { href: `/play/${g.match_id}`, "data-nav": "", "data-id": g.match_id },
          el("span.game-kanji.small", {}, r?.kanji || ""),
          el("span.record-main", {}, el("strong", {}, r?.title || g.title), el("span", {}, fmt(_("against {join}"), { join: g.opponents.join(", ") || "—" }))),
          el("span.record-result", {}, g.time_left === null ? _("your move") : fmt(_("your move · {formatTimeLeft} left"), { formatTimeLeft: formatTimeLeft(g.time_left) })),
        ),
      );
    }
    box.replaceChildren(el("h2", { id: "your-turn-title" }, games.length === 1 ? _("Your turn: 1 game") : fmt(_("Your turn: {length} games"), { length: games.length })), ...rows);
    const button = notifyButton();
    if (button) box.append(el("p.your-turn-notify", {}, button));
    box.hidden = !games.length;
  };
  const stop = onYourTurn(draw);
  draw(yourTurnGames());
  return { box, stop };
}
