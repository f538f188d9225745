// The analysis board (issue 38): any position of any game, moves played freely for every
// side (the server checks each), the engine's winning chances and its top 3 moves, and the
// line kept as a variation tree.
//
// Stateless on the server (docs/api.md, "Analysis board"): the page holds where the board
// starts (`this.start`: a setup, a finished match or record at ply 0, a FEN) and the tree;
// each step posts the line from the start to the current node to /api/board/position, then
// to /api/board/evaluate. URLs: /board/<game>?<option>=<value>&seed=N (a fresh setup),
// /board/<game>?match=<id>&ply=k (a finished game, its moves as the main line, at ply k),
// /board/<game>?fen=<FEN or Gunshi position string>.

import { api } from "./api.js";
import { el, clear, toast, download, keepActionFocus, choiceWords } from "./ui.js";
import { rendererFor } from "./games/index.js";
import { prefs } from "./nav.js";
import { resultInWords } from "./words.js";
import { _, fmt, ngettext } from "./i18n.js";

export async function boardPage(root, game) {
  const page = new BoardPage(root, game);
  await page.start();
  return page;
}

/** A query value as JSON when it reads as a number or a boolean (options are typed). */
function optionValue(text) {
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

class BoardPage {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.seat = null; // null: the seat to act at each position
    this.flipped = false;
    this.asked = 0; // the number of the last request, so late answers are dropped
  }

  async start() {
    this.renderer = await rendererFor(this.game);
    const q = new URLSearchParams(location.search);
    const options = {};
    for (const [key, value] of q) if (!["match", "ply", "fen", "seed", "seat"].includes(key)) options[key] = optionValue(value);
    let mainLine = [];
    let at = 0;
    if (q.get("match")) {
      try {
        const record = await api("GET", `/api/records/${encodeURIComponent(q.get("match"))}`);
        mainLine = record.actions || [];
      } catch (err) {
        clear(this.root).append(el("div.card.error-card", {}, el("h2", {}, _("No analysis board")), el("p", {}, err.message)));
        return;
      }
      this.start = { game: this.game, from: { match_id: q.get("match"), ply: 0 } };
      at = Math.min(Number(q.get("ply") ?? mainLine.length) || 0, mainLine.length);
    } else if (q.get("fen")) {
      this.start = { game: this.game, options, from: { fen: q.get("fen") } };
    } else {
      this.start = { game: this.game, options, seed: Number(q.get("seed") || 0), from: { setup: true } };
    }
    this.build();
    this.resetTree(mainLine);
    this.onKey = (e) => {
      if (e.target.closest?.("input, textarea, select")) return;
      if (e.key === "ArrowLeft") this.back();
      else if (e.key === "ArrowRight") this.forward();
      else if (e.key === "f" && !e.ctrlKey && !e.metaKey && !e.altKey) this.flip();
    };
    document.addEventListener("keydown", this.onKey);
    this.onPrefs = () => this.draw();
    window.addEventListener("sengoku:prefs", this.onPrefs);
    await this.goto(this.nodeAtPly(at));
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("sengoku:prefs", this.onPrefs);
  }

  // -- the variation tree: nodes {id, action, parent, children}; node 0 is the start ------
  resetTree(mainLine) {
    this.nodes = [{ id: 0, action: null, parent: null, children: [] }];
    let node = this.nodes[0];
    for (const action of mainLine) node = this.addChild(node, action);
    this.current = this.nodes[0];
  }

  addChild(node, action) {
    const child = { id: this.nodes.length, action, parent: node, children: [] };
    this.nodes.push(child);
    node.children.push(child);
    return child;
  }

  nodeAtPly(ply) {
    let node = this.nodes[0];
    for (let i = 0; i < ply && node.children.length; i++) node = node.children[0];
    return node;
  }

  line(node) {
    const out = [];
    for (let n = node; n.parent; n = n.parent) out.push(n.action);
    return out.reverse();
  }

  /** Play ``action`` (canonical notation) from the current node: the existing child, or a
   * new one (a new variation when the node has a continuation already). */
  play(action) {
    const known = this.current.children.find((c) => c.action === action);
    return this.goto(known || this.addChild(this.current, action));
  }

  back() {
    if (this.current.parent) this.goto(this.current.parent);
  }

  forward() {
    if (this.current.children.length) this.goto(this.current.children[0]);
  }

  flip() {
    this.flipped = !this.flipped;
    this.draw();
  }

  // -- the page ---------------------------------------------------------------------------
  build() {
    const r = this.renderer;
    const btn = (id, label, title, fn) => el("button.secondary", { type: "button", id, title, "aria-label": title, onclick: fn }, label);
    this.els = {
      board: el("div.board-area"),
      dock: el("div.dock", { id: "dock" }),
      status: el("div.status", { id: "status", role: "status", "aria-live": "polite" }),
      chances: el("div.board-chances", { id: "board-eval" }, "Engine: —"),
      top: el("ol.board-top", { id: "board-top", "aria-label": _("The engine's top moves") }),
      tree: el("div.board-tree", { id: "board-tree", "aria-label": _("Moves and variations") }),
      seat: el("select", { id: "board-seat", "aria-label": _("Show the board as") }),
      importText: el("textarea", { id: "board-import-text", rows: 3, "aria-label": _("A record (JSON) or a FEN"), placeholder: _("Paste a record (JSON), a Gungi FEN or a Gunshi position string") }),
    };
    this.els.seat.addEventListener("change", () => {
      this.seat = this.els.seat.value === "" ? null : Number(this.els.seat.value);
      this.goto(this.current);
    });
    this.els.tree.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-node]");
      if (b) this.goto(this.nodes[Number(b.dataset.node)]);
    });
    this.els.top.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-action]");
      if (b) this.play(b.dataset.action);
    });
    clear(this.root).append(
      el(
        "div.match.table.board-page",
        {},
        el("div.match-head", {}, el("h1.match-title", {}, el("span.game-kanji", {}, r.kanji || ""), fmt(_(" {title} — analysis board"), { title: r.title }))),
        el("div.board-shell", {}, this.els.board),
        el("div.card.status-card", {}, this.els.status, this.els.chances, this.els.top),
        this.els.dock,
        el(
          "div.card.controls-card",
          {},
          el("div.replay-controls", {}, btn("board-start", "|◀", _("The start"), () => this.goto(this.nodes[0])), btn("board-back", "◀", _("Back one move"), () => this.back()), btn("board-forward", "▶", _("Forward one move"), () => this.forward())),
          el("div.field", { id: "board-seat-field" }, el("label", { for: "board-seat" }, _("Show as")), this.els.seat),
          el("div.controls", {}, btn("board-flip", _("Flip board"), _("Flip board"), () => this.flip()), btn("board-export", _("Export line (JSON)"), _("Export the current line as a record"), () => this.exportLine())),
        ),
        el("div.side-rest", {}, el("div.card.moves-card", {}, el("h2", {}, _("Moves")), this.els.tree), el("details.card.board-import", {}, el("summary", { id: "board-import-open" }, _("Import a record or a FEN")), el("form", { onsubmit: (e) => this.importText(e) }, this.els.importText, el("button.secondary", { type: "submit", id: "board-import" }, _("Open on the board"))))),
      ),
    );
    this.board = r.create(this.els.board, { dock: this.els.dock });
  }

  async goto(node) {
    this.current = node;
    const ask = ++this.asked;
    const body = { ...this.start, actions: this.line(node), seat: this.seat };
    let pos;
    try {
      pos = await api("POST", "/api/board/position", { body });
    } catch (err) {
      if (ask !== this.asked) return;
      toast(err.message, "error");
      // A move the server refused leaves the tree as it was.
      if (node.parent && !node.children.length && err.code === "illegal_action") {
        node.parent.children = node.parent.children.filter((c) => c !== node);
        this.goto(node.parent);
      }
      return;
    }
    if (ask !== this.asked) return;
    this.pos = pos;
    this.evaluation = null;
    this.fillSeats();
    this.draw();
    this.evaluate(ask, body);
  }

  async evaluate(ask, body) {
    const pos = this.pos;
    if (pos.result || pos.hidden || !pos.legal.length) return;
    this.els.chances.textContent = _("Engine: thinking…");
    this.els.chances.dataset.state = "thinking";
    try {
      const out = await api("POST", "/api/board/evaluate", { body });
      if (ask !== this.asked) return;
      this.evaluation = out;
    } catch (err) {
      if (ask !== this.asked) return;
      this.evaluation = { error: err.message };
    }
    this.drawEngine();
  }

  fillSeats() {
    const pos = this.pos;
    const field = document.getElementById("board-seat-field");
    // Every seat sees everything in a game of perfect information: nothing to choose.
    if (field) field.hidden = pos.perfect_information;
    if (this.els.seat.options.length === pos.num_players + 1) return;
    clear(this.els.seat).append(
      el("option", { value: "", selected: this.seat === null }, _("The seat to act")),
      ...Array.from({ length: pos.num_players }, (_, i) => el("option", { value: i, selected: this.seat === i }, this.renderer.seatName(i))),
    );
  }

  draw() {
    const pos = this.pos;
    if (!pos) return;
    const r = this.renderer;
    const interactive = pos.legal.length > 0;
    keepActionFocus([this.els.board, this.els.dock], () =>
      this.board.update({
        view: pos.view,
        legal: pos.legal,
        seat: interactive ? pos.to_act : pos.seat,
        interactive,
        lastAction: pos.actions[pos.actions.length - 1] || null,
        lastMove: pos.last,
        labels: prefs.labels,
        flipped: this.flipped,
        send: (action) => this.play(action),
      }),
    );
    this.els.board.dataset.interactive = interactive;
    const status = this.els.status;
    status.dataset.ply = pos.root.ply + pos.ply;
    status.dataset.node = this.current.id;
    if (pos.result) status.textContent = fmt(_("Game over: {resultInWords}"), { resultInWords: resultInWords(pos.result, (s) => r.seatName(s)) });
    else if (pos.hidden) status.textContent = fmt(_("{seatName} to move (hidden from {seatName2})"), { seatName: r.seatName(pos.to_act), seatName2: r.seatName(pos.seat) });
    else status.textContent = fmt(_("{seatName} to move"), { seatName: r.seatName(pos.to_act) });
    this.drawTree();
    this.drawEngine();
  }

  drawEngine() {
    const pos = this.pos;
    const r = this.renderer;
    const out = this.evaluation;
    const box = this.els.chances;
    clear(this.els.top);
    delete box.dataset.state;
    if (!pos || pos.result) {
      box.textContent = _("Engine: the game is over");
      return;
    }
    if (pos.hidden) {
      box.textContent = fmt(_("Engine: {seatName}'s choices are hidden from this seat"), { seatName: r.seatName(pos.to_act) });
      return;
    }
    if (!out) {
      box.textContent = _("Engine: thinking…");
      box.dataset.state = "thinking";
      return;
    }
    if (out.error) {
      box.textContent = fmt(_("Engine: {error}"), { error: out.error });
      return;
    }
    box.dataset.state = "done";
    box.dataset.ply = out.ply;
    box.textContent = fmt(_("Engine: {seatName} wins {round}% ({iterations} iterations)"), { seatName: r.seatName(out.to_act), round: Math.round(out.chances * 100), iterations: out.iterations });
    // the moves in the page's language where the renderer words them (describeChoice)
    const describe = r.describeChoice?.bind(r);
    const words = new Map(pos.legal.map((l) => [l.action, choiceWords(l, describe).label]));
    for (const row of out.top) {
      this.els.top.append(
        el(
          "li",
          {},
          el("button.secondary.board-top-move", { type: "button", "data-action": row.action, title: fmt(_("Play {action}"), { action: row.action }) }, words.get(row.action) || row.action),
          el("span.board-top-value", {}, " " + fmt(ngettext("{pct}% · {n} visit", "{pct}% · {n} visits", row.visits), { pct: Math.round(row.value * 100), n: row.visits })),
        ),
      );
    }
  }

  /** The tree as nested lists: each line follows first children; the other children of a
   * node are variations, listed under the move they replace. */
  drawTree() {
    const lineList = (node, depth) => {
      const list = el(depth ? "ol.board-variation" : "ol.board-line", {});
      for (let n = node; n; n = n.children[0]) {
        const current = n === this.current;
        list.append(
          el(
            "li",
            {},
            el(`button.board-node${current ? ".current" : ""}`, { type: "button", "data-node": n.id, "aria-current": current ? "step" : null }, n.action),
          ),
        );
        const parent = n.parent;
        if (parent && parent.children[0] === n && parent.children.length > 1) {
          for (const alt of parent.children.slice(1)) list.append(el("li.board-branch", {}, lineList(alt, depth + 1)));
        }
      }
      return list;
    };
    clear(this.els.tree);
    const startCurrent = this.current === this.nodes[0];
    this.els.tree.append(el(`button.board-node.board-root${startCurrent ? ".current" : ""}`, { type: "button", "data-node": 0, "aria-current": startCurrent ? "step" : null }, _("Start")));
    if (this.nodes[0].children.length) this.els.tree.append(lineList(this.nodes[0].children[0], 0));
    for (const alt of this.nodes[0].children.slice(1)) this.els.tree.append(lineList(alt, 1));
  }

  exportLine() {
    const out = this.pos?.export;
    if (!out) return;
    if (out.kind === "record") download(`${this.game}-board.json`, out.record);
    else download(`${this.game}-study.json`, out.study);
  }

  /** Open a record (its moves become the main line, from its start), a study file of this
   * board, or a FEN / position string. */
  async importText(e) {
    e.preventDefault();
    const text = this.els.importText.value.trim();
    if (!text) return;
    let data = null;
    try {
      data = JSON.parse(text);
    } catch (err) {
      data = null;
    }
    if (data && typeof data === "object" && data.game && data.game !== this.game) {
      toast(fmt(_("This is a {game} record: open the {game} board for it"), { game: data.game }), "error");
      return;
    }
    if (data && typeof data === "object" && data.fen && Array.isArray(data.actions)) {
      this.start = { game: data.game || this.game, options: data.options || {}, from: { fen: data.fen } };
      this.resetTree(data.actions);
    } else if (data && typeof data === "object" && Array.isArray(data.actions)) {
      const { id, status, left, ...record } = data;
      // The board starts at the record's first position; its moves are the main line (its
      // concessions and result are the line's to reach again, or not).
      this.start = { game: record.game || this.game, from: { record: { ...record, actions: [], concessions: [], result: null } } };
      this.resetTree(record.actions);
    } else {
      this.start = { game: this.game, options: this.start.options || {}, from: { fen: text } };
      this.resetTree([]);
    }
    await this.goto(this.nodes[0]);
  }
}
