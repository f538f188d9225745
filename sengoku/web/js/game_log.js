// The game log (issue 17): the move list of the games whose events name no action, because
// their moves are partly hidden (Gunshi queues commands face down, Sashimono hides hands).
// It reads as the events' own sentences, written by the engines in the rulebook's words,
// under one heading per turn ("Turn 3 — Blue"); what happened before the first turn sits
// under "Setting up".
//
// What a seat reads: the server sends each seat only the events whose `audience` holds it
// (and a hot-seat page filters again by the seat on screen), so a line such as "You send
// Ambush face down." reaches its owner only, while the other seat reads "Red sends a card
// face down to position 2.". Nothing here adds words of its own to an event beyond its
// sentence, so the log can say no more than the events it was given.
//
// Looking back: each engine event carries `ply`, the number of actions played when it
// happened; its entry is a button that shows the position after that action (the server
// replays it as this seat saw it then). Entries without a ply (the server's own notices)
// are plain text.
//
// A long Gunshi game runs 400-900 actions and several times as many sentences: the log is
// built once and then only grows (new events are appended where they belong); it is rebuilt
// only when earlier events change (a takeback, or another seat's private events fetched in
// hot seat). Each seat on screen keeps its own log, so a hot-seat page swaps logs instead
// of rebuilding one at every turn.

import { el } from "./ui.js";
import { _, fmt, said, word } from "./i18n.js";

/** Whether the page should show a game log instead of notation: no event names an action,
 * and the game has said something (until then a game's move list is just empty). */
export function wantsGameLog(moveEvents, gameEvents) {
  return moveEvents.length === 0 && gameEvents.some((e) => typeof e.event.message === "string");
}

export class GameLog {
  /**
   * @param {object} options
   * @param {(event: object) => boolean} options.visible which events this seat may read
   * @param {(event: object) => boolean} options.skip events that are no part of the game
   * @param {(seat: number) => string} options.seatName the seat's name on this page
   * @param {(ply: number) => void} options.onPick browse to the position after ``ply``
   */
  constructor({ visible, skip, seatName, onPick }) {
    this.visible = visible;
    this.skip = skip;
    this.seatName = seatName;
    this.onPick = onPick;
    this.reset();
  }

  reset() {
    this.groups = []; // the <li> of each turn, in order
    this.entries = null; // the <ol> of the last turn, where new entries go
    this.count = 0; // how many of the page's events this log has read
    this.lastN = null; // the number of the last of them
    this.plies = []; // the distinct plies of the entries, increasing
    this.byPly = new Map(); // ply -> its entries
    this.current = [];
    this.list = null;
  }

  /** Show this log in ``list`` (the page's move list), in place of what it shows. */
  mount(list) {
    this.list = list;
    list.replaceChildren(...this.groups);
    if (!this.groups.length) list.append(this.placeholder());
    // One listener for every line (thousands in a long game): a line's button names its ply,
    // and the log shown now browses there.
    list.gameLog = this;
    if (!list.dataset.logClicks) {
      list.dataset.logClicks = "1";
      list.addEventListener("click", (event) => {
        const button = event.target instanceof Element ? event.target.closest("button.log-link") : null;
        if (button && list.contains(button)) list.gameLog?.onPick(Number(button.dataset.ply));
      });
    }
  }

  placeholder() {
    return el("li.muted.log-empty", {}, _("No moves yet."));
  }

  /**
   * Read the page's events (sorted by number): append the new ones, or build again when
   * earlier ones changed. Returns whether any entry was added.
   */
  update(events) {
    const same = this.count <= events.length && (this.count === 0 || events[this.count - 1]?.n === this.lastN);
    let fresh = events.slice(this.count);
    if (!same || fresh.some((e) => e.event.type === "takeback")) {
      const list = this.list;
      this.reset();
      this.list = list;
      list?.replaceChildren();
      fresh = afterTakebacks(events);
    }
    this.count = events.length;
    this.lastN = events.length ? events[events.length - 1].n : null;
    let added = false;
    // Many lines at once (the page opens on a long game): the new groups are built off the
    // page and put there in one go.
    const list = this.list;
    const before = this.groups.length;
    if (fresh.length > 40) this.list = null;
    for (const e of fresh) {
      if (!this.visible(e) || this.skip(e)) continue;
      if (this.add(e)) added = true;
    }
    if (list && !this.list) {
      this.list = list;
      if (this.groups.length > before) {
        list.querySelector(".log-empty")?.remove();
        list.append(...this.groups.slice(before));
      }
    }
    if (this.list && !this.groups.length && !this.list.querySelector(".log-empty")) this.list.append(this.placeholder());
    if (added) this.list?.querySelector(".log-empty")?.remove();
    return added;
  }

