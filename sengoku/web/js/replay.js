// Replays: step through a finished game ply by ply, as a chosen seat saw it (or as a
// spectator), jump from the move list, play it by itself (autoplay), flip with `f`, export
// the record (JSON) and its moves in the game's notation (text). Under the board, the
// game's analysis (analysis.js): queued with a button, then a graph and the costly moves;
// the engine's preferred next move is drawn on the board.

import { api } from "./api.js";
import { el, clear, toast, download } from "./ui.js";
import { rendererFor } from "./games/index.js";
import { prefs } from "./nav.js";
import { resultInWords } from "./words.js";
import { AnalysisPanel } from "./analysis.js";

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
    this.speed = 1000;
    this.timer = null;
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
    this.analysis = new AnalysisPanel({
      matchId: this.id,
      renderer: this.renderer,
      seatTitle: (s) => this.seatTitle(s),
      // a move of the analysis: the position before it, with the engine's choice drawn
      onPick: (ply) => this.go(ply - 1),
      onReady: () => {
        if (this.board) this.render();
      },
    });
    await this.load();
    this.analysis.start();
    this.onKey = (e) => {
      if (e.target.closest?.("input, textarea, select")) return;
      if (e.key === "ArrowLeft") this.go(this.ply - 1);
      else if (e.key === "ArrowRight") this.go(this.ply + 1);
      else if (e.key === "Home") this.go(0);
      else if (e.key === "End") this.go(this.plies.length - 1);
      else if (e.key === "f" && !e.ctrlKey && !e.metaKey && !e.altKey) {
        this.flipped = !this.flipped;
        this.render();
      }
    };
    document.addEventListener("keydown", this.onKey);
    this.onPrefs = () => this.render();
    window.addEventListener("sengoku:prefs", this.onPrefs);
  }

  seatTitle(s) {
    const name = this.record.players?.[s];
    return name ? `${this.renderer.seatName(s)} (${name})` : this.renderer.seatName(s);
  }

  destroy() {
    this.analysis?.destroy();
    clearInterval(this.timer);
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
    // One listener for every row: a click picks the ply.
    this.moves.addEventListener("click", (e) => {
      const li = e.target.closest("li[data-ply]");
      if (li) this.go(Number(li.dataset.ply));
    });
    this.playButton = el("button.secondary", { type: "button", id: "replay-play", "aria-pressed": "false", onclick: () => this.toggleAutoplay() }, "▶ Play");
    const speed = el(
      "select",
      { id: "replay-speed", "aria-label": "Autoplay speed" },
      [
        [2000, "slow"],
        [1000, "normal"],
        [400, "fast"],
      ].map(([ms, label]) => el("option", { value: ms, selected: ms === this.speed }, label)),
    );
    speed.addEventListener("change", () => {
      this.speed = Number(speed.value);
      if (this.timer) {
        this.stopAutoplay();
        this.toggleAutoplay();
      }
    });
    this.status = el("div.status", { id: "status" });
    this.hint = el("p.analysis-hint", { id: "analysis-hint", "aria-live": "polite" });
    clear(this.root).append(
      el(
        "div.match.replay",
        {},
        el(
          "section.play",
          {},
          el("div.match-head", {}, el("h1.match-title", {}, el("span.game-kanji", {}, r.kanji || ""), ` ${r.title} — replay`)),
          el("div.board-shell", {}, this.boardBox),
          this.analysis.root,
        ),
        el(
          "aside.side",
          {},
          el(
            "div.card",
            {},
            this.status,
            this.hint,
            el("div.replay-controls", {}, btn("replay-first", "|◀", "First position", () => this.go(0)), btn("replay-prev", "◀", "Previous move", () => this.go(this.ply - 1)), this.counter, btn("replay-next", "▶", "Next move", () => this.go(this.ply + 1)), btn("replay-last", "▶|", "Last position", () => this.go(this.plies.length - 1))),
            this.slider,
            el("div.replay-autoplay", {}, this.playButton, speed),
            el("div.field", {}, el("label", { for: "replay-seat" }, "Show as"), seatSel),
            el("div.controls", {}, el("button.secondary", { type: "button", id: "export", onclick: () => download(`${this.record.game}-${this.id}.json`, this.record) }, "Export record (JSON)"), el("button.secondary", { type: "button", id: "export-text", onclick: () => this.exportText() }, "Export moves (text)"), (this.boardLink = el("a.button.secondary", { href: "#", "data-nav": "", id: "replay-board" }, "Analysis board")), el("a.button.secondary", { href: "/records", "data-nav": "" }, "All records")),
          ),
          el("div.card.moves-card", {}, el("h2", {}, "Moves"), this.moves),
        ),
      ),
    );
    this.board = r.create(this.boardBox, {});
    this.buildMoves();
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
    // The analysis of the move played from here: the engine's preferred one on the board.
    const next = this.analysis?.plyInfo(this.ply + 1) || null;
    this.analysis?.mark(next ? this.ply + 1 : null);
    this.hint.textContent = next
      ? next.best === next.played
        ? `Next, ${this.seatTitle(next.seat)} played ${next.played}: the engine's choice too.`
        : `Next, ${this.seatTitle(next.seat)} played ${next.played}${next.classification ? ` (${next.classification})` : ""}; the engine preferred ${next.best} (in green on the board).`
      : "";
    this.board.update({
      // The mover's seat with it: a renderer draws a secret part (a card from the hand, a
      // Shogun) only for a viewer who is that seat.
      bestMove: next && next.best !== next.played ? next.best_described || null : null,
      bestSeat: next ? next.seat : null,
      view: p.view,
      legal: [],
      seat: this.seat,
      interactive: false,
      lastAction: p.action,
      lastMove: p.described || null,
      labels: prefs.labels,
      flipped: this.flipped,
      send: () => {},
    });
    // The analysis board opens at the ply shown (its moves the main line).
    this.boardLink.setAttribute("href", `/board/${encodeURIComponent(this.record.game)}?match=${encodeURIComponent(this.id)}&ply=${this.ply}`);
    this.slider.value = this.ply;
    this.counter.textContent = `${this.ply} / ${this.plies.length - 1}`;
    const end = this.ply === this.plies.length - 1 && this.result;
    this.status.textContent = end
      ? `Game over: ${resultInWords(this.result, (s) => (this.seats[s]?.name ? `${this.renderer.seatName(s)} (${this.seats[s].name})` : this.renderer.seatName(s)))}`
      : this.ply === 0
        ? "The starting position"
        : `Move ${this.ply}: ${this.renderer.seatName(p.seat)} played ${p.action}`;
    // The list is built once (build()); a step only moves the mark: rebuilding 900 rows on
    // every step took about 250 ms on a long Gunshi game.
    this.current?.classList.remove("current");
    this.current?.removeAttribute("aria-current");
    const cur = this.moveItems[this.ply - 1] || null;
    this.current = cur;
    if (cur) {
      cur.classList.add("current");
      cur.setAttribute("aria-current", "step");
      // Scrolled at the next frame, once however many steps came meanwhile: scrolling
      // at once would lay out the whole page on every step.
      if (!this.scrollPending) {
        this.scrollPending = true;
        requestAnimationFrame(() => {
          this.scrollPending = false;
          this.current?.scrollIntoView({ block: "nearest" });
        });
      }
    }
    this.playButton.textContent = this.timer ? "❚❚ Pause" : "▶ Play";
    this.playButton.setAttribute("aria-pressed", this.timer ? "true" : "false");
  }

  /** The move list, once per load: one item per ply after the start. */
  buildMoves() {
    clear(this.moves);
    this.moveItems = this.plies.slice(1).map((q) =>
      el(
        "li",
        { "data-ply": q.ply },
        el("span.ply", {}, `${q.ply}.`),
        el("span.mover", {}, this.renderer.seatName(q.seat)),
        el("span.notation", {}, q.action),
      ),
    );
    this.moves.append(...this.moveItems);
    this.current = null;
  }

  /** Autoplay: a move every ``this.speed`` ms until the end (or a pause). */
  toggleAutoplay() {
    if (this.timer) this.stopAutoplay();
    else {
      if (this.ply >= this.plies.length - 1) this.go(0);
      this.timer = setInterval(() => {
        if (this.ply >= this.plies.length - 1) this.stopAutoplay();
        else this.go(this.ply + 1);
      }, this.speed);
    }
    this.render();
  }

  stopAutoplay() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.playButton) this.render();
  }

  /** The game in its notation as text: a header, then the moves (numbered pairs for two
   * players, one numbered line per decision with its seat for more). */
  textRecord() {
    const r = this.renderer;
    const rec = this.record;
    const players = (rec.players || []).map((n, i) => `${r.seatName(i)}${n ? ` (${n})` : ""}`);
    const lines = [
      `Game: ${r.title} (${rec.game}, rules version ${rec.version})`,
      `Players: ${players.join(" vs ")}`,
      `Options: ${Object.entries(rec.options || {}).map(([k, v]) => `${k}=${v}`).join(", ") || "defaults"}`,
      `Seed: ${rec.seed}`,
      `Result: ${this.result ? resultInWords(this.result, (s) => players[s] || r.seatName(s)) : "unfinished"}`,
      "",
    ];
    const moves = this.plies.slice(1);
    const two = players.length === 2;
    // Two players who strictly alternate: numbered pairs, as chess and shogi write them.
    const alternate = two && moves.every((q, i) => i === 0 || q.seat !== moves[i - 1].seat);
    if (alternate) {
      for (let i = 0; i < moves.length; i += 2) {
        const pair = moves.slice(i, i + 2).map((q) => q.action);
        lines.push(`${i / 2 + 1}. ${pair.join("  ")}`);
      }
    } else {
      for (const q of moves) lines.push(`${q.ply}. ${r.seatName(q.seat)}: ${q.action}`);
    }
    return `${lines.join("\n")}\n`;
  }

  exportText() {
    const blob = new Blob([this.textRecord()], { type: "text/plain;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: `${this.record.game}-${this.id}.txt` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
