// Puzzles (issue 38): /puzzles/<game> (a puzzle near the solver's puzzle rating) and
// /puzzles/<game>/<id> (that puzzle). The game's renderer draws the mover's view with the
// legal actions described, as on the match page; each click that makes a decision goes to
// the server, which says right or wrong and plays the opponent's reply (the solution stays
// on the server until the attempt is over). A hint highlights the piece, card or tile to use
// (the renderer is given only that one's moves) and makes the attempt a miss.
//
// The puzzle rating: a signed-in player's is kept by the server; a guest's lives in this
// browser's localStorage (PUZZLE_RATINGS, per game), sent with each request for a puzzle
// and updated from the attempt's answer. Either picks the next puzzle's difficulty.

import { api } from "./api.js";
import { el, clear, toast, choiceWords } from "./ui.js";
import { rendererFor } from "./games/index.js";
import { prefs } from "./nav.js";
import { whenKnown } from "./account.js";
import { enableKeyboard } from "./keyboard.js";
import { _, fmt, ngettext } from "./i18n.js";

const PUZZLE_RATINGS = "sengoku.puzzleRatings";
/** A guest's puzzles already seen, per game (the most recent, not shown again soon). */
const SEEN_KEEP = 60;

function guestStore() {
  try {
    return JSON.parse(localStorage.getItem(PUZZLE_RATINGS) || "{}") || {};
  } catch (err) {
    return {};
  }
}

/** A guest's puzzle rating for ``game``: {rating, deviation, seen: [ids]}. */
export function guestRating(game) {
  const entry = guestStore()[game] || {};
  return {
    rating: Number.isFinite(entry.rating) ? entry.rating : 1500,
    deviation: Number.isFinite(entry.deviation) ? entry.deviation : 350,
    seen: Array.isArray(entry.seen) ? entry.seen.filter((s) => typeof s === "string") : [],
  };
}

function saveGuest(game, entry) {
  const all = guestStore();
  all[game] = { ...entry, seen: entry.seen.slice(-SEEN_KEEP) };
  localStorage.setItem(PUZZLE_RATINGS, JSON.stringify(all));
}

export async function puzzlePage(root, game, puzzleId) {
  const page = new PuzzlePage(root, game, puzzleId);
  await page.start();
  return page;
}

class PuzzlePage {
  constructor(root, game, puzzleId) {
    this.root = root;
    this.game = game;
    this.wanted = puzzleId || null;
  }

  destroy() {
    window.removeEventListener("sengoku:prefs", this.onPrefs);
    this.stopKeyboard?.();
  }

  async start() {
    this.account = await whenKnown().catch(() => null);
    this.renderer = await rendererFor(this.game);
    document.title = fmt(_("{title} puzzles — Sengoku"), { title: this.renderer.title });
    this.build();
    this.onPrefs = () => this.draw();
    window.addEventListener("sengoku:prefs", this.onPrefs);
    await this.next(this.wanted);
  }

  build() {
    const r = this.renderer;
    this.els = {
      board: el("div.board-area", { id: "puzzle-board" }),
      dock: el("div.dock", { id: "dock" }),
      status: el("div.status", { id: "status", role: "status", "aria-live": "polite" }),
      prompt: el("div.prompt", { id: "prompt" }),
      rating: el("div.puzzle-rating", { id: "puzzle-rating" }),
      info: el("div.puzzle-info", { id: "puzzle-info" }),
      feedback: el("div.puzzle-feedback", { id: "puzzle-feedback", role: "status", "aria-live": "polite" }),
      hint: el("button.secondary", { type: "button", id: "puzzle-hint", onclick: () => this.hint() }, _("Hint")),
      giveUp: el("button.secondary", { type: "button", id: "puzzle-give-up", onclick: () => this.finish(false) }, _("Show the solution")),
      nextButton: el("button.primary", { type: "button", id: "puzzle-next", hidden: true, onclick: () => this.next(null) }, _("Next puzzle")),
      solution: el("div.puzzle-solution", { id: "puzzle-solution", hidden: true }),
    };
    clear(this.root).append(
      el(
        "div.match.puzzle",
        {},
        el(
          "section.play",
          {},
          el("div.match-head", {}, el("h1.match-title", {}, el("span.game-kanji", {}, r.kanji || ""), fmt(_(" {title} — puzzles"), { title: r.title }))),
          el("div.board-shell", {}, this.els.board),
        ),
        el(
          "aside.side",
          {},
          el("div.card.status-card", {}, this.els.status, this.els.prompt, this.els.feedback),
          this.els.dock,
          el(
            "div.card",
            {},
            this.els.rating,
            this.els.info,
            el("div.controls", {}, this.els.hint, this.els.giveUp, this.els.nextButton),
            this.els.solution,
          ),
        ),
      ),
    );
    this.board = r.create(this.els.board, { dock: this.els.dock });
    // Keyboard play as on the match page: what the renderer marks `data-pick` is focusable
    // and picked with Enter (the board and the dock alike).
    this.stopKeyboard = enableKeyboard(this.root.querySelector(".match.puzzle"));
  }