  /** One event: a turn opens a group; any other sentence is an entry of the last group. */
  add(e) {
    const ev = e.event;
    if (ev.type === "turn") {
      // the engine's name of the side (Gunshi's "Red") is a game word the language names
      const who = ev.name ? word(ev.name) : ev.seat !== undefined && ev.seat !== null ? this.seatName(ev.seat) : "";
      const title = ev.turn ? (who ? fmt(_("Turn {turn} — {who}"), { turn: ev.turn, who }) : fmt(_("Turn {turn}"), { turn: ev.turn })) : sentence(ev.say ? said(ev.say) : ev.message);
      this.group(title, ev.seat, ev.ply);
      return true;
    }
    const text = this.words(ev);
    if (!text) return false;
    if (!this.entries) this.group(_("Setting up"), null, null);
    const ply = Number.isInteger(ev.ply) ? ev.ply : null;
    const secret = Array.isArray(ev.audience);
    // Plain DOM calls: thousands of lines are made when a long game opens.
    const li = document.createElement("li");
    li.className = secret ? "log-entry log-private" : "log-entry";
    li.dataset.n = e.n;
    if (ply !== null) li.dataset.ply = ply;
    if (ev.seat !== undefined && ev.seat !== null) li.dataset.seat = ev.seat;
    const body = document.createElement(ply === null ? "span" : "button");
    if (ply === null) body.className = "log-text";
    else {
      body.className = "log-link";
      body.type = "button";
      body.dataset.ply = ply;
      body.title = _("Show the position after this");
    }
    if (secret) {
      // Said, not only shown: a line only this seat reads.
      const note = document.createElement("span");
      note.className = "visually-hidden";
      note.textContent = _("Only you see this: ");
      body.append(note);
    }
    body.append(text);
    li.append(body);
    this.entries.append(li);
    if (ply !== null) {
      if (!this.byPly.has(ply)) {
        this.byPly.set(ply, []);
        if (!this.plies.length || ply > this.plies[this.plies.length - 1]) this.plies.push(ply);
        else this.plies = [...this.byPly.keys()].sort((a, b) => a - b);
      }
      this.byPly.get(ply).push(li);
    }
    return true;
  }

  group(title, seat, ply) {
    const entries = el("ol.log-entries");
    const li = el(
      "li.log-turn",
      { "data-seat": seat ?? undefined, "data-ply": ply ?? undefined },
      el("h3.log-heading", {}, title),
      entries,
    );
    this.groups.push(li);
    this.entries = entries;
    if (this.list) {
      this.list.querySelector(".log-empty")?.remove();
      this.list.append(li);
    }
  }

  /** An event's sentence as the log reads it. */
  words(ev) {
    if (ev.type === "takeback") {
      const who = ev.seat !== undefined && ev.seat !== null ? fmt(_("{seatName} takes back"), { seatName: this.seatName(ev.seat) }) : _("Taken back");
      return fmt(_("{who}: the game returns to move {to_ply}."), { who, to_ply: ev.to_ply });
    }
    return sentence(ev.say ? said(ev.say) : ev.message);
  }

  /**
   * Mark the entries of the position on screen: those of ``ply`` (the last entries at or
   * before it, when that action wrote none), or none while the live game is shown.
   */
  mark(ply) {
    for (const li of this.current) li.classList.remove("current");
    this.current = [];
    if (ply === null || ply === undefined) return null;
    let lo = 0;
    let hi = this.plies.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.plies[mid] <= ply) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0) return null;
    this.current = this.byPly.get(this.plies[found]) || [];
    for (const li of this.current) li.classList.add("current");
    return this.current[0] || null;
  }
}

/** The events that stand after every takeback (each undoes the actions after its ply). */
function afterTakebacks(events) {
  const out = [];
  for (const e of events) {
    if (e.event.type === "takeback") {
      const to = e.event.to_ply;
      for (let i = out.length - 1; i >= 0; i--) {
        if (Number.isInteger(out[i].event.ply) && out[i].event.ply > to) out.splice(i, 1);
      }
    }
    out.push(e);
  }
  return out;
}

/** A message as a sentence: a capital first letter (the server's notices are lower case). */
function sentence(message) {
  const text = typeof message === "string" ? message.trim() : "";
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}
