// The table around a live match (issue 17): who is online, how many watch, draw offers, a
// "claim victory" button when the opponent has left, the tab title "Your turn", the chat,
// sound and the board flip by the `f` key.
//
// match.js mounts it with three hook calls (mountTable, table.onMessage, table.destroy);
// everything else reads the page's public fields (id, held, tokens, snap, renderer) so the
// match page's layout may change without this module changing.

import { api } from "./api.js";
import { el, toast, ownName, replaceIfChanged, setAttr, setText } from "./ui.js";
import { ChatPanel } from "./chat.js";
import { sounds, LOW_TIME } from "./sound.js";
import { RulesPanel } from "./rules_panel.js";
import { _, fmt, ngettext } from "./i18n.js";

const BASE_TITLE = "Sengoku";
/** How often presence, spectators and offers are asked for between the socket's news. */
const INFO_EVERY_MS = 3000;
const NOTIFY_KEY = "sengoku.notify";

export function mountTable(page) {
  const table = new Table(page);
  table.start();
  return table;
}

export class Table {
  constructor(page) {
    this.page = page;
    this.info = null;
    this.welcomed = 0;
    this.lastKey = "";
    this.savedTitle = document.title;
  }

  /** The seat this browser writes and offers with: the one shown, else the first held. */
  mySeat() {
    const held = this.page.held;
    if (!held.length) return null;
    const shown = this.page.snap?.you;
    return held.includes(shown) ? shown : held[0];
  }

  tokenForChat() {
    const seat = this.mySeat();
    return seat === null ? null : this.page.tokens[seat];
  }

  start() {
    const page = this.page;
    this.chat = new ChatPanel({ id: page.id, get held() { return page.held; }, tokenForChat: () => this.tokenForChat() });
    this.presence = el("div.table-presence", { id: "presence", "aria-label": _("Who is at the table") });
    this.actions = el("div.table-actions", { id: "table-actions" });
    // The optional notification: asked for once, only where the browser has them.
    this.notifyButton = "Notification" in window ? el("button.secondary", { type: "button", id: "notify-toggle", "aria-pressed": "false", onclick: () => this.toggleNotify() }, _("Notify me")) : null;
    this.rules = new RulesPanel(page.snap.game, page.renderer?.title || page.snap.game);
    this.soundButton = el("button.secondary.sound-toggle", { type: "button", id: "sound-toggle", "aria-pressed": "false", onclick: () => this.toggleSound() }, _("Sound"));
    this.root = el(
      "div.table-panel",
      { id: "table-panel" },
      el("div.card.table-card", {}, this.presence, this.actions, el("div.table-switches", {}, this.rules.button, this.soundButton, this.notifyButton)),
      this.chat.root,
    );
    const host = page.root.querySelector(".side-rest") || page.root;
    host.append(this.root);
    this.chat.load();
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    // The page's snapshot changes after each state message (asynchronously, sometimes
    // after a fetch): a light poll keeps the title and buttons in step without more hooks.
    this.ticker = setInterval(() => this.update(), 400);
    // Nothing is sent when a player closes their tab: presence is asked for now and then.
    this.infoTicker = setInterval(() => this.fetchInfo(), INFO_EVERY_MS);
    this.fetchInfo();
    this.update();
  }

  destroy() {
    clearInterval(this.ticker);
    clearInterval(this.infoTicker);
    document.removeEventListener("keydown", this.onKey);
    document.title = this.savedTitle;
    this.rules.destroy();
    this.root.remove();
  }

  /** Every server message of the match's socket (match.js forwards them). */
  onMessage(msg) {
    if (msg.type === "chat") this.chat.add(msg.message);
    else if (msg.type === "welcome") {
      // After a reconnection, what was said meanwhile.
      if (this.welcomed++) this.chat.load();
    } else if (msg.type === "event") {
      sounds.onEvent(msg.event, this);
    } else if (msg.type === "state") {
      this.fetchInfo();
    }
  }

  async fetchInfo() {
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = true;
    try {
      this.info = await api("GET", `/api/matches/${encodeURIComponent(this.page.id)}/table`);
    } catch (err) {
      // Presence is a courtesy; the game goes on without it.
    } finally {
      this.fetching = false;
    }
    if (this.again) {
      this.again = false;
      this.fetchInfo();
      return;
    }
    this.update();
  }

