// The first-game tutorial: a local match against the computer (level 1) and a coach panel
// that walks a new player through their first turn, one step at a time. It points at the
// part of the page that matters (a highlight on the pieces, cards, tiles or buttons), says
// in plain words what to do, and moves on when the player has done it, read from the page
// itself: the match's snapshot (the seat's own view: its ply, whose move, the phase) and
// what the renderer draws (a selection shows its targets).
//
// The steps are data, one file per game: sengoku/web/tutorials/<game>.json, served as
// /tutorials/<game>.json and, with the coach's words in the page's language (the "texts"
// catalogs, docs/i18n-texts.md), as GET /api/tutorials/<game>?lang=<lang>. Each file has
// the match to create (`options`, `seats`) and its `steps`, each with
//   - `title` and `text`: what the coach says;
//   - `target`: a selector, or a list of them, the first that matches something visible
//     wins; every element it matches is highlighted (class `tutorial-target`);
//   - `advance`: when the step is done, all of these holding:
//       `next`: true        only the Next button moves on (a step that only explains);
//       `exists`: selector  something visible matches it (e.g. a selection's targets);
//       `played`: n         the player has taken n decisions since the step began;
//       `phase`: [keys]     the phase (js/rules_panel.js phaseKeys) is one of these;
//       `notPhase`: [keys]  ... is none of these;
//       `turnOver`: true    the player has acted in this tutorial and the move is
//                           someone else's now, in another seat's turn where the view
//                           names the turn's seat (or the game is over);
//   - `when`: [phase keys] (optional): the step is for these phases only; on the player's
//     move in another phase it is skipped (a Score turn taken where the coach expected an
//     Action turn skips the Action turn's steps);
//   - `final`: true on the last step ("the Rules panel has the rest").
// The coach reads only what the page already shows this seat: it cannot tell a player
// anything hidden from them. Keyboard: the focus goes to each step's text, Tab reaches its
// buttons and then the board (the panel comes just before it), Escape closes it.

import { api, saveToken } from "./api.js";
import { el, clear, toast, ask } from "./ui.js";
import { navigate } from "./nav.js";
import { loadPhases, phaseKeys } from "./rules_panel.js";
import { _, fmt, language } from "./i18n.js";

/** The matches opened as tutorials in this browser: id -> { step, done }. */
const STORE = "sengoku.tutorials";
const HIGHLIGHT = "tutorial-target";
/** At most this many elements highlighted at once (a whole board of squares is noise). */
const MAX_MARKED = 40;

const tutorials = new Map();
let index = null;

/** The games that have a tutorial (tutorials/index.json), fetched once. */
export function tutorialGames() {
  if (!index) {
    index = fetch("/tutorials/index.json")
      .then((r) => (r.ok ? r.json() : { games: [] }))
      .then((d) => new Set(d.games || []))
      .catch(() => new Set());
  }
  return index;
}

/** The tutorial of ``game`` (its steps and the match it plays) in the page's language,
 * fetched once per language. */
export function loadTutorial(game) {
  const lang = language();
  const key = `${game}/${lang}`;
  if (!tutorials.has(key)) {
    tutorials.set(
      key,
      fetch(`/api/tutorials/${encodeURIComponent(game)}?lang=${encodeURIComponent(lang)}`)
        .then((r) => (r.ok ? r.json() : null))
        .catch(() => null),
    );
  }
  return tutorials.get(key);
}

function saved() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || "{}") || {};
  } catch (err) {
    return {};
  }
}

function store(matchId, entry) {
  const all = saved();
  if (entry === null) delete all[matchId];
  else all[matchId] = entry;
  // Only the latest few: a tutorial is played once or twice, not kept forever.
  const ids = Object.keys(all);
  for (const id of ids.slice(0, Math.max(0, ids.length - 20))) delete all[id];
  localStorage.setItem(STORE, JSON.stringify(all));
}

/** Start a tutorial of ``game``: a new local match against the computer, then its page. */
export async function startTutorial(game) {
  const data = await loadTutorial(game);
  if (!data) {
    toast(_("There is no tutorial for this game on this server"), "error");
    return;
  }
  try {
    const out = await api("POST", "/api/matches", { body: { game, options: data.options || {}, seats: data.seats } });
    for (const [seat, token] of Object.entries(out.tokens)) saveToken(out.id, seat, token);
    store(out.id, { step: 0, done: false });
    navigate(`/play/${out.id}`);
  } catch (err) {
    toast(err.message, "error");
  }
}

