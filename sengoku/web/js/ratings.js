// Ratings (docs/ratings.md): the end card's rating lines, a player's profile (/player/NAME)
// and a game's leaderboard (/ratings/GAME). Public data only, from GET /api/players/{name}
// and GET /api/ratings/{game}.

import { api } from "./api.js";
import { el, svg, clear, toast } from "./ui.js";
import { rendererFor } from "./games/index.js";
import { _, N_, fmt, ngettext } from "./i18n.js";

/** The games with a leaderboard (sengoku/ratings RATED), in the order shown. */
export const RATED_GAMES = ["gungi", "gunshi", "gunkimono", "sashimono"];

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

/** "1500 → 1512 (+12)" */
export function changeText(entry) {
  return `${entry.before} → ${entry.after} (${signed(entry.delta)})`;
}

/** The end card's lines of a rated game's changes: "Your rating: 1500 → 1512 (+12)" for
 * each seat this browser holds, the others by name, and for a game against the AI "you beat
 * level 3 (about 1500)". ``held``: the seats this browser holds. */
export function ratingLines(snap, held, seatTitle) {
  const r = snap.ratings;
  if (!r) return null;
  const players = r.seats.filter((s) => s.kind === "player");
  const bots = r.seats.filter((s) => s.kind === "ai");
  const mine = players.filter((s) => held.includes(s.seat));
  const lines = [];
  for (const s of players) {
    const who = mine.length === 1 && held.includes(s.seat) ? _("Your rating") : fmt(_("{seatTitle}'s rating"), { seatTitle: seatTitle(s.seat) });
    lines.push(el("li", { "data-seat": s.seat, class: "rating-line" }, el("span", {}, `${who}:`), el("strong", {}, changeText(s)), s.provisional ? el("span.muted", { title: _("Provisional: too few rated games for a settled rating") }, " (provisional)") : null));
  }
  const winners = snap.result?.winners || [];
  for (const b of bots) {
    const you = mine[0];
    const about = fmt(_("level {level} (about {rating})"), { level: b.level, rating: b.rating });
    let text;
    if (!you) text = fmt(_("the computer played as {about}"), { about });
    else if (!winners.length) text = fmt(_("you drew with {about}"), { about });
    else if (winners.includes(you.seat)) text = fmt(_("you beat {about}"), { about });
    else text = fmt(_("you lost to {about}"), { about });
    lines.push(el("li", { class: "rating-bot" }, text));
  }
  return el("div.end-ratings", {}, el("h3", {}, _("Rated game")), el("ul.ratings-list", {}, lines));
}

/** A small SVG graph of a rating's history: points [time, rating], by game. */
export function historyGraph(points, label) {
  const w = 320;
  const h = 96;
  const pad = 8;
  const values = points.map((p) => p[1]);
  const lo = Math.min(...values) - 10;
  const hi = Math.max(...values) + 10;
  const x = (i) => pad + (points.length > 1 ? (i * (w - 2 * pad)) / (points.length - 1) : (w - 2 * pad) / 2);
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / (hi - lo);
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" ");
  return svg(
    "svg",
    { class: "rating-graph", viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": label, preserveAspectRatio: "none" },
    svg("title", {}, label),
    svg("line", { x1: pad, x2: w - pad, y1: y(1500), y2: y(1500), class: "rating-graph-base" }),
    svg("path", { d: path, class: "rating-graph-line" }),
    ...points.map((p, i) => svg("circle", { cx: x(i), cy: y(p[1]), r: 3, class: "rating-graph-point" })),
  );
}

const RESULT_WORDS = { win: N_("won"), loss: N_("lost"), draw: N_("drew") };

