// Replays: step through a finished game ply by ply, as a chosen seat saw it (or as a
// spectator), jump from the move list, export the record.

import { api } from "./api.js";
import { el, clear, toast, download } from "./ui.js";
import { rendererFor } from "./games/index.js";
import { prefs } from "./nav.js";
import { resultText } from "./match.js";

export async function replayPage(root, matchId) {
  const page = new ReplayPage(root, matchId);
  await page.start();
  return page;
}

class ReplayPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.ply = 0;
    this.seat = null;
  }

  async start() {
    clear(this.root).append(el("p.loading", {}, "Loading the record…"));
    try {
      this.record = await api("GET", `/api/records/${this.id}`);
    } catch (err) {
      clear(this.root).append(el("div.card.error-card", {}, el("h2", {}, "No replay"), el("p", {}, err.message), el("a.button", { href: "/records", "data-nav": "" }, "Records")));
      return;
    }
    this.renderer = await rendererFor(this.record.game);
    await this.load();
    this.onKey = (e) => {
      if (e.target.closest("input, textarea, select")) return;
      if (e.key === "ArrowLeft") this.go(this.ply - 1);
      else if (e.key === "ArrowRight") this.go(this.ply + 1);
      else if (e.key === "Home") this.go(0);
      else if (e.key === "End") this.go(this.plies.length - 1);
    };
    document.addEventListener("keydown", this.onKey);
    this.onPrefs = () => this.render();
    window.addEventListener("sengoku:prefs", this.onPrefs);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("sengoku:prefs", this.onPrefs);
  }

  async load() {
    const q = this.seat === null ? "" : `?seat=${this.seat}`;
    try {
      const out = await api("POST", `/api/replay${q}`, { body: this.record });
      this.plies = out.plies;
      this.result = out.result;
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    this.ply = Math.min(this.ply, this.plies.length - 1);
    this.build();
    this.render();
  }

  build() {
    const r = this.renderer;
    const players = this.record.players || [];
    const seats = players.map((name, i) => ({ name }));
    this.seats = seats;
    const seatSel = el(
      "select",
      { id: "replay-seat", "aria-label": "Show the game as" },
      el("option", { value: "", selected: this.seat === null }, "Spectator (public view)"),
      seats.map((s, i) => el("option", { value: i, selected: this.seat === i }, `${r.seatName(i)}${s.name ? ` (${s.name})` : ""}`)),
    );
    seatSel.addEventListener("change", () => {
      this.seat = seatSel.value === "" ? null : Number(seatSel.value);
      this.load();
    });
    const btn = (id, label, title, fn) => el("button.secondary", { type: "button", id, title, "aria-label": title, onclick: fn }, label);
    this.slider = el("input", { type: "range", min: 0, max: this.plies.length - 1, value: this.ply, id: "replay-slider", "aria-label": "Move" });
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.counter = el("span.replay-counter", { id: "replay-counter" });
    this.boardBox = el("div.board-area");
    this.moves = el("ol.moves", { id: "moves" });
    this.status = el("div.status", { id: "status" });
    clear(this.root).append(
      el(
        "div.match.replay",
        {},
        el(
          "section.play",
          {},
          el("div.match-head", {}, el("h1.match-title", {}, el("span.game-kanji", {}, r.kanji || ""), ` ${r.title} — replay`)),
          el("div.board-shell", {}, this.boardBox),
        ),
        el(
          "aside.side",
          {},
          el(
            "div.card",
            {},
            this.status,
            el("div.replay-controls", {}, btn("replay-first", "|◀", "First position", () => this.go(0)), btn("replay-prev", "◀", "Previous move", () => this.go(this.ply - 1)), this.counter, btn("replay-next", "▶", "Next move", () => this.go(this.ply + 1)), btn("replay-last", "▶|", "Last position", () => this.go(this.plies.length - 1))),
            this.slider,
            el("div.field", {}, el("label", { for: "replay-seat" }, "Show as"), seatSel),
            el("div.controls", {}, el("button.secondary", { type: "button", id: "export", onclick: () => download(`${this.record.game}-${this.id}.json`, this.record) }, "Export record"), el("a.button.secondary", { href: "/records", "data-nav": "" }, "All records")),
          ),
          el("div.card.moves-card", {}, el("h2", {}, "Moves"), this.moves),
        ),
      ),
    );
    this.board = r.create(this.boardBox, {});
    this.flipped = this.seat !== null && r.defaultFlip(this.seat);
  }

  go(ply) {
    const next = Math.max(0, Math.min(this.plies.length - 1, ply));
    if (next === this.ply && this.rendered) return;
    this.ply = next;
    this.render();
  }

  render() {
    this.rendered = true;
    const p = this.plies[this.ply];
    this.board.update({
      view: p.view,
      legal: [],
      seat: this.seat,
      interactive: false,
      lastAction: p.action,
      labels: prefs.labels,
      flipped: this.flipped,
      send: () => {},
    });
    this.slider.value = this.ply;
    this.counter.textContent = `${this.ply} / ${this.plies.length - 1}`;
    const end = this.ply === this.plies.length - 1 && this.result;
    this.status.textContent = end
      ? `Game over: ${resultText(this.result, this.seats, this.renderer)}`
      : this.ply === 0
        ? "The starting position"
        : `Move ${this.ply}: ${this.renderer.seatName(p.seat)} played ${p.action}`;
    clear(this.moves);
    this.plies.slice(1).forEach((q) => {
      this.moves.append(
        el(
          `li${q.ply === this.ply ? ".current" : ""}`,
          { "data-ply": q.ply, onclick: () => this.go(q.ply) },
          el("span.ply", {}, `${q.ply}.`),
          el("span.mover", {}, this.renderer.seatName(q.seat)),
          el("span.notation", {}, q.action),
        ),
      );
    });
    const cur = this.moves.querySelector(".current");
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }
}