/** A "Learn to play" button for ``game`` (home page cards, the setup page), or its
 * ``wrap`` (e.g. a sentence around it): shown once the game is known to have a tutorial. */
export function learnButton(game, title, wrap = (b) => b) {
  const button = el(
    "button.secondary.learn-button",
    { type: "button", "data-learn": game, onclick: () => startTutorial(game) },
    _("Learn to play"),
    el("span.visually-hidden", {}, fmt(_(" {title}: a guided first turn"), { title })),
  );
  const node = wrap(button);
  node.hidden = true;
  tutorialGames().then((games) => (node.hidden = !games.has(game)));
  return node;
}

function visible(node) {
  if (!node.isConnected) return false;
  const r = node.getBoundingClientRect();
  if (!r.width && !r.height) return false;
  return !node.closest("[hidden]");
}

function matching(selector) {
  try {
    return [...document.querySelectorAll(selector)].filter(visible);
  } catch (err) {
    return [];
  }
}

/** The elements a step points at: those of its first selector that matches something. */
export function targetsOf(step) {
  const list = Array.isArray(step?.target) ? step.target : step?.target ? [step.target] : [];
  for (const selector of list) {
    const found = matching(selector);
    if (found.length) return found.slice(0, MAX_MARKED);
  }
  return [];
}

/** What the coach should rather not hide either: the page's own words on the turn. */
const KEEP_CLEAR = "#prompt, .board-area .prompt, .dock .actions";

/** Put the coach panel where it hides the least of what it points at, then of the page's
 * prompt (a corner of the window, the side panel's first; on a narrow screen its bottom or
 * its top). */
function place(panel, targets) {
  const w = window.innerWidth;
  const h = window.innerHeight;
  const narrow = w < 700;
  const pw = narrow ? w - 16 : Math.min(380, w - 32);
  panel.style.width = `${pw}px`;
  const ph = panel.offsetHeight || 160;
  const spots = narrow
    ? [
        { name: "bottom", left: 8, top: h - ph - 8 },
        { name: "top", left: 8, top: 8 },
      ]
    : [
        { name: "bottom-right", left: w - pw - 16, top: h - ph - 16 },
        { name: "bottom-left", left: 16, top: h - ph - 16 },
        { name: "top-left", left: 16, top: 16 },
        { name: "top-right", left: w - pw - 16, top: 16 },
      ];
  const boxes = [
    ...targets.map((t) => [t.getBoundingClientRect(), 1]),
    ...matching(KEEP_CLEAR).map((t) => [t.getBoundingClientRect(), 0.25]),
  ];
  const covered = (s) =>
    boxes.reduce((sum, [b, weight]) => {
      const x = Math.max(0, Math.min(s.left + pw, b.right) - Math.max(s.left, b.left));
      const y = Math.max(0, Math.min(s.top + ph, b.bottom) - Math.max(s.top, b.top));
      return sum + x * y * weight;
    }, 0);
  let best = spots[0];
  let least = Infinity;
  for (const s of spots) {
    const c = covered(s);
    if (c < least - 1) {
      least = c;
      best = s;
    }
  }
  panel.style.left = `${Math.max(0, best.left)}px`;
  panel.style.top = `${Math.max(0, best.top)}px`;
  panel.dataset.place = best.name;
}

