// The lists of matches: the records (finished games: winner, players, date, a filter by
// game, pages) and the live games (in play now, with spectators and a link to share).

import { api } from "./api.js";
import { el, toast } from "./ui.js";
import { gameCatalog, rendererFor } from "./games/index.js";
import { navigate } from "./nav.js";
import { resultInWords } from "./words.js";
import { _, fmt, ngettext } from "./i18n.js";

/** Records per page: one short screen. */
export const PER_PAGE = 25;

function seatLabel(renderer, seat) {
  const side = renderer.seatName(seat.seat);
  if (seat.kind === "ai") return `${side} (computer)`;
  return seat.name && seat.name !== side ? `${seat.name} (${side})` : side;
}

function when(seconds) {
  const d = new Date(seconds * 1000);
  return d.toLocaleDateString([], { year: "numeric", month: "short", day: "numeric" }) + " " + d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** The query of the list pages: ``game`` and a 1-based ``page``. */
function query() {
  const q = new URLSearchParams(location.search);
  const page = Math.max(1, Number.parseInt(q.get("page") || "1", 10) || 1);
  return { game: q.get("game") || "", page };
}

function listUrl(path, game, page) {
  const q = new URLSearchParams();
  if (game) q.set("game", game);
  if (page > 1) q.set("page", String(page));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

async function gameFilter(path, game) {
  const select = el("select", { id: "list-game", "aria-label": _("Show the games of") }, el("option", { value: "" }, _("All games")));
  try {
    for (const g of (await gameCatalog()).games) {
      const r = await rendererFor(g.name);
      select.append(el("option", { value: g.name, selected: g.name === game }, r.title));
    }
  } catch (err) {
    // without the catalog, the list shows every game
  }
  select.addEventListener("change", () => navigate(listUrl(path, select.value, 1)));
  return el("label.list-filter", {}, "Game ", select);
}

function pager(path, game, page, hasMore) {
  const nav = el("nav.pager", { "aria-label": _("Pages") });
  nav.append(
    page > 1 ? el("a.button.secondary", { href: listUrl(path, game, page - 1), "data-nav": "", id: "page-newer", rel: "prev" }, "← Newer") : el("span"),
    el("span.muted", { id: "page-number" }, fmt(_("Page {page}"), { page })),
    hasMore ? el("a.button.secondary", { href: listUrl(path, game, page + 1), "data-nav": "", id: "page-older", rel: "next" }, "Older →") : el("span"),
  );
  return nav;
}

/** The finished games, ``PER_PAGE`` at a time, newest first; ``importForm`` beside them. */
export async function recordsPage(root, importForm) {
  const { game, page } = query();
  const list = el("div.records", { id: "records-list" });
  const head = el("div.list-head", {}, el("h1", {}, _("Finished games")));
  const card = el("section.card", {}, head, list);
  root.append(el("div.records-page", {}, card, importForm));
  head.append(await gameFilter("/records", game));
  let records = [];
  try {
    // One more than a page: whether an older page exists, without counting every record.
    const q = new URLSearchParams({ limit: String(PER_PAGE + 1), offset: String((page - 1) * PER_PAGE) });
    if (game) q.set("game", game);
    records = (await api("GET", `/api/records?${q}`)).records;
  } catch (err) {
    toast(err.message, "error");
    return;
  }
  const more = records.length > PER_PAGE;
  records = records.slice(0, PER_PAGE);
  if (!records.length) list.append(el("p.muted", {}, page > 1 ? _("No older games.") : _("No finished games yet.")));
  for (const rec of records) {
    const r = await rendererFor(rec.game);
    const bySeat = new Map(rec.seats.map((s) => [s.seat, s]));
    const nameOf = (seat) => (bySeat.has(seat) ? seatLabel(r, bySeat.get(seat)) : r.seatName(seat));
    const outcome = rec.result ? resultInWords(rec.result, nameOf) : rec.status === "aborted" ? _("Aborted: no result") : fmt(_("Ended: {status}"), { status: rec.status });
    const winners = new Set(rec.result?.winners || []);
    list.append(
      el(
        "a.record-row",
        { href: `/replay/${rec.id}`, "data-nav": "", "data-id": rec.id, "data-game": rec.game },
        el("span.game-kanji.small", { "aria-hidden": "true" }, r.kanji),
        el(
          "span.record-main",
          {},
          el("strong", {}, r.title),
          el(
            "span.record-players",
            {},
            rec.seats.map((s, i) => [i ? " vs " : "", winners.has(s.seat) ? el("b.winner", {}, seatLabel(r, s)) : seatLabel(r, s)]),
          ),
        ),
        el("span.record-result", {}, outcome),
        el("time.muted", { datetime: new Date(rec.updated_at * 1000).toISOString() }, when(rec.updated_at)),
      ),
    );
  }
  card.append(pager("/records", game, page, more));
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast(_("Link copied"));
  } catch (err) {
    toast(fmt(_("Share this link: {text}"), { text }));
  }
}

/** The games in play now: watch one, or share its link. */
export async function livePage(root) {
  const { game, page } = query();
  const list = el("div.records.live-list", { id: "live-list" });
  const head = el("div.list-head", {}, el("h1", {}, _("Live games")));
  const card = el("section.card", {}, head, el("p.muted", {}, _("Games in play now. Watch one as a spectator: you see what every spectator sees, never a player's hidden cards.")), list);
  root.append(el("div.live-page", {}, card));
  head.append(await gameFilter("/live", game));
  let matches = [];
  try {
    const q = new URLSearchParams({ status: "active", limit: String(PER_PAGE + 1), offset: String((page - 1) * PER_PAGE) });
    if (game) q.set("game", game);
    matches = (await api("GET", `/api/matches?${q}`)).matches;
  } catch (err) {
    toast(err.message, "error");
    return;
  }
  const more = matches.length > PER_PAGE;
  matches = matches.slice(0, PER_PAGE);
  if (!matches.length) list.append(el("p.muted", {}, _("No game is being played right now.")));
  for (const m of matches) {
    const r = await rendererFor(m.game);
    const url = `${location.origin}/play/${encodeURIComponent(m.id)}`;
    const watching = fmt(ngettext("{n} spectator", "{n} spectators", m.spectators || 0), { n: m.spectators || 0 });
    list.append(
      el(
        "div.record-row.live-row",
        { "data-id": m.id },
        el("span.game-kanji.small", { "aria-hidden": "true" }, r.kanji),
        el("span.record-main", {}, el("strong", {}, r.title, " ", el(`span.rated-mark${m.rated ? ".rated" : ""}`, {}, m.rated ? "rated" : "casual")), el("span", {}, m.seats.map((s) => seatLabel(r, s)).join(" vs "))),
        el("span.record-result.spectator-count", {}, watching),
        el(
          "span.live-actions",
          {},
          el("a.button.primary", { href: `/play/${encodeURIComponent(m.id)}`, "data-nav": "", "data-watch": m.id }, _("Watch")),
          el("button.secondary", { type: "button", "data-share": url, onclick: () => copy(url) }, _("Copy link")),
        ),
      ),
    );
  }
  card.append(pager("/live", game, page, more));
}