  /** The solver's puzzle rating as the server or this browser has it. */
  showRating(solver, delta) {
    this.solver = solver;
    const change = delta === undefined || delta === null ? "" : ` (${delta >= 0 ? "+" : ""}${delta})`;
    const where = solver.stored ? _("your account") : _("this browser (sign in to keep it)");
    clear(this.els.rating).append(
      el("span", {}, _("Puzzle rating: ")),
      el("strong", { id: "puzzle-rating-value", "data-rating": String(solver.display) }, `${solver.display}${solver.provisional ? "?" : ""}`),
      el("span.puzzle-delta", { id: "puzzle-delta" }, change),
      el("span.muted", {}, fmt(_(" — kept in {where}"), { where })),
    );
  }

  async next(id) {
    const guest = guestRating(this.game);
    let out;
    try {
      if (id) {
        const one = await api("GET", `/api/puzzles/${encodeURIComponent(id)}`);
        const solver = this.account ? (await api("GET", `/api/puzzles/next?game=${encodeURIComponent(this.game)}`)).solver : { rating: guest.rating, deviation: guest.deviation, display: Math.round(guest.rating), provisional: guest.deviation > 110, stored: false };
        out = { puzzle: one.puzzle, solver };
      } else {
        const q = new URLSearchParams({ game: this.game });
        if (!this.account) {
          q.set("rating", String(guest.rating));
          q.set("deviation", String(guest.deviation));
          if (guest.seen.length) q.set("exclude", guest.seen.join(","));
        }
        out = await api("GET", `/api/puzzles/next?${q}`);
      }
    } catch (err) {
      clear(this.els.board).append(el("div.card.error-card", {}, el("h2", {}, _("No puzzle")), el("p", {}, err.message), el("a.button", { href: "/", "data-nav": "" }, _("Home"))));
      return;
    }
    this.puzzle = out.puzzle;
    this.view = out.puzzle.view;
    this.legal = out.puzzle.legal;
    this.moves = [];
    this.hinted = false;
    this.hintActions = null;
    this.over = false;
    this.lastMove = null;
    this.flipped = this.renderer.defaultFlip(this.puzzle.seat);
    this.showRating(out.solver);
    const side = this.renderer.seatName(this.puzzle.seat);
    clear(this.els.info).append(
      el("p", {}, fmt(_("Theme: {theme}. Puzzle rating {rating}."), { theme: this.puzzle.theme, rating: this.puzzle.rating })),
      el("p.muted", {}, fmt(ngettext("You play {side}; {n} decision to find.", "You play {side}; {n} decisions to find.", this.puzzle.moves), { side, n: this.puzzle.moves })),
    );
    this.root.querySelector(".match.puzzle").dataset.puzzleId = this.puzzle.id;
    this.els.status.dataset.puzzle = this.puzzle.id;
    this.els.status.dataset.state = "solving";
    this.els.status.textContent = fmt(this.puzzle.moves === 1 ? _("{side} to move: find the best decision") : _("{side} to move: find the best line"), { side });
    this.els.feedback.textContent = "";
    this.els.feedback.dataset.verdict = "";
    this.els.solution.hidden = true;
    this.els.nextButton.hidden = true;
    this.els.hint.hidden = false;
    this.els.giveUp.hidden = false;
    if (id === null && this.wanted) history.replaceState(null, "", `/puzzles/${encodeURIComponent(this.game)}`);
    this.draw();
  }

  draw() {
    if (!this.puzzle) return;
    const interactive = !this.over && !this.sending;
    const legal = interactive ? (this.hintActions ? this.legal.filter((l) => this.hintActions.includes(l.action)) : this.legal) : [];
    this.board.update({
      view: this.view,
      legal,
      seat: this.puzzle.seat,
      interactive,
      lastAction: this.lastMove?.action || null,
      lastMove: this.lastMove,
      labels: prefs.labels,
      flipped: this.flipped,
      send: (action) => this.send(action),
    });
    this.els.board.dataset.interactive = String(interactive);
    const own = interactive ? this.renderer.prompt?.({ view: this.view, legal, seat: this.puzzle.seat }) : null;
    this.els.prompt.textContent = interactive ? own || "" : "";
  }