class Coach {
  constructor(page, data, entry) {
    this.page = page;
    this.data = data;
    this.steps = data.steps || [];
    this.index = Math.min(entry.step || 0, this.steps.length - 1);
    this.stepPly = null; // the ply when the player could first act in this step
    this.firstPly = entry.firstPly ?? null; // ... in this tutorial
    this.marked = [];
    this.title = el("h2.coach-title", { id: "coach-title" });
    this.count = el("span.coach-count");
    this.text = el("p.coach-text", { id: "coach-text", tabindex: -1 });
    this.wait = el("p.coach-wait", { "aria-live": "polite" });
    this.buttons = el("div.coach-buttons");
    this.panel = el(
      "section.coach",
      { id: "coach", role: "dialog", "aria-modal": "false", "aria-labelledby": "coach-title", "aria-describedby": "coach-text" },
      el("div.coach-head", {}, this.title, this.count),
      this.text,
      this.wait,
      this.buttons,
    );
    this.panel.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        this.close();
      }
    });
    // Just before the board in the page's order: Tab goes from the coach to the board.
    const shell = page.root.querySelector(".board-shell");
    shell.parentElement.insertBefore(this.panel, shell);
    // The renderer redraws on its own (a selection): look again after each redraw.
    this.observer = new MutationObserver(() => this.schedule());
    this.observer.observe(page.root, { childList: true, subtree: true, attributes: true, attributeFilter: ["class", "hidden", "data-interactive"] });
    this.onResize = () => {
      this.rescroll = true; // what it points at may have left the window
      this.schedule();
    };
    window.addEventListener("resize", this.onResize);
    this.show(true);
  }

  get step() {
    return this.steps[this.index];
  }

  schedule() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = null;
      this.check();
    });
  }

  /** Whether the step's `advance` holds now (or the step is not for this phase). */
  done(step) {
    const a = step.advance || {};
    const page = this.page;
    const s = page.snap;
    if (!s) return false;
    if (step.when && page.mySeatToAct()) {
      const keys = phaseKeys(this.phases, s);
      if (!step.when.some((k) => keys.includes(k))) return true;
    }
    if (a.next) return false;
    const mine = page.mySeatToAct();
    if (mine && this.stepPly === null) this.stepPly = s.ply;
    if (mine && this.firstPly === null) {
      this.firstPly = s.ply;
      this.save();
    }
    const acted = this.firstPly !== null && s.ply > this.firstPly;
    if (a.exists && !matching(a.exists).length) return false;
    if (a.played && (this.stepPly === null || s.ply < this.stepPly + a.played)) return false;
    const keys = phaseKeys(this.phases, s);
    const among = (list) => (Array.isArray(list) ? list : [list]).some((k) => keys.includes(k));
    if (a.phase && !among(a.phase)) return false;
    if (a.notPhase && among(a.notPhase)) return false;
    // Another seat may answer in the midst of one's turn (a Sashimono battle's defender):
    // where the view names whose turn it is, the turn is over only when that changed.
    const owner = s.view?.turn_seat;
    const handedOn = !mine && (owner === undefined || owner === null || owner !== s.you);
    if (a.turnOver && !(acted && (handedOn || s.status !== "active"))) return false;
    return !step.final;
  }

  check() {
    if (!this.panel.isConnected) return;
    let moved = false;
    // Several steps may be done at once (a quick player, or a page reloaded mid-turn).
    for (let guard = 0; guard < this.steps.length && this.step && this.done(this.step); guard++) {
      this.index++;
      this.stepPly = null;
      moved = true;
    }
    if (moved) {
      this.save();
      this.show(true);
    } else this.show(false);
  }

  next() {
    if (this.index < this.steps.length - 1) {
      this.index++;
      this.stepPly = null;
      this.save();
      this.show(true);
      this.check();
    }
  }

  /** Draw the step (its words when it changed), its highlights and the panel's place. */
  show(changed) {
    const step = this.step;
    if (!step) return;
    const s = this.page.snap;
    if (changed) {
      const id = step.id || String(this.index);
      this.panel.dataset.step = id;
      // The path the coach took, step by step (a step done within a moment is still on it).
      const shown = (this.panel.dataset.shown || "").split(" ").filter(Boolean);
      if (shown[shown.length - 1] !== id) this.panel.dataset.shown = [...shown, id].join(" ");
      this.title.textContent = step.title || _("Tutorial");
      this.count.textContent = fmt(_("Step {x} of {length}"), { x: this.index + 1, length: this.steps.length });
      this.text.textContent = step.text || "";
      const buttons = [];
      if (step.advance?.next) buttons.push(el("button.primary", { type: "button", id: "coach-next", onclick: () => this.next() }, _("Next")));
      if (step.final) {
        buttons.push(el("button.primary", { type: "button", id: "coach-rules", onclick: () => this.openRules() }, _("Open the Rules")));
        buttons.push(el("button.secondary", { type: "button", id: "coach-close", onclick: () => this.close() }, _("Keep playing")));
      } else {
        buttons.push(el("button.link", { type: "button", id: "coach-close", onclick: () => this.close() }, _("Close tutorial")));
      }
      clear(this.buttons).append(...buttons);
      if (step.final) this.save(true);
    }
    // The computer's move: the step waits, and says so.
    const waiting = !step.final && !step.advance?.next && s?.status === "active" && !this.page.mySeatToAct();
    const words = waiting ? (this.data.waitText ? _(this.data.waitText) : _("The computer is playing: your turn comes next.")) : "";
    // Only a change is written: the page's observer would see even the same words rewritten.
    if (this.wait.textContent !== words) this.wait.textContent = words;
    this.mark(waiting ? [] : targetsOf(step));
    if (changed || this.rescroll) {
      // The first target in view (then the panel placed beside it).
      this.marked[0]?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
      this.rescroll = false;
    }
    place(this.panel, this.marked);
    // The focus on the step's words: a screen reader reads them, Tab goes on to the board.
    if (changed) this.text.focus({ preventScroll: true });
  }

  save(done = false) {
    store(this.page.id, { step: this.index, done, firstPly: this.firstPly });
  }

  mark(targets) {
    for (const node of this.marked) if (!targets.includes(node) && node.classList.contains(HIGHLIGHT)) node.classList.remove(HIGHLIGHT);
    for (const node of targets) if (!node.classList.contains(HIGHLIGHT)) node.classList.add(HIGHLIGHT);
    this.marked = targets;
  }

  openRules() {
    const button = document.getElementById("rules-open");
    this.close();
    button?.click();
  }

  close() {
    this.destroy();
    const entry = saved()[this.page.id];
    if (entry) store(this.page.id, { ...entry, closed: true });
    document.getElementById("tutorial-open")?.focus({ preventScroll: true });
  }

  destroy() {
    this.observer.disconnect();
    window.removeEventListener("resize", this.onResize);
    if (this.pending) cancelAnimationFrame(this.pending);
    this.mark([]);
    this.panel.remove();
  }
}

