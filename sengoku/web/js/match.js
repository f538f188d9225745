// The game page: one match, live over the WebSocket. Players and clocks, the game's board
// (drawn by its renderer), status, notation entry, the move list, resign, rematch, the end
// panel, invitation links and, in hot seat, the "pass the device" screen.
//
// LAYOUT CONTRACT FOR RENDERERS (js/games/<renderer>.js)
// The page is one screen high: nothing a player needs to act on is below the fold, at
// 1920x1080 as at 390x844. Its regions (CSS grid areas of .match, see style.css):
//   - the board area (`root`, .board-area): beside the side panel on a wide screen, under the
//     title on a phone. On a wide screen it has a definite height (the window's, less the top
//     bar); give the main drawing the class `board-fit` and it is scaled to fit that box (an
//     <svg> with a viewBox inside it fills it, letterboxed). Anything else in `root` scrolls
//     inside the board area, never the page.
//   - the dock (`ctx.dock`, .dock): in the side panel right under the prompt on a wide screen,
//     right under the board on a phone; always on screen. Put the player's hand (class
//     `hand`) and the buttons that make the decision (class `actions`) there, and keep it
//     compact: long secondary lists belong in the board area or in a <details>.
//   - the prompt (.prompt, id "prompt"): written by this page. It says in words what the
//     player decides: the renderer's `prompt(model)` when it has one and returns text, else
//     a sentence made from the legal rows' kinds (ui.js promptFromLegal). Each legal row has
//     `action` (notation), `kind`, `label`, `text` and the objects it involves (`piece`,
//     `card`, `tile`, `from`, `to`, `slot`, `step`...): renderers read those, never notation.
//   - the secondary panel (players, controls, moves): folds or scrolls inside itself.
// The hot-seat "pass the device" screen covers the board area and the dock alike.
// Shared helpers in ui.js: markLastMove / markLastElement (the last move, >= 3:1 contrast),
// animateArrival (short, none under prefers-reduced-motion), tooltip (hover, focus or
// long-press: what a piece, card or tile is and does), promptFromLegal.

import { api, tokensFor, saveToken, invitesFor, inviteUrl, MatchSocket } from "./api.js";
import { el, clear, toast, formatClock, formatTimeLeft, matchNotation, ask, download, promptFromLegal, hideTip, pruneTip, keepActionFocus, ownName, setText } from "./ui.js";
import { rendererFor } from "./games/index.js";
import { prefs, navigate, joinOpen } from "./nav.js";
import { enableKeyboard } from "./keyboard.js";
import { mountTable } from "./table.js"; // table hook (issue 17): chat, presence, draws, claim, title, sound
import { GameLog, wantsGameLog } from "./game_log.js";
import { mountTutorial } from "./tutorial.js"; // tutorial hook (issue 17): the first-turn coach
import { ratingLines } from "./ratings.js"; // issue 37: a rated game's changes on the end card
import { signedIn } from "./account.js";
import { _, N_, fmt, ngettext, said } from "./i18n.js";

const REASONS = {
  marshal_captured: N_("the Marshal was captured"),
  mate: N_("checkmate: the Marshal cannot escape"),
  resignation: N_("resignation"),
  timeout: N_("time ran out"),
  abandoned: N_("a player left the game"),
  repetition: N_("repetition"),
  length_limit: N_("the game reached its length limit"),
  shogun_captured: N_("the Shogun was removed from the field"),
  invasion: N_("three units reached the Invader Spot"),
  end_of_game: N_("the highest score when the last turn was played"),
  no_placement: N_("the highest score when no one could place a tile"),
  agreement: N_("the players agreed to a draw"),
};
// A result with no winner, in the words a player uses for it.
const DRAWS = {
  agreement: N_("Draw by agreement"),
  repetition: N_("Draw by repetition"),
  length_limit: N_("Draw: the game reached its length limit"),
};

// Server events that are not moves of the game.
// A player who left (the computer took their seat) and came back is shown on the seat and
// on the end card, not in the move list.
const META_EVENTS = new Set(["match_created", "player_joined", "match_started", "rematch_offered", "rematch", "takeback_offered", "takeback_declined", "seat_left", "seat_returned"]);

/** The `left` entry of `seat` while the computer plays it for a player who left, or null. */
/** Whether snapshot ``a`` shows an earlier moment of the match than ``b``: fewer events, or
 * as many and fewer actions (the event log only grows, a takeback writes one; an action may
 * write none). */
export function isOlder(a, b) {
  if (a.last_event !== b.last_event) return a.last_event < b.last_event;
  return a.ply < b.ply;
}

export function replacedEntry(snap, seat) {
  const entries = (snap?.left || []).filter((e) => e.seat === seat);
  const last = entries[entries.length - 1];
  return last && last.returned === null ? last : null;
}

/** Who left the game, in words: "Ann (resignation, at ply 3; came back at ply 9)". */
export function leftText(snap, renderer) {
  return (snap?.left || [])
    .map((e) => {
      const name = snap.seats?.[e.seat]?.name || renderer.seatName(e.seat);
      const back = e.returned === null ? "" : fmt(_("; came back at ply {returned}"), { returned: e.returned });
      return fmt(_("{name} ({reasonText}, at ply {ply}{back})"), { name, reasonText: reasonText(e.reason), ply: e.ply, back });
    })
    .join(", ");
}

export function reasonText(reason) {
  return REASONS[reason] ? _(REASONS[reason]) : String(reason || "").replace(/_/g, " ");
}

export function resultText(result, seats, renderer, view = null) {
  if (!result) return "";
  // A renderer may word its game's results itself (e.g. a solo game lost to an automaton).
  const words = renderer?.resultWords?.(result, view);
  if (words?.reason) return words.reason;
  const names = (result.winners || []).map((s) => seatTitle(s, seats, renderer));
  if (!names.length) return (DRAWS[result.reason] && _(DRAWS[result.reason])) || fmt(_("No winner — {reasonText}"), { reasonText: reasonText(result.reason) });
  return fmt(ngettext("{names} wins — {reason}", "{names} win — {reason}", names.length), { names: names.join(_(" and ")), reason: reasonText(result.reason) });
}

