// The chat of a match (sengoku/server/chat.py): the players' channel and the spectators'
// channel, each in its own list. A player writes to the players and may mute the
// spectators; a spectator writes to the spectators. Every message is shown as text
// (el() builds text nodes), never as markup, and carries a marker of who wrote it (the
// server's role and seat, never the name: a spectator may choose any name).

import { api, ApiError } from "./api.js";
import { el, clear, toast } from "./ui.js";
import { _, fmt } from "./i18n.js";

const NAME_KEY = "sengoku.name";

export class ChatPanel {
  /**
   * ``page`` gives ``id``, ``held`` (the seats this browser holds) and ``tokenForChat()``
   * (the token a player writes with, or null for a spectator).
   */
  constructor(page) {
    this.page = page;
    this.seen = new Set();
    this.muted = false;
    this.maxText = 300;
    this.build();
  }

  get isPlayer() {
    return this.page.held.length > 0;
  }

  build() {
    this.lists = {
      players: el("ol.chat-log", { id: "chat-players", "aria-live": "polite", "aria-label": _("Players' chat") }),
      spectators: el("ol.chat-log", { id: "chat-spectators", "aria-live": "polite", "aria-label": _("Spectators' chat") }),
    };
    this.input = el("input", {
      id: "chat-input",
      type: "text",
      maxlength: this.maxText,
      autocomplete: "off",
      placeholder: this.isPlayer ? _("Message your opponent") : _("Message the other spectators"),
      "aria-label": this.isPlayer ? _("Message to the players") : _("Message to the spectators"),
    });
    this.nameInput = this.isPlayer
      ? null
      : el("input.chat-name-input", {
          id: "chat-name",
          type: "text",
          maxlength: 32,
          value: localStorage.getItem(NAME_KEY) || "",
          placeholder: _("Your name"),
          "aria-label": _("Your name as a spectator"),
        });
    this.muteBox = this.isPlayer
      ? el("input", { type: "checkbox", id: "chat-mute", onchange: () => this.setMute(this.muteBox.checked) })
      : null;
    this.spectatorSection = el(
      "section.chat-channel",
      { "data-channel": "spectators" },
      el("h3", {}, _("Spectators")),
      this.lists.spectators,
    );
    this.root = el(
      "div.card.chat-card",
      { id: "chat", role: "region", "aria-label": _("Chat") },
      el("h2", {}, _("Chat")),
      el("section.chat-channel", { "data-channel": "players" }, el("h3", {}, _("Players")), this.lists.players),
      this.spectatorSection,
      this.muteBox ? el("label.chat-mute", { for: "chat-mute" }, this.muteBox, _(" Mute the spectators")) : null,
      el(
        "form.chat-form",
        { onsubmit: (e) => this.submit(e) },
        this.nameInput,
        this.input,
        el("button.secondary", { type: "submit", id: "chat-send" }, _("Send")),
      ),
    );
    return this.root;
  }

  /** The whole history again (at mount and after a reconnection). */
  async load() {
    try {
      const out = await api("GET", `/api/matches/${encodeURIComponent(this.page.id)}/chat`, { token: this.page.tokenForChat() });
      this.maxText = out.max_text || this.maxText;
      this.setMuted(out.muted);
      for (const m of out.messages) this.add(m);
    } catch (err) {
      // The chat is a side show: the game goes on without it.
      this.lists.players.append(el("li.muted", {}, fmt(_("The chat cannot be read: {message}"), { message: err.message })));
    }
  }

  setMuted(muted) {
    this.muted = Boolean(muted);
    if (this.muteBox) this.muteBox.checked = this.muted;
    this.spectatorSection.hidden = this.muted;
    if (this.muted) {
      clear(this.lists.spectators);
      for (const n of [...this.seen]) if (n.startsWith("spectators:")) this.seen.delete(n);
    }
  }

  async setMute(muted) {
    try {
      const out = await api("POST", `/api/matches/${encodeURIComponent(this.page.id)}/chat/mute`, { token: this.page.tokenForChat(), body: { muted } });
      this.setMuted(out.muted);
      for (const m of out.messages) this.add(m);
    } catch (err) {
      toast(err.message, "error");
      if (this.muteBox) this.muteBox.checked = this.muted;
    }
  }

  /** One message (from the history or the socket), shown once. */
  add(m) {
    if (m.channel === "spectators" && this.muted) return;
    const list = this.lists[m.channel];
    if (!list) return;
    // Numbers are per match, shared by both channels; the key keeps reloads idempotent.
    const key = `${m.channel}:${m.n}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const when = new Date(m.at * 1000);
    const role = m.role || (m.seat === null || m.seat === undefined ? "spectator" : "player");
    const item = el(
      "li.chat-message",
      { "data-n": m.n, "data-channel": m.channel, "data-seat": m.seat ?? "", "data-role": role },
      el(
        "span.chat-role",
        { "data-role": role, title: role === "player" ? _("A player of this match") : "A spectator" },
        role === "player" ? fmt(_("Seat {x}"), { x: m.seat + 1 }) : _("Spectator"),
      ),
      el("span.chat-who", {}, m.name || "?"),
      el("span.chat-text", {}, m.text),
      el("time.chat-time", { datetime: when.toISOString() }, when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
    );
    const items = [...list.children].filter((c) => c.dataset.n);
    const after = items.find((c) => Number(c.dataset.n) > m.n);
    if (after) list.insertBefore(item, after);
    else list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  async submit(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    const body = { text };
    if (this.nameInput) {
      const name = this.nameInput.value.trim();
      if (name) {
        body.name = name;
        localStorage.setItem(NAME_KEY, name);
      }
    }
    try {
      const m = await api("POST", `/api/matches/${encodeURIComponent(this.page.id)}/chat`, { token: this.page.tokenForChat(), body });
      this.input.value = "";
      this.add(m);
    } catch (err) {
      toast(err instanceof ApiError ? err.message : String(err), "error");
    }
  }
}