/**
 * The tutorial on a game page: its "Tutorial" button (in the page's head, by the
 * game's name: always in view, and it takes no room from the side panel), and the coach when
 * this match was opened as a tutorial. ``page`` is the MatchPage (js/match.js); it calls
 * update() after each render and destroy() when it goes.
 */
export function mountTutorial(page) {
  const game = page.snap?.game;
  let coach = null;
  let destroyed = false;
  const open = async (resume) => {
    const entry = saved()[page.id];
    if (!entry) {
      // A game of one's own under way: say where it stays before leaving it.
      if (page.snap?.status === "active" && page.held.length) {
        const go = await ask(_("Start the tutorial?"), _("It opens a new game against the computer. This game stays open: the home page lists it under your games in progress."), [
          { label: _("Start the tutorial"), value: true, kind: "primary" },
          { label: _("Stay here"), value: false, safe: true },
        ]);
        if (!go) return;
      }
      startTutorial(game);
      return;
    }
    if (entry.done && !resume) {
      startTutorial(game); // this one is over: a fresh first turn
      return;
    }
    const [data, phases] = await Promise.all([loadTutorial(game), loadPhases(game)]);
    if (!data || destroyed || (coach && coach.panel.isConnected)) return;
    coach = new Coach(page, data, entry);
    coach.phases = phases;
    coach.check();
  };
  // "Tutorial", or on a narrow screen "?" (the head line has little room there).
  const button = el(
    "button.secondary.tutorial-open",
    { type: "button", id: "tutorial-open", hidden: true, "aria-label": _("Tutorial: a guided first turn"), title: _("A guided first turn against the computer"), onclick: () => open(false) },
    el("span.tutorial-long", { "aria-hidden": "true" }, _("Tutorial")),
    el("span.tutorial-short", { "aria-hidden": "true" }, "?"),
  );
  const head = page.root.querySelector(".match-head");
  head?.insertBefore(button, head.querySelector(".connection"));
  tutorialGames().then((games) => (button.hidden = !games.has(game)));
  const entry = saved()[page.id];
  if (entry && !entry.done && !entry.closed) open(true);
  return {
    update() {
      if (coach?.panel.isConnected) coach.schedule();
    },
    destroy() {
      destroyed = true;
      coach?.destroy();
      button.remove();
    },
  };
}