function seatTitle(seat, seats, renderer) {
  const side = renderer.seatName(seat);
  if (seats?.[seat]?.kind === "ai") {
    const own = ownName(seats[seat].name);
    return own ? fmt(_("{side} ({name}, computer)"), { side, name: own }) : fmt(_("{side} (computer)"), { side });
  }
  const name = ownName(seats?.[seat]?.name);
  return name && name !== side ? `${side} (${name})` : side;
}

export async function matchPage(root, matchId) {
  const page = new MatchPage(root, matchId);
  await page.start();
  return page;
}

class MatchPage {
  constructor(root, matchId) {
    this.root = root;
    this.id = matchId;
    this.events = [];
    this.seen = new Set();
    this.snap = null; // the snapshot of the seat we show
    this.shownSeat = null;
    this.passFor = null;
    this.endDismissed = false;
    // The plies whose action is on its way (a second click there is not sent twice), and the
    // answer of the last request sent (the next one waits for it: actions go out in order).
    this.sendingPlies = new Set();
    this.lastRequest = Promise.resolve();
    this.clockAt = performance.now();
  }

  get tokens() {
    return tokensFor(this.id);
  }

  get held() {
    return Object.keys(this.tokens)
      .map(Number)
      .sort((a, b) => a - b);
  }

  get hotSeat() {
    return this.held.length > 1;
  }

  async start() {
    clear(this.root).append(el("p.loading", {}, _("Loading the game…")));
    const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
    if (invite) {
      const joined = await this.join(invite);
      if (!joined) return;
    }
    const primary = this.held[0];
    const token = primary === undefined ? null : this.tokens[primary];
    try {
      this.snap = await api("GET", `/api/matches/${this.id}?short=true`, { token });
      await this.syncEvents(primary);
    } catch (err) {
      clear(this.root).append(
        el("div.card.error-card", {}, el("h2", {}, _("This game cannot be opened")), el("p", {}, err.message), el("a.button", { href: "/", "data-nav": "" }, _("Home"))),
      );
      return;
    }
    this.renderer = await rendererFor(this.snap.game);
    this.shownSeat = this.snap.you;
    this.flipped = this.renderer.defaultFlip(primary ?? 0) && !this.hotSeat;
    this.build();
    await this.refresh();
    this.socket = new MatchSocket(this.id, token, this.lastEventNumber(), (m) => this.onMessage(m), (s) => this.onSocket(s));
    this.ticker = setInterval(() => this.tickClocks(), 250);
    this.table = mountTable(this); // table hook (issue 17)
    this.table?.rules?.showPhase?.(this.snap, this.els.status.textContent); // rules hook: "Now: <phase>"
    this.tutorial = mountTutorial(this); // tutorial hook
    this.onPrefs = () => this.render();
    window.addEventListener("sengoku:prefs", this.onPrefs);
  }

  destroy() {
    this.table?.destroy(); // table hook (issue 17)
    this.tutorial?.destroy(); // tutorial hook
    this.socket?.close();
    clearInterval(this.ticker);
    window.removeEventListener("sengoku:prefs", this.onPrefs);
    this.board?.destroy();
    this.stopKeyboard?.();
    if (this.onEscape) document.removeEventListener("keydown", this.onEscape);
    if (this.onBrowseKey) document.removeEventListener("keydown", this.onBrowseKey);
  }

  async join(invite) {
    let info;
    try {
      info = await api("GET", `/api/matches/${this.id}`);
    } catch (err) {
      clear(this.root).append(el("div.card.error-card", {}, el("h2", {}, _("Invitation")), el("p", {}, err.message)));
      return false;
    }
    const renderer = await rendererFor(info.game);
    const nameInput = el("input", { id: "join-name", maxlength: 64, value: localStorage.getItem("sengoku.name") || "", placeholder: _("Your name"), autocomplete: "nickname" });
    const host = info.seats.filter((s) => s.joined && s.kind === "human").map((s) => s.name)[0];
    // A rated game is joined signed in, under the account's name (docs/ratings.md).
    const account = info.rated ? await signedIn() : null;
    const ratedNote = !info.rated
      ? null
      : account
        ? el("p.rated-note", { id: "rated-note" }, el("span.rated-mark.rated", {}, _("rated")), fmt(_(" You play as {name}; the game changes your rating."), { name: account.name }))
        : el("p.rated-note", { id: "rated-note" }, el("span.rated-mark.rated", {}, _("rated")), _(" A rated game: "), el("a", { href: "/account", "data-nav": "" }, _("sign in")), _(" first, then open this link again."));
    return new Promise((resolve) => {
      const go = async (event) => {
        event.preventDefault();
        const name = nameInput.value.trim() || null;
        if (name) localStorage.setItem("sengoku.name", name);
        try {
          const out = await api("POST", `/api/matches/${this.id}/join`, { body: { invite, name } });
          saveToken(this.id, out.seat, out.token);
          history.replaceState(null, "", `/play/${this.id}`);
          resolve(true);
        } catch (err) {
          toast(err.message, "error");
          if (err.code === "not_waiting" || err.code === "bad_invite") {
            history.replaceState(null, "", `/play/${this.id}`);
            resolve(true);
          }
        }
      };
      clear(this.root).append(
        el(
          "form.card.join-card",
          { onsubmit: go },
          el("div.game-kanji", {}, renderer.kanji || ""),
          el("h2", {}, fmt(_("You are invited to play {title}"), { title: renderer.title })),
          host ? el("p", {}, fmt(_("{host} is waiting for you."), { host })) : null,
          ratedNote,
          info.rated ? null : el("label", { for: "join-name" }, _("Your name")),
          info.rated ? null : nameInput,
          el("button.primary", { type: "submit", id: "join-button" }, _("Join the game")),
        ),
      );
      (info.rated ? this.root.querySelector("#join-button") : nameInput)?.focus();
    });
  }

  addEvents(list) {
    for (const e of list || []) {
      if (this.seen.has(e.n)) continue;
      this.seen.add(e.n);
      this.events.push(e);
    }
    this.events.sort((a, b) => a.n - b.n);
  }

  lastEventNumber() {
    return this.events.length ? this.events[this.events.length - 1].n : 0;
  }

  onSocket(status) {
    this.connection = status;
    const dot = this.root.querySelector(".connection");
    if (dot) {
      dot.dataset.status = status;
      dot.textContent = status === "connected" ? "live" : "reconnecting…";
    }
  }