function when(t) {
  return new Date(t * 1000).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

/** /player/NAME: the player's ratings per game (with a history graph), counts, and a games
 * list filtered by game, result and opponent. */
export async function playerPage(root, name) {
  document.title = fmt(_("{name} — Sengoku"), { name });
  let data;
  try {
    data = await api("GET", `/api/players/${encodeURIComponent(name)}?limit=200`);
  } catch (err) {
    root.append(el("div.card.not-found", { id: "no-player" }, el("h1", {}, _("No such player")), el("p", {}, err.status === 404 ? fmt(_("Nobody plays here under the name {name}."), { name }) : err.message)));
    return;
  }
  document.title = fmt(_("{name} — Sengoku"), { name: data.name });
  const rec = data.record;
  const titles = {};
  for (const g of new Set([...data.ratings.map((p) => p.game), ...data.games.map((g) => g.game)])) titles[g] = (await rendererFor(g)).title;
  const pools = data.ratings.map((p) => {
    const title = titles[p.game] + (p.system === "plackett_luce" ? " (3-5 players)" : "");
    return el(
      "article.card.rating-pool",
      { "data-game": p.game, "data-system": p.system },
      el("h2", {}, title),
      el("p.rating-now", {}, el("strong.rating-number", {}, String(p.rating)), p.provisional ? el("span.provisional", { title: _("Provisional: too few rated games for a settled rating") }, "?") : null, el("span.muted", {}, fmt(ngettext(" ± {deviation} · {n} rated game", " ± {deviation} · {n} rated games", p.games), { deviation: Math.round(p.deviation), n: p.games }))),
      el("p.rating-record", {}, fmt(_("{wins} won · {losses} lost · {draws} drawn"), { wins: p.record.wins, losses: p.record.losses, draws: p.record.draws })),
      p.history.length ? historyGraph(p.history, fmt(_("{title} rating over {games} rated games: from {x} to {x2}"), { title, games: p.games, x: p.history[0][1], x2: p.history[p.history.length - 1][1] })) : null,
      el("a", { href: `/ratings/${p.game}`, "data-nav": "" }, fmt(_("{title} leaderboard"), { title })),
    );
  });
  const gameSel = el("select", { id: "filter-game" }, el("option", { value: "" }, _("Every game")), Object.entries(titles).map(([g, t]) => el("option", { value: g }, t)));
  const resultSel = el("select", { id: "filter-result" }, el("option", { value: "" }, _("Any result")), el("option", { value: "win" }, _("Won")), el("option", { value: "loss" }, _("Lost")), el("option", { value: "draw" }, _("Drawn")));
  const opponents = [...new Set(data.games.flatMap((g) => g.opponents))].sort();
  const oppInput = el("input", { id: "filter-opponent", type: "text", list: "opponent-names", maxlength: 64, autocomplete: "off" });
  const list = el("div.player-games", { id: "player-games", "aria-live": "polite" });
  const draw = () => {
    const opp = oppInput.value.trim().toLowerCase();
    const shown = data.games.filter((g) => (!gameSel.value || g.game === gameSel.value) && (!resultSel.value || g.result === resultSel.value) && (!opp || g.opponents.some((n) => n.toLowerCase() === opp)));
    clear(list);
    if (!shown.length) list.append(el("p.muted", {}, _("No finished game matches.")));
    for (const g of shown) {
      list.append(
        el(
          "a.record-row",
          { href: `/replay/${g.id}`, "data-nav": "", "data-id": g.id, "data-result": g.result || "" },
          el("span.record-main", {}, el("strong", {}, titles[g.game] || g.game), el("span", {}, fmt(_("{result} against {opponents}"), { result: RESULT_WORDS[g.result] ? _(RESULT_WORDS[g.result]) : _("played"), opponents: g.opponents.join(", ") || _("nobody") }))),
          el("span.record-result", {}, g.rating ? fmt(_("rated {changeText}"), { changeText: changeText(g.rating) }) : "casual", el("span.muted", {}, ` · ${when(g.at)}`)),
        ),
      );
    }
  };
  for (const input of [gameSel, resultSel]) input.addEventListener("change", draw);
  oppInput.addEventListener("input", draw);
  root.append(
    el(
      "section.player-page",
      { id: "player-page" },
      el("h1", {}, data.name),
      el("p.player-record", {}, fmt(_("{wins} won · {losses} lost · {draws} drawn"), { wins: rec.wins, losses: rec.losses, draws: rec.draws }), el("span.muted", {}, fmt(_(" · playing since {when}"), { when: when(data.since) }))),
      pools.length ? el("div.rating-pools", {}, pools) : el("p.muted", {}, _("No rated game yet.")),
      el("h2", {}, _("Games")),
      el(
        "form.card.filters",
        { role: "search", "aria-label": _("Filter the games"), onsubmit: (e) => e.preventDefault() },
        el("div.field", {}, el("label", { for: "filter-game" }, _("Game")), gameSel),
        el("div.field", {}, el("label", { for: "filter-result" }, _("Result")), resultSel),
        el("div.field", {}, el("label", { for: "filter-opponent" }, _("Opponent")), oppInput, el("datalist", { id: "opponent-names" }, opponents.map((n) => el("option", { value: n })))),
      ),
      list,
    ),
  );
  draw();
}

/** /ratings/GAME: the top players by rating, provisional ratings marked. */
export async function leaderboardPage(root, game) {
  const r = await rendererFor(game);
  document.title = fmt(_("{title} ratings — Sengoku"), { title: r.title });
  const tabs = el(
    "nav.rating-tabs",
    { "aria-label": _("Leaderboards") },
    await Promise.all(RATED_GAMES.map(async (g) => el("a", { href: `/ratings/${g}`, "data-nav": "", "aria-current": g === game ? "page" : null }, (await rendererFor(g)).title))),
  );
  const body = el("div.card.leaderboard", { id: "leaderboard" });
  root.append(el("h1", {}, fmt(_("{title}: the best players"), { title: r.title })), tabs, body);
  let data;
  try {
    data = await api("GET", `/api/ratings/${encodeURIComponent(game)}`);
  } catch (err) {
    body.append(el("p", {}, err.message));
    toast(err.message, "error");
    return;
  }
  if (!data.players.length) {
    body.append(el("p.muted", {}, fmt(_("Nobody has played a rated game of {title} yet."), { title: r.title })));
    return;
  }
  body.append(
    el(
      "table.leaderboard-table",
      {},
      el("caption", {}, fmt(_("{title}, rated games (Glicko-2). ? marks a provisional rating: too few games yet."), { title: r.title })),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, _("Player")), el("th", { scope: "col" }, _("Rating")), el("th", { scope: "col" }, _("Games")))),
      el(
        "tbody",
        {},
        data.players.map((p) =>
          el(
            "tr",
            { "data-name": p.name },
            el("td", {}, String(p.rank)),
            el("td", {}, el("a", { href: `/player/${encodeURIComponent(p.name)}`, "data-nav": "" }, p.name)),
            el("td", {}, String(p.rating), p.provisional ? el("span.provisional", { title: _("Provisional") }, "?") : null),
            el("td", {}, String(p.games)),
          ),
        ),
      ),
    ),
  );
}