  myTurn() {
    const s = this.page.snap;
    return Boolean(s && s.status === "active" && this.page.held.includes(s.to_act));
  }

  update() {
    const s = this.page.snap;
    if (!s) return;
    const mine = this.myTurn();
    // Hot seat: every turn is somebody's here, the title would always say so.
    const hotSeat = this.page.held.length > 1;
    const title = mine && !hotSeat ? fmt(_("Your turn — {BASE_TITLE}"), { BASE_TITLE }) : s.status === "finished" ? fmt(_("Game over — {BASE_TITLE}"), { BASE_TITLE }) : this.savedTitle;
    // (the "your turn" badge of the player's other games, your_turn.js, stays in front)
    if (document.title.replace(/^\(\d+\) /u, "") !== title) document.title = title;
    if (mine && !hotSeat && this.wasMine === false) {
      sounds.play("turn", this);
      this.notify();
    }
    this.wasMine = mine;
    this.checkLowTime();
    this.renderSound();
    const key = JSON.stringify([s.status, s.to_act, s.ply, s.last_event, this.info, this.page.held]);
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.renderPresence();
    this.renderActions();
  }

  seatName(i) {
    try {
      return this.page.renderer.seatName(i);
    } catch (err) {
      return fmt(_("Seat {x}"), { x: i + 1 });
    }
  }

  renderPresence() {
    const s = this.page.snap;
    const info = this.info;
    const list = el("ul.presence-list");
    s.seats.forEach((seat, i) => {
      const you = this.page.held.includes(i);
      // In hot seat one connection plays every seat this browser holds: all are here.
      const here = you && this.page.held.some((h) => (info ? info.seats[h]?.online : s.seats[h]?.connected));
      const online = here || (info ? info.seats[i]?.online : seat.connected);
      const state = seat.kind === "ai" ? _("computer") : online ? _("online") : seat.joined ? _("away") : _("not joined");
      list.append(
        el(
          "li.presence",
          { "data-seat": i, "data-online": online ? "true" : "false" },
          // Shape and word as well as colour: a filled or a hollow dot, and the state.
          el("span.presence-dot", { "aria-hidden": "true" }, online ? "●" : "○"),
          el("span.presence-name", {}, `${this.seatName(i)}${ownName(seat.name) && seat.kind !== "ai" ? ` (${seat.name})` : ""}${you ? _(" — you") : ""}`),
          el("span.presence-state", {}, state),
        ),
      );
    });
    // Only when somebody watches: "0 spectators" tells a player nothing.
    const watching = info ? info.spectators : 0;
    // Drawn only when it changed (the poll comes every few seconds): what is under the
    // pointer stays put.
    replaceIfChanged(this.presence, [el("h2", {}, _("At the table")), list, watching ? el("p.spectators", { id: "spectator-count" }, fmt(ngettext("{n} spectator", "{n} spectators", watching), { n: watching })) : null]);
  }

  /** The seat of an absent human opponent who is to act, or null. */
  absentOpponent() {
    const s = this.page.snap;
    const info = this.info;
    if (!s || s.status !== "active" || !info || !this.page.held.length) return null;
    const seat = s.to_act;
    if (this.page.held.includes(seat) || s.seats[seat]?.kind !== "human") return null;
    return info.seats[seat]?.online ? null : seat;
  }

  renderActions() {
    const s = this.page.snap;
    const drawn = el("div");
    this.drawActions(s, drawn);
    replaceIfChanged(this.actions, [...drawn.childNodes]);
  }