  async onMessage(msg) {
    this.table?.onMessage(msg); // table hook (issue 17)
    if (msg.type === "event") {
      this.addEvents([{ n: msg.n, ply: msg.ply, event: msg.event }]);
      if (msg.event.type === "rematch" && this.rematchWanted) this.goRematch(msg.event.match);
    } else if (msg.type === "state") {
      const { type, ...snap } = msg;
      this.wsSnap = snap;
      await this.refresh(snap);
    } else if (msg.type === "refused") {
      toast(msg.reason, "error");
    } else if (msg.type === "error") {
      toast(msg.message, "error");
    }
  }

  /** Which seat to show: in hot seat the one to act, else the one this browser holds. */
  wantedSeat(snap) {
    const held = this.held;
    if (!held.length) return null;
    if (held.includes(snap.to_act)) return snap.to_act;
    if (this.shownSeat !== null && held.includes(this.shownSeat)) return this.shownSeat;
    return held[0];
  }

  async refresh(base) {
    let snap = base || this.snap;
    const seat = this.wantedSeat(snap);
    // Another seat's view (hot seat), or legal moves without their short forms: fetch again.
    const noShort = snap.legal?.length && !("short" in snap.legal[0]);
    if ((seat !== snap.you && seat !== null) || noShort) {
      try {
        const token = seat === null ? null : this.tokens[seat];
        if (seat !== snap.you) await this.syncEvents(seat);
        snap = await api("GET", `/api/matches/${this.id}?short=true`, { token });
      } catch (err) {
        toast(err.message, "error");
      }
    }
    // An answer older than what is shown (a request's answer arriving after the socket's
    // next message) is dropped. The event log only grows, a takeback included; an action
    // that writes no event (many of Gunshi's and Sashimono's do) still counts a ply.
    if (this.snap && isOlder(snap, this.snap)) return;
    const humans = this.held.filter((s) => this.snapSeatKind(snap, s) === "human");
    if (this.hotSeat && !this.renderer.perfectInformation && humans.length > 1 && snap.status === "active" && this.shownSeat !== null && snap.you !== this.shownSeat) {
      this.passFor = snap.you;
    }
    this.shownSeat = snap.you;
    this.snap = snap;
    this.clockAt = performance.now();
    if (snap.rematch_id && this.rematchWanted) this.goRematch(snap.rematch_id);
    this.render();
  }

  snapSeatKind(snap, seat) {
    return snap.seats?.[seat]?.kind;
  }

  lastAction() {
    const moves = this.moveEvents();
    return moves.length ? moves[moves.length - 1].event.action : null;
  }

  /** The last move as data (its description, in games where every seat sees every move). */
  lastMove() {
    const moves = this.moveEvents();
    return moves.length ? moves[moves.length - 1].event.described || null : null;
  }

  /** The moves in play: every event naming an action, less those a takeback undid. */
  moveEvents() {
    const out = [];
    for (const e of this.events) {
      if (e.event.type === "takeback") out.length = Math.min(out.length, e.event.to_ply);
      else if (typeof e.event.action === "string") out.push(e);
    }
    return out;
  }