  async send(action) {
    if (this.over || this.sending) return;
    const row = this.legal.find((l) => l.action === action);
    if (!row) return;
    this.sending = true;
    const moves = [...this.moves, action];
    let verdict;
    try {
      verdict = await api("POST", `/api/puzzles/${encodeURIComponent(this.puzzle.id)}/move`, { body: { moves } });
    } catch (err) {
      toast(err.message, "error");
      this.sending = false;
      this.draw();
      return;
    } finally {
      this.sending = false;
    }
    this.moves = moves;
    this.hintActions = null;
    this.view = verdict.view;
    if (!verdict.correct) {
      this.lastMove = row;
      this.feedback("wrong", fmt(_("{x}: not the best here."), { x: this.moveWords(row, action) }));
      await this.finish(false);
      return;
    }
    if (verdict.solved) {
      this.lastMove = row;
      this.feedback("right", fmt(_("{move}: right!"), { move: this.moveWords(row, action) }));
      await this.finish(true);
      return;
    }
    const reply = verdict.replies.length ? verdict.replies[verdict.replies.length - 1] : null;
    this.legal = verdict.legal;
    this.lastMove = reply || row;
    this.feedback("right", reply ? fmt(_("Right. The reply: {x}. Go on."), { x: this.moveWords(reply, reply.action) }) : _("Right. Go on."));
    this.draw();
  }

  /** A move in the page's language: the renderer's words for its description, else the
   * server's label, else its notation. */
  moveWords(row, action) {
    if (!row) return action;
    const r = this.renderer;
    return choiceWords(row, r.describeChoice?.bind(r)).label || action;
  }

  feedback(verdict, text) {
    this.els.feedback.dataset.verdict = verdict;
    this.els.feedback.textContent = text;
  }

  async hint() {
    if (this.over) return;
    try {
      const out = await api("POST", `/api/puzzles/${encodeURIComponent(this.puzzle.id)}/hint`, { body: { moves: this.moves } });
      this.hinted = true;
      this.hintActions = out.actions;
      this.feedback("hint", _("Hint: the highlighted choices include the best one (a hinted puzzle counts as a miss)."));
      this.draw();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  /** The end of the attempt (``solved``: the moves solved it): the server rates it (a
   * solve after a hint as a miss) and now shows the solution. */
  async finish(solved) {
    if (this.over) return;
    this.over = true;
    this.draw();
    const guest = guestRating(this.game);
    const body = { moves: this.moves, correct: solved && !this.hinted };
    if (!this.account) {
      body.rating = guest.rating;
      body.deviation = guest.deviation;
    }
    let out;
    try {
      out = await api("POST", `/api/puzzles/${encodeURIComponent(this.puzzle.id)}/attempt`, { body });
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    if (!out.stored) {
      saveGuest(this.game, { rating: out.after.rating, deviation: out.after.deviation, seen: [...guest.seen.filter((s) => s !== this.puzzle.id), this.puzzle.id] });
    }
    this.showRating({ ...out.after, stored: out.stored }, out.rated ? out.delta : 0);
    const side = this.renderer.seatName(this.puzzle.seat);
    this.els.status.dataset.state = out.correct ? "solved" : "missed";
    this.els.status.textContent = out.correct ? _("Solved!") : this.hinted && solved ? _("Solved with a hint (counted as a miss)") : _("Missed");
    if (!this.els.feedback.textContent) this.feedback("wrong", _("The solution is shown below."));
    clear(this.els.solution).append(el("h2", {}, _("Solution")), el("ol.moves", {}, out.solution.map((m, i) => el("li", {}, i % 2 === 0 || this.puzzle.moves === out.solution.length ? `${side}: ${m}` : m))));
    this.els.solution.hidden = false;
    this.els.hint.hidden = true;
    this.els.giveUp.hidden = true;
    this.els.nextButton.hidden = false;
    this.els.nextButton.focus();
  }
}

/** /puzzles: the games with puzzles (GET /api/puzzles), each a link to its page. */
export async function puzzlesIndex(root) {
  document.title = _("Puzzles — Sengoku");
  const out = await api("GET", "/api/puzzles");
  // each game's title in the page's language (its renderer's), not the API's English one
  const titles = await Promise.all(out.games.map(async (g) => (await rendererFor(g.game)).title || g.title));
  root.append(
    el(
      "div.card.puzzles-index",
      { id: "puzzles-index" },
      el("h1", {}, _("Puzzles")),
      el("p", {}, _("Find the best move. Each puzzle comes from a game; your puzzle rating picks the next one. In Gunshi, Sashimono and Gunkimono you see only what the player to move sees, and the answer is best whatever is hidden.")),
      el("ul", {}, out.games.map((g, i) => el("li", {}, el("a", { href: `/puzzles/${g.game}`, "data-nav": "", "data-game": g.game }, fmt(ngettext("{title} ({n} puzzle)", "{title} ({n} puzzles)", g.count), { title: titles[i], n: g.count }))))),
    ),
  );
}