  drawActions(s, box) {
    const info = this.info;
    const me = this.mySeat();
    if (me === null || s.status !== "active") return;
    const gone = this.absentOpponent();
    if (gone !== null) {
      const wait = Math.max(0, Math.ceil(info.claim_after - info.seats[gone].away_for));
      // Three or more players: the claim hands the absent player's seat to the computer.
      const replaces = s.replacement_level !== null && s.replacement_level !== undefined;
      const what = replaces ? _("let the computer play for them") : _("claim the win");
      box.append(
        el("p.claim-note", {}, fmt(wait ? _("{seat} has left the game; you may {what} in about {wait} s") : _("{seat} has left the game."), { seat: this.seatName(gone), what, wait })),
        el("button.primary", { type: "button", id: "claim", onclick: () => this.claim(replaces) }, replaces ? _("Let the computer play for them") : _("Claim victory")),
      );
    }
    const draw = info?.draw;
    if (draw?.allowed && this.page.held.length === 1) {
      const theirs = draw.offered_by.filter((x) => x !== me);
      if (theirs.length) {
        box.append(
          el("p.draw-note", { id: "draw-offered" }, _("Your opponent offers a draw.")),
          el("button.primary", { type: "button", id: "draw-accept", onclick: () => this.draw(true) }, _("Accept the draw")),
          el("button.secondary", { type: "button", id: "draw-decline", onclick: () => this.draw(false) }, _("Decline")),
        );
      } else if (draw.offered_by.includes(me)) {
        box.append(el("p.draw-note", { id: "draw-pending" }, _("You offered a draw; it stands until the next move.")));
      } else {
        box.append(el("button.secondary", { type: "button", id: "draw-offer", onclick: () => this.draw(true) }, _("Offer a draw")));
      }
    }
  }

  notifyOn() {
    return localStorage.getItem(NOTIFY_KEY) === "on" && window.Notification?.permission === "granted";
  }

  async toggleNotify() {
    if (this.notifyOn()) localStorage.setItem(NOTIFY_KEY, "off");
    else {
      const answer = await Notification.requestPermission();
      if (answer === "granted") localStorage.setItem(NOTIFY_KEY, "on");
      else toast(_("The browser does not allow notifications for this site."), "error");
    }
    this.renderSound();
  }

  /** "Your turn" as a system notification, when the page is not in front. */
  notify() {
    if (!this.notifyOn() || (!document.hidden && document.hasFocus())) return;
    try {
      const note = new Notification(_("Your turn"), { body: fmt(_("{game}: your opponent has moved."), { game: this.page.renderer?.title || "Sengoku" }), tag: `sengoku-${this.page.id}` });
      note.onclick = () => window.focus();
    } catch (err) {
      // some browsers allow notifications only from a service worker: the title still says it
    }
  }

  toggleSound() {
    sounds.set(!sounds.enabled(this));
    this.renderSound();
  }

  renderSound() {
    const on = sounds.enabled(this);
    // Called on every tick of update(): only a change is written.
    setAttr(this.soundButton, "aria-pressed", on ? "true" : "false");
    setText(this.soundButton, on ? _("Sound: on") : _("Sound: off"));
    if (this.notifyButton) {
      const n = this.notifyOn();
      setAttr(this.notifyButton, "aria-pressed", n ? "true" : "false");
      setText(this.notifyButton, n ? _("Notify me: on") : _("Notify me"));
    }
  }

  /** Low time: once per turn of mine, when my running clock falls under LOW_TIME. */
  checkLowTime() {
    const c = this.page.snap?.clocks;
    const me = this.page.snap?.to_act;
    if (!c || c.running === null || c.running === undefined || !this.myTurn()) {
      this.lowRung = null;
      return;
    }
    const elapsed = (performance.now() - (this.page.clockAt || performance.now())) / 1000;
    const left = c.remaining[c.running] - elapsed;
    const turn = `${this.page.snap.ply}:${me}`;
    if (left < LOW_TIME && this.lowRung !== turn) {
      this.lowRung = turn;
      sounds.play("lowtime", this);
    }
  }

  async claim(replaces = false) {
    try {
      await api("POST", `/api/matches/${encodeURIComponent(this.page.id)}/claim`, { token: this.tokenForChat() });
      toast(replaces ? _("The computer plays for the player who left.") : _("You win: your opponent left the game."));
    } catch (err) {
      toast(err.message, "error");
    }
    this.fetchInfo();
  }

  async draw(accept) {
    try {
      const out = await api("POST", `/api/matches/${encodeURIComponent(this.page.id)}/draw`, { token: this.tokenForChat(), body: { accept } });
      this.info = out.table;
      this.lastKey = "";
      this.update();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  /** `f` flips the board (when no text field has the keys). */
  key(e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
    if (e.key === "f" || e.key === "F") {
      const flip = this.page.root.querySelector("#flip");
      if (flip) {
        e.preventDefault();
        flip.click();
      }
    }
  }
}