  build() {
    const r = this.renderer;
    this.els = {
      title: el("h1.match-title", {}, el("span.game-kanji", {}, r.kanji || ""), ` ${r.title}`),
      connection: el("span.connection", { "data-status": "connecting" }, "connecting…"),
      headStatus: el("span.head-status", { "aria-hidden": "true" }),
      players: el("div.players"),
      status: el("div.status", { id: "status", role: "status", "aria-live": "polite" }),
      note: el("div.status-note"),
      browse: el("div.browse-bar", { hidden: true, role: "status" }),
      // What the other players just did, read out by screen readers (and shown nowhere else).
      announce: el("div.visually-hidden", { id: "announce", "aria-live": "polite", "aria-atomic": "true" }),
      board: el("div.board-area"),
      prompt: el("div.prompt", { id: "prompt" }),
      dock: el("div.dock", { id: "dock" }),
      pass: el("div.pass-screen", { hidden: true }),
      notation: null,
      controls: el("div.controls"),
      // A scrolling list: focusable, so the keyboard can scroll it too.
      moves: el("ol.moves", { id: "moves", tabindex: 0, "aria-label": _("Moves played") }),
      invites: el("div.invites"),
      end: el("div.end-panel", { hidden: true, role: "dialog", "aria-label": _("Game over") }),
    };
    const input = el("input", { id: "notation", type: "text", placeholder: r.notationHint || _("Type a move in notation"), autocomplete: "off", spellcheck: "false", "aria-label": _("Move in notation") });
    this.els.notationInput = input;
    this.els.notation = el(
      "form.notation",
      { onsubmit: (e) => this.submitNotation(e) },
      input,
      el("button.secondary", { type: "submit" }, _("Play")),
    );
    clear(this.root).append(
      el(
        "div.match.table",
        {},
        el("div.match-head", {}, this.els.title, this.els.headStatus, this.els.connection),
        el("div.board-shell", {}, this.els.board, this.els.pass),
        el("div.card.status-card", {}, this.els.status, this.els.prompt, this.els.note, this.els.browse, this.els.announce),
        this.els.dock,
        this.els.players,
        this.els.invites,
        el("div.card.controls-card", {}, this.els.controls),
        // Typing notation is for those who know it: beside the move list, not among the controls.
        // The rest of the side panel scrolls on its own: the move list, then the table
        // (presence, offers, chat: table.js puts it here).
        el("div.side-rest", {}, el("div.card.moves-card", {}, el("h2", {}, _("Moves")), this.els.notation, this.els.moves)),
      ),
      this.els.end,
    );
    this.board = this.renderer.create(this.els.board, { dock: this.els.dock });
    // Keyboard play: what the renderer marks `data-pick` is focusable and picked with Enter.
    this.stopKeyboard = enableKeyboard(this.els.board.parentElement.parentElement);
    // Escape closes the end panel (as "See the board" does), like any dialog.
    this.onEscape = (event) => {
      if (event.key === "Escape" && this.els && !this.els.end.hidden) {
        this.endDismissed = true;
        this.render();
      }
    };
    document.addEventListener("keydown", this.onEscape);
    // Browsing earlier positions during the game: ← and → step, Home and End jump (not while
    // typing, nor while the arrows move the focus on a board).
    this.onBrowseKey = (event) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const t = event.target;
      // A square focused from the keyboard has taken the arrows already (keyboard.js
      // prevents their default); after a mouse click ← and → browse, as on any game site.
      if (t instanceof Element && t.closest("input, textarea, select, [contenteditable]")) return;
      const s = this.snap;
      if (!s || !this.els || (this.passFor ?? null) !== null) return;
      // Where the last step asked to be (its position may still be on its way).
      const at = this.browsePly ?? s.ply;
      const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: s.ply }[event.key];
      if (to === undefined || to < 0 || (to >= s.ply && at >= s.ply)) return;
      event.preventDefault();
      this.browseTo(to);
    };
    document.addEventListener("keydown", this.onBrowseKey);
  }

  /** Show the position after ``ply`` actions as this seat saw it (the server replays it:
   * nothing more than the seat saw then); the live position again at the last ply. */
  async browseTo(ply) {
    const s = this.snap;
    this.browseAsk = (this.browseAsk || 0) + 1;
    if (!s || ply >= s.ply) {
      this.browse = null;
      this.browsePly = null;
      this.render();
      return;
    }
    this.browsePly = Math.max(0, ply);
    const want = this.browseAsk;
    const seat = s.you;
    const token = seat === null || seat === undefined ? null : this.tokens[seat];
    try {
      const position = await api("GET", `/api/matches/${this.id}/position?ply=${Math.max(0, ply)}`, { token });
      if (want !== this.browseAsk) return; // a later step was asked for meanwhile
      this.browse = position;
      this.render();
    } catch (err) {
      toast(err.message);
    }
  }

  renderBrowse(browsing) {
    const bar = this.els.browse;
    bar.hidden = !browsing;
    if (!browsing) return clear(bar);
    const s = this.snap;
    clear(bar).append(
      el("span", {}, browsing.ply ? fmt(_("Looking back: after move {ply} of {ply2}"), { ply: browsing.ply, ply2: s.ply }) : fmt(_("Looking back: the start ({ply} moves played)"), { ply: s.ply })),
      el("span.browse-keys", {}, _(" · ← → to step")),
      el("button.secondary", { type: "button", id: "browse-live", onclick: () => this.browseTo(s.ply) }, _("Back to the game")),
    );
  }

  mySeatToAct() {
    const s = this.snap;
    return s.status === "active" && s.you !== null && s.to_act === s.you && this.held.includes(s.you);
  }

  render() {
    const s = this.snap;
    const r = this.renderer;
    if (!this.els) return;
    // Players and clocks.
    clear(this.els.players);
    s.seats.forEach((seat, i) => {
      const gone = replacedEntry(s, i);
      // A spectator holds no seat: the players are players to them, nobody's "friend".
      const kind = gone ? fmt(_("played by the computer (left at ply {ply})"), { ply: gone.ply }) : seat.kind === "ai" ? fmt(_("computer, level {x}"), { x: seat.level ?? "?" }) : this.held.includes(i) ? _("you") : seat.joined ? (this.held.length ? _("opponent") : _("player")) : seat.invited ? _("invited — not joined yet") : _("open seat");
      const name = seat.kind === "ai" && !gone ? null : ownName(seat.name);
      const toAct = s.status === "active" && s.to_act === i;
      // How long the computer took over its last move (the server's wall clock).
      const thought = seat.kind === "ai" && s.ai_thought?.seat === i ? s.ai_thought : null;
      this.els.players.append(
        el(
          `div.player${toAct ? ".to-act" : ""}`,
          { "data-seat": i },
          el("span.player-icon", {}, r.seatIcon(i, prefs.labels) || el("span.seat-number", {}, i + 1)),
          el(
            "span.player-name",
            {},
            el("strong", {}, r.seatName(i)),
            el(
              "span.player-sub",
              {},
              `${name || ""}${name ? " · " : ""}${kind}`,
              // on the same line: the panel keeps its height on a phone
              thought ? el("span.thought", { "data-seat": i, title: _("How long the computer thought over its last move") }, fmt(_(" · thought {seconds} s"), { seconds: thought.seconds.toFixed(1) })) : null,
            ),
          ),
          el("span.clock", { "data-seat": i }, ""),
          toAct ? el("span.turn-flag", { title: _("to move") }, "◀") : null,
        ),
      );
    });
    this.tickClocks();
    // Status.
    let status;
    if (s.status === "waiting") status = _("Waiting for every seat to be taken…");
    else if (s.status === "active") {
      const who = seatTitle(s.to_act, s.seats, r);
      if (this.mySeatToAct()) status = this.hotSeat ? fmt(_("{who} to move"), { who }) : _("Your move");
      else if (s.seats[s.to_act]?.kind === "ai") status = fmt(_("{who} is thinking…"), { who });
      else status = fmt(_("{who} to move"), { who });
    } else if (s.status === "finished") status = fmt(_("Game over: {resultText}"), { resultText: resultText(s.result, s.seats, r, s.view) });
    else status = s.close_reason ? fmt(_("This game is {status}: {reason}"), { status: s.status, reason: s.close_reason }) : fmt(_("This game is {status}"), { status: s.status });
    this.els.status.textContent = status;
    // Phones see the board before the side panel: the turn is repeated above the board.
    this.els.headStatus.textContent = s.status === "active" ? status : "";
    this.els.headStatus.classList.toggle("mine", this.mySeatToAct());
    this.els.status.dataset.state = s.status;
    this.els.status.dataset.ply = s.ply;
    this.els.status.dataset.toAct = s.to_act;
    this.els.note.textContent = r.statusNote(s.view) || "";
    // Board: the live position, or an earlier one being looked at (never with choices).
    if (this.browse && (this.browse.ply >= s.ply || (this.passFor ?? null) !== null)) {
      this.browse = null;
      this.browsePly = null;
    }
    const browsing = this.browse;
    const interactive = !browsing && this.mySeatToAct() && this.passFor === null;
    this.renderBrowse(browsing);
    this.els.board.classList.toggle("browsing", !!browsing);
    keepActionFocus([this.els.board, this.els.dock], () => this.board.update({
      view: browsing ? browsing.view : s.view,
      legal: interactive ? s.legal : [],
      seat: s.you,
      interactive,
      lastAction: browsing ? browsing.action : this.lastAction(),
      lastMove: browsing ? browsing.described : this.lastMove(),
      labels: prefs.labels,
      flipped: this.flipped,
      send: (action) => this.send(action),
    }));
    this.els.notationInput.disabled = !interactive;
    this.els.board.dataset.interactive = interactive;
    // One prompt per decision: a renderer that draws its own beside what it asks about
    // (`drawsPrompt`) gets no second one from the page.
    this.els.prompt.textContent = interactive && !r.drawsPrompt ? this.promptText(s) : "";
    this.els.prompt.hidden = !this.els.prompt.textContent;
    pruneTip();
    this.renderPass();
    // The controls are drawn anew at every snapshot: a focused one keeps the focus (by its
    // id), so the keyboard does not lose its place (nor the resign dialog its way back).
    const focused = this.els.controls.contains(document.activeElement) ? document.activeElement.id : null;
    this.renderControls();
    if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
    this.renderMoves();
    this.announceMoves();
    this.renderInvites();
    this.renderEnd();
    this.table?.rules?.showPhase?.(s, status); // rules hook: "Now: <phase>" follows the game
    this.tutorial?.update(); // tutorial hook
  }

  /** What the player is deciding, in words: the renderer's own prompt, the view's rule, or
   * a sentence made from the kinds of the legal rows. */
  promptText(s) {
    const own = this.renderer.prompt?.({ view: s.view, legal: s.legal, seat: s.you });
    if (own) return own;
    const rule = s.view?.prompt?.rule;
    if (typeof rule === "string" && rule) return rule;
    return promptFromLegal(s.legal, this.renderer.describeChoice?.bind(this.renderer));
  }

  renderPass() {
    const box = this.els.pass;
    if (this.passFor === null) {
      box.hidden = true;
      this.els.board.classList.remove("covered");
      this.els.dock.classList.remove("covered");
      return;
    }
    hideTip();
    const who = seatTitle(this.passFor, this.snap.seats, this.renderer);
    // The dock holds the hand: hidden with the board until the next player is ready.
    this.els.board.classList.add("covered");
    this.els.dock.classList.add("covered");
    box.hidden = false;
    clear(box).append(
      el("div.pass-kanji", {}, "交代"),
      el("h2", {}, fmt(_("Pass the device to {who}"), { who })),
      el("p", {}, _("The board stays hidden until they are ready, so nobody sees what is not theirs.")),
      el(
        "button.primary",
        {
          type: "button",
          id: "pass-ready",
          onclick: () => {
            this.passFor = null;
            this.render();
          },
        },
        fmt(_("I am {who} — show my board"), { who }),
      ),
    );
  }

  renderControls() {
    const s = this.snap;
    const r = this.renderer;
    const box = clear(this.els.controls);
    const active = s.status === "active";
    const mine = this.held.length > 0;
    const gone = this.held.find((seat) => replacedEntry(s, seat));
    if (active && gone !== undefined) {
      // The computer plays my seat since I left: I may take it back.
      box.append(el("button.primary", { type: "button", id: "return", onclick: () => this.comeBack(gone) }, _("Return to my seat")));
    } else if (active && mine) {
      box.append(el("button.danger", { type: "button", id: "resign", onclick: () => this.resign() }, _("Resign")));
      const offer = s.offers?.takeback;
      if (offer && !this.held.includes(offer.by)) {
        box.append(
          el("button.primary", { type: "button", id: "takeback-accept", onclick: () => this.answerTakeback(true) }, _("Allow takeback")),
          el("button.secondary", { type: "button", id: "takeback-decline", onclick: () => this.answerTakeback(false) }, _("Decline")),
        );
      } else if (offer) {
        box.append(el("span.muted", {}, _("Takeback asked…")));
      } else if (this.takebackSeat() !== null) {
        box.append(el("button.secondary", { type: "button", id: "takeback", onclick: () => this.takeback() }, _("Take back")));
      }
    }
    if (s.can_abort && mine) {
      box.append(el("button.secondary", { type: "button", id: "abort", onclick: () => this.abort() }, _("Abort")));
    }
    // A board with no sides to turn it to (Gunkimono's shared map, Sashimono's cards) says
    // so (`canFlip: false`): no button that does nothing.
    if (r.canFlip !== false) box.append(
      el(
        "button.secondary",
        {
          type: "button",
          id: "flip",
          onclick: () => {
            this.flipped = !this.flipped;
            this.render();
          },
        },
        _("Flip board"),
      ),
    );
    if (s.status === "finished" && mine) {
      const offered = (s.offers?.rematch || []).filter((x) => !this.held.includes(x));
      const label = s.rematch_id ? _("Go to the rematch") : offered.length ? _("Accept the rematch") : this.rematchWanted ? _("Rematch offered…") : _("Rematch");
      box.append(el("button.primary", { type: "button", id: "rematch", disabled: this.rematchWanted && !s.rematch_id, onclick: () => this.rematch() }, label));
    }
    if (!["waiting", "active"].includes(s.status)) {
      box.append(el("a.button.secondary", { href: `/replay/${this.id}`, "data-nav": "", id: "replay-link" }, _("Replay")));
      box.append(el("button.secondary", { type: "button", id: "analyse-match", onclick: () => this.analyse() }, _("Analyse")));
      box.append(el("a.button.secondary", { href: this.boardLink(), "data-nav": "", id: "board-link" }, _("Analysis board")));
      box.append(el("button.secondary", { type: "button", id: "export", onclick: () => this.exportRecord() }, _("Export record")));
    }
  }

  /** The analysis board of this game that has ended, at the position shown (issue 38). */
  boardLink() {
    const ply = this.browse ? this.browse.ply : this.snap.ply;
    return `/board/${encodeURIComponent(this.snap.game)}?match=${encodeURIComponent(this.id)}&ply=${ply}`;
  }

  /** Whether the seat on screen may see event ``e`` (hot seat: not another seat's secrets). */
  visibleEvent(e) {
    const audience = e.event.audience;
    return audience === null || audience === undefined || audience.includes(this.snap.you);
  }

  renderMoves() {
    const list = this.els.moves;
    if (this.passFor !== null && this.passFor !== undefined) {
      this.logShown = null;
      this.movesDrawn = null;
      clear(list).append(el("li.muted", {}, _("Hidden while the device is passed.")));
      return;
    }
    const all = this.moveEvents();
    // Games whose events name no action (hidden information) get a log in words instead.
    if (wantsGameLog(all, this.events.filter((e) => !META_EVENTS.has(e.event.type)))) {
      this.movesDrawn = null;
      this.renderLog(list);
      return;
    }
    this.logShown = null;
    this.setMovesTitle(_("Moves"));
    const moves = all.filter((e) => this.visibleEvent(e));
    // Two players taking turns: numbered pairs, as a chess score sheet (1. White Black).
    const pairs = this.snap.seats.length === 2 && moves.length > 0 && moves.every((e, i) => i === 0 || e.event.seat !== moves[i - 1].event.seat);
    // The list is kept between snapshots and grown by the new moves: drawn whole at every
    // snapshot, a long game's list was most of the page's work (a tenth of a whole Gunkimono
    // game's). It is drawn anew when its lines would read otherwise: a takeback or another
    // seat's view (other moves), the pairing, the labels, the language.
    const head = [pairs, prefs.labels, document.documentElement.lang, this.snap.seats.map((_s, i) => this.renderer.seatName(i)).join("/")].join("|");
    const drawn = this.movesDrawn;
    const kept = drawn && drawn.head === head && drawn.ids.length > 0 && drawn.ids.length <= moves.length && drawn.ids.every((n, i) => moves[i].n === n) ? drawn.ids.length : 0;
    if (!kept) clear(list);
    list.classList.toggle("pairs", pairs);
    // The move whose position is shown while looking back.
    const looked = this.browse ? this.browse.ply : null;
    moves.slice(kept).forEach((e, j) => {
      const i = kept + j;
      const seat = e.event.seat;
      const number = pairs ? (i % 2 === 0 ? `${i / 2 + 1}.` : "") : `${i + 1}.`;
      // The position after the move: the server's ply of its event (a Gunkimono turn is
      // several actions, so the move's index is not its ply), else its index.
      const after = typeof e.ply === "number" ? e.ply : i + 1;
      list.append(
        el(
          `li${looked === after ? ".current" : ""}`,
          { "data-ply": after, "data-seat": seat ?? "" },
          // A move is a button: it shows the position after it (the last one, the game).
          el(
            "button.move-link",
            { type: "button", title: _("Show the position after this move"), onclick: () => this.browseTo(after) },
            el("span.ply", {}, number),
            seat !== undefined && !pairs ? el("span.mover", {}, this.renderer.seatName(seat)) : null,
            // A renderer may word a move (Gungi in English: its notation is in kanji).
            el("span.notation", {}, this.renderer.moveText?.(e.event, prefs.labels) || e.event.action),
          ),
        ),
      );
    });
    if (!moves.length) list.append(el("li.muted", {}, _("No moves yet.")));
    const lookedElsewhere = kept && drawn.looked !== looked;
    if (lookedElsewhere) {
      for (const li of list.querySelectorAll("li[data-ply]")) li.classList.toggle("current", li.dataset.ply === String(looked));
    }
    this.movesDrawn = { head, ids: moves.map((e) => e.n), looked };
    // Into view: the move looked at, else the latest; a reader who scrolled the list is
    // left where they are until it changes.
    if (kept === moves.length && !lookedElsewhere) return;
    const current = list.querySelector("li.current");
    if (current) current.scrollIntoView({ block: "nearest" });
    else list.scrollTop = list.scrollHeight;
  }

  /** The game log of the seat on screen (game_log.js): built once per seat, then grown. */
  renderLog(list) {
    const seat = this.snap.you ?? null;
    this.logs = this.logs || new Map();
    let log = this.logs.get(seat);
    if (!log) {
      log = new GameLog({
        visible: (e) => {
          const audience = e.event.audience;
          return audience === null || audience === undefined || audience.includes(seat);
        },
        skip: (e) => META_EVENTS.has(e.event.type) || (!e.event.message && e.event.type !== "takeback"),
        seatName: (s) => this.renderer.seatName(s),
        onPick: (ply) => this.browseTo(ply),
      });
      this.logs.set(seat, log);
    }
    this.setMovesTitle(_("Game log"));
    let added = log.update(this.events);
    if (this.logShown !== log || list.classList.contains("pairs")) {
      list.classList.remove("pairs");
      log.mount(list);
      this.logShown = log;
      added = true;
    }
    list.classList.add("game-log");
    const looked = this.browse ? log.mark(this.browse.ply) : log.mark(null);
    if (looked) looked.scrollIntoView({ block: "nearest" });
    // The latest lines when something was added or the live game is shown again (a reader
    // who scrolled back up is left there otherwise).
    else if (added || this.logLooked) list.scrollTop = list.scrollHeight;
    this.logLooked = !!this.browse;
  }

  setMovesTitle(title) {
    const heading = this.els.moves.parentElement?.querySelector("h2");
    if (heading && heading.textContent !== title) heading.textContent = title;
    this.els.moves.setAttribute("aria-label", title === _("Moves") ? _("Moves played") : title);
    if (title === _("Moves")) this.els.moves.classList.remove("game-log");
  }

  /** Tell a screen reader what the other seats just did: the last such move in words (its
   * description where the game sends one, else the event's own sentence). */
  announceMoves() {
    // A turn's heading of the game log says whose turn begins, not what anyone did.
    const moves = this.events.filter((e) => this.visibleEvent(e) && !META_EVENTS.has(e.event.type) && e.event.type !== "turn" && (e.event.type === "move" || e.event.message));
    const last = moves[moves.length - 1];
    if (!last || last.n === this.announced) return;
    const first = this.announced === undefined;
    this.announced = last.n;
    if (first) return; // not the moves already played when the page opened
    const seat = last.event.seat;
    if (seat !== undefined && seat !== null && this.held.includes(seat) && !this.hotSeat) return;
    const described = last.event.described;
    const own = described ? this.renderer.describeChoice?.(described)?.label : null; // the page's language
    const words = own || described?.label || (last.event.say ? said(last.event.say) : last.event.message) || last.event.action || "";
    const name = seat !== undefined && seat !== null ? this.renderer.seatName(seat) : "";
    // "Blue: Move" for a label; a sentence that names its seat already is read as it is.
    const who = name && !words.startsWith(name) ? `${name}: ` : "";
    this.els.announce.textContent = `${who}${words}`;
  }

  renderInvites() {
    const box = clear(this.els.invites);
    const invites = invitesFor(this.id);
    const s = this.snap;
    const open = s.status === "waiting" ? s.seats.filter((seat) => seat.open) : [];
    if (open.length) {
      box.hidden = false;
      box.className = "card invites";
      box.append(el("h2", {}, _("Open seat")));
      if (!this.held.length) {
        box.append(el("button.primary", { type: "button", id: "join-open", onclick: () => joinOpen(this.id) }, fmt(_("Play as {seatName}"), { seatName: this.renderer.seatName(open[0].seat) })));
      } else {
        box.append(el("p", {}, _("Anyone can take it from the lobby on the home page, or from this link:")), el("input.invite-url", { readonly: true, value: `${location.origin}/play/${this.id}`, "aria-label": _("Link to this game") }));
      }
      return;
    }
    const pending = invites.filter((inv) => s.seats[inv.seat] && !s.seats[inv.seat].joined);
    if (s.status !== "waiting" || !pending.length) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.className = "card invites";
    box.append(el("h2", {}, _("Invite a friend")), el("p", {}, _("Send this link. Whoever opens it takes the seat; the game starts when every seat is taken.")));
    for (const inv of pending) {
      const url = inviteUrl(this.id, inv.invite);
      const input = el("input.invite-url", { readonly: true, value: url, "data-seat": inv.seat, "aria-label": fmt(_("Invitation link for {seatName}"), { seatName: this.renderer.seatName(inv.seat) }) });
      box.append(
        el("div.invite", {}, el("span", {}, `${this.renderer.seatName(inv.seat)}:`), input,
          el("button.secondary", {
            type: "button",
            onclick: async () => {
              input.select();
              try {
                await navigator.clipboard.writeText(url);
                toast(_("Link copied"));
              } catch (err) {
                toast(_("Select the link and copy it"));
              }
            },
          }, _("Copy"))),
      );
    }
  }

  renderEnd() {
    const s = this.snap;
    const box = this.els.end;
    if (s.status !== "finished" || this.endDismissed) {
      box.hidden = true;
      return;
    }
    const opening = box.hidden;
    box.hidden = false;
    const res = s.result || {};
    const winners = res.winners || [];
    const mineWon = winners.some((w) => this.held.includes(w));
    const words = this.renderer.resultWords?.(res, s.view) || null;
    const headline = words?.headline ? words.headline : !this.hotSeat && this.held.length ? (mineWon ? _("You win!") : winners.length ? _("You lose") : _("Draw")) : winners.length ? fmt(ngettext("{names} wins", "{names} win", winners.length), { names: winners.map((w) => this.renderer.seatName(w)).join(" & ") }) : _("No winner");
    const scores = (res.scores || []).map((sc, i) => el("li", {}, el("span", {}, seatTitle(i, s.seats, this.renderer)), el("strong", {}, String(sc))));
    clear(box).append(
      el(
        "div.end-card",
        {},
        el("div.end-kanji", {}, words?.kanji || (mineWon || this.hotSeat ? "勝" : winners.length ? "負" : "和")),
        el("h2", {}, headline),
        el("p.end-reason", {}, resultText(res, s.seats, this.renderer, s.view)),
        s.left?.length ? el("p.end-left", {}, fmt(_("Left the game, the computer playing on: {leftText}"), { leftText: leftText(s, this.renderer) })) : null,
        scores.length ? el("ul.scores", {}, scores) : null,
        ratingLines(s, this.hotSeat ? [] : this.held, (i) => seatTitle(i, s.seats, this.renderer)),
        // A renderer may add the game's own breakdown of the result (its `endDetails`).
        this.renderer.endDetails?.(s.view, (i) => seatTitle(i, s.seats, this.renderer)) ?? null,
        el(
          "div.end-buttons",
          {},
          this.held.length ? el("button.primary", { type: "button", onclick: () => this.rematch() }, s.rematch_id ? _("Go to the rematch") : _("Rematch")) : null,
          el("a.button.secondary", { href: `/replay/${this.id}`, "data-nav": "" }, _("Replay")),
          el("button.secondary", { type: "button", id: "end-analyse", onclick: () => this.analyse() }, _("Analyse")),
          el("a.button.secondary", { href: this.boardLink(), "data-nav": "" }, _("Analysis board")),
          el("button.secondary", { type: "button", onclick: () => this.exportRecord() }, _("Export")),
          el("button.link", {
            type: "button",
            id: "end-close",
            onclick: () => {
              this.endDismissed = true;
              this.render();
            },
          }, _("See the board")),
        ),
      ),
    );
    // A dialog takes the focus when it opens, so a keyboard or screen-reader user is there.
    if (opening) box.querySelector(".end-buttons button, .end-buttons a")?.focus({ preventScroll: true });
  }

  tickClocks() {
    const s = this.snap;
    if (!s || !this.els) return;
    const clocks = s.clocks;
    for (const node of this.els.players.querySelectorAll(".clock")) {
      const seat = Number(node.dataset.seat);
      // Four times a second: only a change is written (an idle page then draws nothing).
      if (!clocks) {
        setText(node, "");
        if (!node.hidden) node.hidden = true;
        continue;
      }
      if (node.hidden) node.hidden = false;
      let left = clocks.remaining[seat];
      const running = clocks.running === seat && s.status === "active";
      if (running) left -= (performance.now() - this.clockAt) / 1000;
      const periods = clocks.periods?.[seat];
      // A turn-based clock (days per move) shows days and hours; the others m:ss.
      const days = clocks.spec?.type === "correspondence";
      setText(node, (days ? formatTimeLeft(left) : formatClock(left)) + (clocks.spec?.type === "byoyomi" && periods ? ` +${periods}×${clocks.spec.period}s` : ""));
      node.classList.toggle("running", running);
      node.classList.toggle("low", running && left < (days ? 3600 : 20));
    }
  }

  actingToken() {
    const seat = this.snap.you ?? this.held[0];
    return this.tokens[seat];
  }

  async send(action) {
    const s = this.snap;
    // A second click on the same position is not sent twice: not while its action flies, nor
    // after its answer came and before the page shows the position it brought (the events are
    // fetched first). Sent again there, it went out at a ply the server had left: a 409.
    if (this.sendingPlies.has(s.ply)) return;
    if (!s.legal.some((l) => l.action === action)) {
      toast(_("That move is not legal here"), "error");
      return;
    }
    // The socket often shows the next decision before our last request has its answer; a
    // click there waits for that answer and then goes out, never dropped. The ply it was
    // made at goes with it, so the server refuses it if the position has moved on meanwhile.
    this.sendingPlies.add(s.ply);
    try {
      const previous = this.lastRequest;
      let answered;
      this.lastRequest = new Promise((resolve) => (answered = resolve));
      const token = this.actingToken();
      let snap;
      let refused = null;
      try {
        await previous;
        snap = await api("POST", `/api/matches/${this.id}/actions`, { token, body: { action, ply: s.ply } });
      } catch (err) {
        refused = err;
      } finally {
        answered();
      }
      // A click made as the position changed (the other side moved, the clock ran out): the
      // server refuses it as meant for a position that is gone. A player expects that click
      // to be dropped, not a red error: the page shows the position as it is now.
      if (refused?.status === 409) return await this.resync();
      if (refused) return toast(refused.message, "error");
      await this.catchUp(snap);
    } finally {
      this.sendingPlies.delete(s.ply);
    }
  }

  /**
   * The events ``seat`` may see that we have not fetched for it yet. The socket speaks for one
   * seat; in hot seat each other seat's private events are fetched with its own token.
   */
  async syncEvents(seat) {
    if (seat === null || seat === undefined || !this.tokens[seat]) return;
    this.seatAfter = this.seatAfter || {};
    try {
      const after = this.seatAfter[seat] || 0;
      const evs = await api("GET", `/api/matches/${this.id}/events?after=${after}`, { token: this.tokens[seat] });
      this.addEvents(evs.events);
      this.seatAfter[seat] = evs.last_event;
    } catch (err) {
      // The socket brings the public ones anyway.
    }
  }

  /** After our own request: fetch the events we may not have yet, then show the new state. */
  /** The position as it is now, fetched (after a click the server found stale). */
  async resync() {
    const seat = this.snap.you ?? this.held[0];
    try {
      const token = seat === undefined || seat === null ? null : this.tokens[seat];
      await this.catchUp(await api("GET", `/api/matches/${this.id}?short=true`, { token }));
    } catch (err) {
      // The socket brings the next position anyway.
    }
  }

  async catchUp(snap) {
    await this.syncEvents(this.snap.you ?? this.held[0]);
    await this.refresh(snap);
  }

  submitNotation(event) {
    event.preventDefault();
    const text = this.els.notationInput.value;
    const found = matchNotation(text, this.snap.legal || []);
    if (found.length === 1) {
      this.els.notationInput.value = "";
      this.send(found[0].action);
    } else if (!found.length) {
      toast(fmt(_("\"{text}\" is not a legal move here"), { text }), "error");
    } else {
      toast(fmt(_("\"{text}\" is ambiguous: {map}"), { text, map: found.map((f) => f.action).join(", ") }), "error");
    }
  }

  async resign() {
    // Three or more players: the computer takes the seat and the others play on.
    const replaced = this.snap.replacement_level !== null && this.snap.replacement_level !== undefined && this.snap.seats.some((x, i) => x.kind === "human" && !this.held.includes(i));
    const why = replaced ? _("The computer takes your seat and plays on for you; you can come back to it.") : _("Your opponent wins at once.");
    const yes = await ask(_("Resign this game?"), why, [
      { label: _("Resign"), value: true, kind: "danger" },
      { label: _("Keep playing"), value: false, safe: true },
    ]);
    if (!yes) return;
    try {
      const snap = await api("POST", `/api/matches/${this.id}/resign`, { token: this.actingToken() });
      await this.catchUp(snap);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  /** Take my seat back from the computer (from the next decision). */
  async comeBack(seat) {
    try {
      const out = await api("POST", `/api/matches/${this.id}/return`, { token: this.tokens[seat] });
      if (out.token) saveToken(this.id, seat, out.token);
      await this.catchUp(out.match);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async abort() {
    try {
      const snap = await api("POST", `/api/matches/${this.id}/abort`, { token: this.actingToken() });
      await this.catchUp(snap);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  /** The seat of ours whose last move a takeback would undo (the latest one), or null. */
  takebackSeat() {
    const moves = this.moveEvents();
    for (let i = moves.length - 1; i >= 0; i--) {
      const seat = moves[i].event.seat;
      if (this.held.includes(seat) && this.snap.seats[seat]?.kind === "human") return seat;
    }
    return null;
  }

  async takeback() {
    const seat = this.takebackSeat();
    if (seat === null) return;
    try {
      let snap = await api("POST", `/api/matches/${this.id}/takeback`, { token: this.tokens[seat], body: { accept: true } });
      // In hot seat the other players at this device agree at once.
      for (const other of this.held) {
        if (other === seat || this.snap.seats[other]?.kind !== "human" || !snap.offers?.takeback) continue;
        snap = await api("POST", `/api/matches/${this.id}/takeback`, { token: this.tokens[other], body: { accept: true } });
      }
      await this.catchUp(snap);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async answerTakeback(accept) {
    try {
      const snap = await api("POST", `/api/matches/${this.id}/takeback`, { token: this.actingToken(), body: { accept } });
      await this.catchUp(snap);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async rematch() {
    const s = this.snap;
    if (s.rematch_id) {
      this.goRematch(s.rematch_id);
      return;
    }
    this.rematchWanted = true;
    let last = null;
    for (const seat of this.held) {
      if (s.seats[seat]?.kind !== "human") continue;
      if ((s.offers?.rematch || []).includes(seat)) continue;
      try {
        last = await api("POST", `/api/matches/${this.id}/rematch`, { token: this.tokens[seat] });
      } catch (err) {
        if (err.code !== "already_offered") toast(err.message, "error");
      }
    }
    if (last?.rematch_id) this.goRematch(last.rematch_id);
    else {
      toast(_("Rematch offered: waiting for your opponent"));
      this.render();
    }
  }

  /** Queue the game's analysis (over: never during play) and follow it on the replay page,
   * where its graph sits under the board (analysis.js). */
  async analyse() {
    try {
      await api("POST", `/api/matches/${this.id}/analysis`, { body: { kind: "mover" } });
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    navigate(`/replay/${this.id}`);
  }

  goRematch(newId) {
    if (this.leaving) return;
    this.leaving = true;
    const n = this.snap.seats.length;
    for (const [seat, token] of Object.entries(this.tokens)) {
      saveToken(newId, (Number(seat) + 1) % n, token);
    }
    navigate(`/play/${newId}`);
  }

  async exportRecord() {
    try {
      const record = await api("GET", `/api/records/${this.id}`);
      download(`${record.game}-${this.id}.json`, record);
    } catch (err) {
      toast(err.message, "error");
    }
  }
}
