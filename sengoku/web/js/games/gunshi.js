// Gunshi: the 7x7 field with each unit's letter, type, facing and Shield, Fences on edges,
// both Invader Spots beside the field, and each side's cards (Command Row, Lightning position,
// hand, deck) drawn as cards with their names and texts, the opponent's hidden ones as backs.
//
// Play is by clicks on the things themselves: a unit, then where it goes (a cell or an arrow),
// which way it faces, or whom it hits; a card, then (the row being its only place) it is sent;
// an edge for a Fence. Every click plays one of the server's described choices (its `kind`
// and objects: `from`, `to`, `unit`, `card`, `edge`, `facing`, `direction`, ...): notation is
// never parsed here. A choice with no object on screen is a button, so every choice is clickable.

import { el, svg, clear, keepActionFocus } from "../ui.js";
import { api } from "../api.js";
import { _, fmt, language, N_, ngettext } from "../i18n.js";

const SIDES = [
  { name: _("Red"), color: "#b3372a", light: "#f6d9d2", mark: "▲" },
  { name: _("Blue"), color: "#2f5d8a", light: "#d5e2f0", mark: "▼" },
];
// The marks that are words on the table, in kanji and in short English (the header's toggle):
// the Shogun's mark and a Command card's back ("Command cards" in the rulebook).
const MARKS = {
  shogun: { kanji: "将", english: _("Shogun") },
  back: { kanji: "軍", english: _("Cmd") },
};
// The page's label preference (the model's `labels`), kept by the board at each update: the
// card and icon helpers below are shared by every part of the drawing.
let LABELS = "kanji";
function english() {
  return LABELS === "english";
}
function markText(name) {
  return english() ? MARKS[name].english : MARKS[name].kanji;
}
// What each unit type is and does (docs/rules/gunshi.md, "Units").
const TYPES = {
  I: { name: _("Infantry"), kanji: "歩", short: _("Inf"), does: _("Steps one cell orthogonally and builds Fences. Carried on a Shield: a hit by anything but Cavalry only removes the Shield.") },
  A: { name: _("Archer"), kanji: "弓", short: _("Arc"), does: _("Steps one cell orthogonally and Shoots one enemy: two cells ahead, the forward diagonals or either side.") },
  C: { name: _("Cavalry"), kanji: "騎", short: _("Cav"), does: _("Charges forward any distance or steps one cell left or right, never back; may jump one of its own Infantry or Archers; removes a shielded Infantry outright.") },
};
const FACING = { n: _("north"), e: _("east"), s: _("south"), w: _("west") };
const DIRS = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };
const PHASES = {
  build: _("Deck construction"),
  prepare: _("Preparing Advanced cards"),
  mod3: _("Choosing Advanced cards"),
  formation: _("Phase 1: Formation"),
  secret: _("Phase 2: Shogun and card order"),
  battle: _("Phase 3: Battle"),
};
const STEPS = {
  shogun: _("choosing the Shogun"),
  hand: _("choosing the starting hand"),
  deck: _("ordering the deck"),
  send: _("sending new Commands"),
  command: _("carrying out a Command"),
  take: _("taking an Advanced card"),
  remove: _("removing a card from the game"),
};
// The Command in progress: what its step waits on, in words.
const COMMAND_STEPS = {
  mode: _("which of the card's Commands to use"),
  unit: _("which unit carries the Command out"),
  dir: _("the direction of the move"),
  rapid: _("whether to move or reorient first"),
  rface: _("the new facing"),
  chain: _("which adjacent units join the chain"),
  to: _("where the unit goes"),
  invade: _("whether to invade"),
  face: _("the new facing"),
  hit: _("the enemy to attack"),
  fence: _("the edge for the Fence"),
  piece: _("the unit to bring from the Reserve"),
  at: _("the cell where it enters"),
  look: _("which card to look at"),
  ask: _("which enemy to ask about"),
  swap: _("which unit to switch with"),
};

const S = 100; // one cell
const M = 30; // margin for the coordinates
const SP = 46; // the Invader Spot strips above and below the field
const W = 7 * S + 2 * M;
const H = 7 * S + 2 * M + 2 * SP;
const COLS = "abcdefg";

// Card names and texts come from the game's data files, served with the game (catalog) in
// the page's language (the texts domain, docs/i18n-texts.md).
let catalogPromise = null;
let CARDS = null;
function loadCatalog(redraw) {
  if (CARDS) return; // loaded: the drawing in progress has every name
  if (!catalogPromise) {
    catalogPromise = api("GET", `/api/games/gunshi?lang=${encodeURIComponent(language())}`)
      .then((info) => {
        CARDS = Object.fromEntries((info.catalog?.cards || []).map((c) => [c.id, c]));
      })
      .catch(() => {
        catalogPromise = null; // tried again on the next drawing
      });
  }
  catalogPromise.then(() => CARDS && redraw());
}

function cardInfo(code) {
  return CARDS?.[code] || { id: code, name: code, text: "", set: "", cost: 0 };
}

function cellXY(name, flipped) {
  let x = COLS.indexOf(name[0]);
  let y = 7 - Number(name.slice(1)); // row 7 (Blue's back row) at the top
  if (flipped) {
    x = 6 - x;
    y = 6 - y;
  }
  return [M + x * S, SP + M + y * S];
}

/** The segment of an edge (``c3n``: the north edge of c3, ``c3e``: its east edge). */
function edgeLine(edge, flipped, inset = 6) {
  const cell = edge.slice(0, -1);
  const side = edge.slice(-1);
  const [x, y] = cellXY(cell, flipped);
  if (side === "n") {
    const yy = flipped ? y + S : y;
    return { x1: x + inset, y1: yy, x2: x + S - inset, y2: yy };
  }
  const xx = flipped ? x : x + S;
  return { x1: xx, y1: y + inset, x2: xx, y2: y + S - inset };
}

function screenDir(d, flipped) {
  const [dx, dy] = DIRS[d] || [0, -1];
  return flipped ? [-dx, -dy] : [dx, dy];
}

function unitName(u) {
  return `${TYPES[u.type]?.name || u.type} ${u.letter}`;
}

/** A token's type from its letter (Infantry A-J, Cavalry K-P, Archers Q-X). */
function letterUnit(letter) {
  const type = letter < "K" ? "I" : letter < "Q" ? "C" : "A";
  return unitName({ type, letter });
}

/** The choices whose words are fixed, by kind (the engine's own plain labels). */
const PLAIN_CHOICES = {
  done: N_("Done"),
  invade: N_("Invade"),
  stay: N_("Stay"),
  end: N_("End turn"),
  lightning: N_("Lightning Command"),
};
const MODE_CHOICES = {
  reorient: N_("Reorient"),
  shoot: N_("Shoot"),
  crossbow: N_("Crossbow"),
  commands: N_("Scout Commands"),
  shogun: N_("Scout the Shogun"),
};
const PLACED = { I: _("Infantry unit"), A: _("Archer unit"), C: _("Cavalry unit"), F: _("Fence") };

/** A choice's words in the page's language, from its kind and data (the engine's label is
 * English); null keeps the engine's label. */
function choiceWords(l) {
  const arg = l.action.split(" ").slice(1).join(" ");
  const card = l.card ? cardInfo(l.card).name : null;
  const who = (cell) => (l.unit ? fmt(_("{unit} on {cell}"), { unit: letterUnit(l.unit), cell }) : fmt(_("the unit on {cell}"), { cell }));
  if (PLAIN_CHOICES[l.kind]) return _(PLAIN_CHOICES[l.kind]);
  if (l.kind === "mode" && MODE_CHOICES[l.mode]) return _(MODE_CHOICES[l.mode]);
  if (card && l.kind === "pick") return fmt(_("Pick {card}"), { card });
  if (card && l.kind === "hand") return fmt(_("{card} to hand"), { card });
  if (card && l.kind === "deck") return fmt(_("{card} next in deck"), { card });
  if (card && l.kind === "send") return fmt(_("Send {card}"), { card });
  if (card && l.kind === "take") return fmt(_("Take {card}"), { card });
  if (card && l.kind === "remove") return fmt(_("Remove {card}"), { card });
  if (l.kind === "shogun" && l.unit) return fmt(_("Shogun: {unit}"), { unit: letterUnit(l.unit) });
  if (l.kind === "place" && PLACED[l.piece]) return fmt(_("Place {piece}"), { piece: PLACED[l.piece] });
  if (l.kind === "at" && l.to) return fmt(_("Place on {cell}"), { cell: l.to });
  if (l.kind === "face" && FACING[l.facing]) return fmt(_("Face {direction}"), { direction: FACING[l.facing] });
  if (l.kind === "dir" && FACING[l.direction]) return fmt(_("Go {direction}"), { direction: FACING[l.direction] });
  if (l.kind === "fence" && l.edge) return fmt(l.edge.endsWith("n") ? _("Fence north of {cell}") : _("Fence east of {cell}"), { cell: l.edge.slice(0, -1) });
  if (l.kind === "to" && l.to) return fmt(_("Move to {cell}"), { cell: l.to });
  if (l.kind === "unit" && l.from) return fmt(_("Command {unit}"), { unit: who(l.from) });
  if (l.kind === "chain" && l.from) return fmt(_("Chain {unit}"), { unit: who(l.from) });
  if (l.kind === "hit" && l.to) return fmt(_("Hit {unit}"), { unit: who(l.to) });
  if (l.kind === "swap" && l.to) return fmt(_("Switch with {unit}"), { unit: who(l.to) });
  if (l.kind === "ask" && l.to) return fmt(_("Ask about {unit}"), { unit: who(l.to) });
  if (l.kind === "blind" && arg) return fmt(_("Face-down card {n}"), { n: arg });
  if (l.kind === "look" && l.position) return l.position === "L" ? _("Look at the Lightning Command") : fmt(_("Look at position {n}"), { n: l.position });
  return null;
}

/** A choice's description for a title or an aria-label: the engine's sentence in English,
 * else the choice's words in the page's language (the engine describes in English). */
function choiceText(l) {
  if (language() === "en") return l.text;
  return choiceWords(l) || l.text;
}


/** A Command card, face up (name, cost, text) or as a back. ``onclick`` makes it a button. */
function cardFace(code, owner, { action = null, onclick = null, badge = null, small = false, lit = false, down = false, mini = false } = {}) {
  const side = SIDES[owner] || SIDES[0];
  const tag = onclick ? "button" : "div";
  if (code === null || code === undefined) {
    return el(
      `${tag}.gs-card.back${small ? ".small" : ""}${mini ? ".mini" : ""}`,
      { title: fmt(_("A face-down {name} Command card: its owner alone knows it"), { name: side.name }), "aria-label": fmt(_("{name} Command card, face down"), { name: side.name }), "data-side": owner, style: `--side:${side.color}`, ...(onclick ? { type: "button", onclick } : {}) },
      badge ? el("span.gs-badge", {}, badge) : null,
      el(`span.gs-back-mark${english() ? ".en" : ""}`, {}, markText("back")),
      // The side's mark as well as its colour: Red ▲, Blue ▼.
      el("span.gs-back-side", { "aria-hidden": "true" }, side.mark),
    );
  }
  const c = cardInfo(code);
  const advanced = c.set && c.set !== "basic";
  return el(
    `${tag}.gs-card${small ? ".small" : ""}${onclick ? ".playable" : ""}${lit ? ".lit" : ""}${down ? ".down" : ""}`,
    {
      title: [c.name + (c.cost ? fmt(_(" (costs {cost})"), { cost: c.cost }) : ""), c.chainable ? _("chainable") : "", down ? _("lying face down") : ""].filter(Boolean).join(", ") + ": " + c.text,
      "data-card": code,
      "data-side": owner,
      style: `--side:${side.color}`,
      ...(action ? { "data-action": action.action, "data-kind": action.kind } : {}),
      ...(onclick ? { type: "button", onclick, "aria-label": action ? choiceText(action) : c.name } : {}),
    },
    badge ? el("span.gs-badge", {}, badge) : null,
    el("span.gs-card-name", {}, c.name),
    el("span.gs-card-meta", {}, [down ? _("face down") : advanced ? _("Advanced") : _("Basic"), c.cost ? fmt(_("cost {cost}"), { cost: c.cost }) : "", c.chainable ? _("chain") : ""].filter(Boolean).join(" · ")),
    small ? null : el("span.gs-card-text", {}, c.text),
  );
}

export default {
  name: "gunshi",
  kanji: "軍師",
  title: _("Gunshi"),
  stylesheet: true,
  notationHint: _("Type a move, e.g. at d3"),
  // The field draws its own prompt beside the cards (#gs-prompt): the page shows no second.
  drawsPrompt: true,
  tagline: _("Tactics on a 7x7 field: units with facing, shields and fences, commanded by cards."),
  howTo: [
    _("Each side fields Infantry, Archers and Cavalry on a 7x7 field; a unit's facing decides where it can move and shoot, and an Infantry's Shield saves it from one hit."),
    _("Fences on the edges between cells block enemy movement. Command cards go into your Command Row and are carried out turns later; your opponent sees only the backs of the face-down ones."),
    _("Win by removing the enemy's secret Shogun, or by bringing 3 units onto the enemy's Invader Spot."),
    _("Click a unit, then where it goes, which way it faces or whom it hits; click a card to send it; click an edge to build a Fence."),
  ],
  seatName(seat) {
    return SIDES[seat]?.name || fmt(_("Seat {x}"), { x: seat + 1 });
  },
  seatIcon(seat) {
    return el("span.seat-shape", { style: `color:${SIDES[seat % 2].color}` }, SIDES[seat % 2].mark);
  },
  defaultFlip(seat) {
    return seat === 1;
  },
  statusNote(view) {
    if (!view) return "";
    if (view.outcome) return endNote(view);
    const parts = [PHASES[view.phase] || view.phase];
    if (view.phase === "battle" && view.turn) parts[0] = fmt(_("{phase}, turn {turn}"), { phase: parts[0], turn: view.turn });
    const cmd = view.command;
    if (cmd?.card) parts.push(`${cardInfo(cmd.card).name}: ${COMMAND_STEPS[cmd.step] || cmd.step}`);
    else if (view.step && STEPS[view.step]) parts.push(STEPS[view.step]);
    return parts.filter(Boolean).join(" — ");
  },
  create(root) {
    return new GunshiBoard(root);
  },
};

class GunshiBoard {
  constructor(root) {
    this.root = root;
    this.model = null;
    this.prev = null; // the last view drawn at another ply: what changed since is the last move
    this.last = null;
    this.chooserCell = null;
    this.info = ""; // what a tapped unit or card is and does (phones have no hover)
    clear(root);
    root.classList.add("gunshi");
    root.addEventListener("click", (event) => {
      const card = event.target.closest?.(".gs-card");
      if (card && !card.classList.contains("playable")) {
        this.info = card.getAttribute("title") || "";
        this.draw();
      }
    });
  }

  update(model) {
    const view = model.view;
    if (this.prev && view && view.ply > this.prev.ply) {
      // Forward: what changed is the last move (a step with nothing on the field keeps it).
      const changes = diffViews(this.prev, view);
      if (changes.cells.size || changes.edges.size || changes.fallen.length) this.last = changes;
    } else if (this.prev && view && view.ply < this.prev.ply) {
      this.last = null; // a takeback, or a replay stepping back
    }
    if (!this.prev || this.prev.ply !== view?.ply) {
      this.chooserCell = null;
      this.info = "";
    }
    this.prev = view;
    this.model = model;
    LABELS = model.labels || "kanji";
    loadCatalog(() => this.model && this.draw());
    this.draw();
  }

  destroy() {
    clear(this.root);
  }

  draw() {
    const m = this.model;
    const v = m.view;
    if (!v) return;
    const legal = m.interactive ? m.legal : [];
    const me = m.seat === null || m.seat === undefined ? null : m.seat;
    const placed = new Set(); // the choices drawn on an object; the others become buttons
    const board = this.drawBoard(v, legal, placed);
    const bottomSeat = m.flipped ? 1 : 0;
    const top = this.drawSide(v, 1 - bottomSeat, legal, placed, me);
    const bottom = this.drawSide(v, bottomSeat, legal, placed, me);
    const offer = this.drawOffer(v, legal, placed, me);
    const choices = this.drawChoices(legal, placed);
    const prompt = el(
      "div.gs-ask",
      {},
      m.interactive ? el("div.prompt.gs-prompt", { id: "gs-prompt" }, promptText(v, legal)) : el("div.gs-prompt.waiting", {}, waitingText(v, me)),
      this.info ? el("div.gs-info", { role: "status" }, this.info) : null,
    );
    // A redraw of its own (the card catalog arriving, a card tapped for its text) keeps the
    // focus on the same choice, as a snapshot's does.
    keepActionFocus([this.root], () =>
      clear(this.root).append(
        // One grid: its areas put the field first on a phone, and beside the cards when wide.
        el("div.gs-layout", {}, el("div.board-wrap.gs-board-wrap", {}, board), top, this.drawOrders(v), prompt, offer, choices, bottom),
      ),
    );
    this.markBestCard();
  }

  // -- the field ---------------------------------------------------------------------------

  drawBoard(v, legal, placed) {
    const flipped = this.model.flipped;
    const me = this.model.seat;
    const board = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "board gunshi-board", role: "group", "aria-label": _("Gunshi field") });
    board.append(svg("rect", { x: 0, y: 0, width: W, height: H, rx: 16, class: "frame" }));
    const centreOnly = v.options?.invasion_zone === "centre_three";
    for (let r = 1; r <= 7; r++) {
      for (let c = 0; c < 7; c++) {
        const name = `${COLS[c]}${r}`;
        const [x, y] = cellXY(name, flipped);
        // The back lines are the Invasion Zones (the whole line, or its 3 centre cells).
        const zone = (r === 1 || r === 7) && (!centreOnly || (c >= 2 && c <= 4));
        const home = r <= 2 || (r === 3 && c >= 2 && c <= 4) ? "home-red" : r >= 6 || (r === 5 && c >= 2 && c <= 4) ? "home-blue" : (r + c) % 2 ? "field-a" : "field-b";
        board.append(svg("rect", { x, y, width: S, height: S, class: `gcell ${home}${zone ? " zone" : ""}`, "data-cell": name }));
      }
    }
    for (let i = 0; i < 7; i++) {
      const col = flipped ? COLS[6 - i] : COLS[i];
      const row = flipped ? i + 1 : 7 - i;
      board.append(svg("text", { x: M + i * S + S / 2, y: SP + M - 8, "text-anchor": "middle", class: "coord" }, col));
      board.append(svg("text", { x: M / 2, y: SP + M + i * S + S / 2 + 7, "text-anchor": "middle", class: "coord" }, row));
    }
    // The Invader Spots lie beside each back line: Red's invaders go beside Blue's (row 7).
    for (const seat of [0, 1]) {
      const atTop = (seat === 0) !== flipped;
      const y = atTop ? 6 : H - SP + 2;
      const n = v.players?.[seat]?.invaders ?? 0;
      const owner = SIDES[1 - seat].name;
      const g = svg("g", { class: "gs-spot", "data-spot": seat });
      g.append(svg("rect", { x: M, y, width: 7 * S, height: SP - 8, rx: 10, class: "gs-spot-box", stroke: SIDES[seat].color }));
      g.append(svg("text", { x: M + 16, y: y + SP / 2 + 2, class: "gs-spot-text" }, fmt(_("{owner}'s Invader Spot: {x} invaders {n} of 3"), { owner, x: SIDES[seat].name, n })));
      for (let i = 0; i < 3; i++) {
        g.append(svg("circle", { cx: M + 7 * S - 30 - i * 34, cy: y + (SP - 8) / 2, r: 12, class: "gs-pip", fill: i < n ? SIDES[seat].color : "none", stroke: SIDES[seat].color }));
      }
      g.append(svg("title", {}, fmt(_("{owner}'s Invader Spot, beside {owner}'s back line: {x} wins with 3 units here (a shielded Infantry counts as 2)."), { owner, x: SIDES[seat].name })));
      board.append(g);
    }
    // The last move: cells whose unit came, went, turned or lost its Shield, and new Fences.
    const last = this.last;
    if (last) {
      for (const cell of last.cells) {
        const [x, y] = cellXY(cell, flipped);
        board.append(svg("rect", { x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 8, class: "gs-last", "data-last": cell }));
      }
    }
    for (const f of v.fences || []) {
      const line = edgeLine(f.edge, flipped);
      const fresh = last?.edges.has(f.edge);
      if (fresh) board.append(svg("line", { ...line, class: "gs-last-edge", "data-last": f.edge.slice(0, -1) }));
      // Red's Fences are solid bars, Blue's are dashed: told apart without their colours.
      board.append(svg("line", { ...line, class: `fence side-${f.owner}`, stroke: SIDES[f.owner].color, "data-edge": f.edge, "data-owner": f.owner }, svg("title", {}, fmt(_("{x} Fence: blocks enemy moves and straight shots across it"), { x: SIDES[f.owner].name }))));
    }
    // Units removed by the last move: a cross where they stood, under whoever stands there now.
    for (const f of last?.fallen || []) {
      const [x, y] = cellXY(f.cell, flipped);
      const g = svg("g", { class: f.invaded ? "gs-fallen invaded" : "gs-fallen", "data-fallen": f.cell });
      if (f.invaded) {
        // An invader left from here for the Invader Spot: an arrow off the field.
        const [dx, dy] = screenDir(f.owner === 0 ? "n" : "s", flipped);
        const cx = x + S / 2;
        const cy = y + S / 2;
        g.append(svg("line", { x1: cx - dx * 30, y1: cy - dy * 30, x2: cx + dx * 30, y2: cy + dy * 30 }));
        g.append(svg("polyline", { points: `${cx + dx * 30 - dy * 16 - dx * 16},${cy + dy * 30 + dx * 16 - dy * 16} ${cx + dx * 30},${cy + dy * 30} ${cx + dx * 30 + dy * 16 - dx * 16},${cy + dy * 30 - dx * 16 - dy * 16}` }));
        g.append(svg("title", {}, fmt(_("{x} {unitName} invaded the Invader Spot from here"), { x: SIDES[f.owner].name, unitName: unitName(f) })));
      } else {
        g.append(svg("line", { x1: x + 10, y1: y + 10, x2: x + S - 10, y2: y + S - 10 }), svg("line", { x1: x + S - 10, y1: y + 10, x2: x + 10, y2: y + S - 10 }));
        g.append(svg("title", {}, fmt(_("{x} {unitName} was removed here"), { x: SIDES[f.owner].name, unitName: unitName(f) })));
      }
      board.append(g);
    }
    const mine = me !== null && me !== undefined ? v.players?.[me]?.shogun : null;
    const revealed = (v.players || []).map((p) => (p.shogun_revealed ? p.shogun : null));
    for (const u of v.units || []) {
      const shogun = (u.owner === me && u.letter === mine) || revealed[u.owner] === u.letter;
      board.append(this.drawUnit(u, shogun, u.owner === me && !revealed[u.owner]));
    }
    // A unit being placed (formation, Reinforce) is drawn faintly until it gets its facing.
    const ghost = this.ghost(v);
    if (ghost) board.append(this.drawUnit(ghost, false, false));
    // Cell choices: a unit to command, a destination, a target, a Shogun.
    const units = new Map((v.units || []).map((u) => [u.letter, u]));
    const byCell = new Map();
    for (const l of legal) {
      let cell = null;
      if (["unit", "chain"].includes(l.kind)) cell = l.from;
      else if (["to", "at", "hit", "swap", "ask"].includes(l.kind)) cell = l.to;
      else if (l.kind === "shogun") cell = units.get(l.unit)?.cell;
      if (!cell) continue;
      if (!byCell.has(cell)) byCell.set(cell, []);
      byCell.get(cell).push(l);
    }
    for (const [cell, list] of byCell) {
      const [x, y] = cellXY(cell, flipped);
      const attack = list.some((l) => l.kind === "hit") || (list.some((l) => l.kind === "to") && units.size && [...units.values()].some((u) => u.cell === cell && u.owner !== me));
      board.append(svg("rect", { x: x + 6, y: y + 6, width: S - 12, height: S - 12, rx: 10, class: `gtarget${attack ? " attack" : ""}`, "data-target": cell }));
      for (const l of list) placed.add(l.action);
    }
    this.drawBest(board, v, me);
    if (this.chooserCell) {
      const [x, y] = cellXY(this.chooserCell, flipped);
      board.append(svg("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 10, class: "gfocus" }));
    }
    // Click targets for the cells, drawn above everything but arrows and edges.
    for (let r = 1; r <= 7; r++) {
      for (let c = 0; c < 7; c++) {
        const name = `${COLS[c]}${r}`;
        const [x, y] = cellXY(name, flipped);
        const list = byCell.get(name) || [];
        const unit = (v.units || []).find((u) => u.cell === name);
        const one = list.length === 1 ? list[0] : null;
        board.append(
          svg(
            "rect",
            {
              x,
              y,
              width: S,
              height: S,
              class: `hit${list.length ? " choice" : ""}`,
              "data-sq": name,
              "data-action": one ? one.action : null,
              "data-kind": one ? one.kind : null,
              "aria-label": name + ": " + (unit ? fmt(_("{side} {unit}, facing {facing}"), { side: SIDES[unit.owner].name, unit: unitName(unit), facing: FACING[unit.facing] }) : _("empty")) + (one ? ". " + choiceText(one) : list.length ? _(". Several choices") : ""),
              onclick: () => this.clickCell(name, list),
              // keyboard.js: the field is one Tab stop, the arrows move over its cells (as the
              // player sees them) and Enter or Space clicks one.
              "data-pick": `sq:${name}`,
              "data-grid": "field",
              "data-row": Math.round((y - SP - M) / S),
              "data-col": Math.round((x - M) / S),
              "data-choice": list.length ? "" : null,
            },
            one ? svg("title", {}, choiceText(one)) : null,
          ),
        );
      }
    }
    this.drawArrows(board, v, legal, placed, units);
    this.drawEdges(board, legal, placed);
    if (last) last.shown = true;
    return board;
  }

  /** The unit placed on a cell and waiting for its facing (not yet in the view's units). */
  ghost(v) {
    const placing = v.phase === "formation" ? { cell: v.formation_cell, type: v.formation_piece } : { cell: v.command?.cell, type: v.command?.piece };
    if (!placing.cell || !TYPES[placing.type] || v.command?.step === "at") return null;
    if ((v.units || []).some((u) => u.cell === placing.cell)) return null;
    return { ...placing, letter: "", owner: v.to_act >= 0 ? v.to_act : 0, facing: v.to_act === 1 ? "s" : "n", shield: placing.type === "I", ghost: true };
  }

  drawUnit(u, shogun, secret) {
    const flipped = this.model.flipped;
    const [x, y] = cellXY(u.cell, flipped);
    const cx = x + S / 2;
    const cy = y + S / 2;
    const [dx, dy] = screenDir(u.facing, flipped);
    const side = SIDES[u.owner];
    const type = TYPES[u.type] || { name: u.type, kanji: u.type, short: u.type, does: "" };
    const g = svg("g", { class: `gunit${shogun ? " shogun" : ""}${u.ghost ? " ghost" : ""}`, "data-cell": u.cell, "data-owner": u.owner, "data-type": u.type, "data-facing": u.facing, "data-letter": u.letter, "data-shield": u.shield ? "yes" : "no" });
    const moved = this.last?.moved.get(u.letter);
    if (moved && moved !== u.cell) {
      g.dataset.from = moved;
    }
    // Slide in from where it was, once: a redraw of the same position does not replay it.
    if (moved && moved !== u.cell && !this.last.shown) {
      const [ox, oy] = cellXY(moved, flipped);
      g.classList.add("gs-arrived");
      g.style.setProperty("--from-x", `${ox - x}px`);
      g.style.setProperty("--from-y", `${oy - y}px`);
    }
    // Red units are round, Blue units square: sides differ by shape as well as colour.
    if (u.owner === 0) g.append(svg("circle", { cx, cy, r: 35, fill: side.light, stroke: side.color, "stroke-width": 5 }));
    else g.append(svg("rect", { x: cx - 33, y: cy - 33, width: 66, height: 66, rx: 9, fill: side.light, stroke: side.color, "stroke-width": 5 }));
    // The facing: a wedge on the front edge; a Shield is a thick bar across it.
    const px = -dy;
    const py = dx;
    const tip = [cx + dx * 47, cy + dy * 47];
    const b1 = [cx + dx * 33 + px * 14, cy + dy * 33 + py * 14];
    const b2 = [cx + dx * 33 - px * 14, cy + dy * 33 - py * 14];
    g.append(svg("polygon", { points: `${tip} ${b1} ${b2}`, fill: side.color, class: "gs-facing" }));
    if (u.shield) {
      g.append(svg("line", { x1: cx + dx * 41 + px * 27, y1: cy + dy * 41 + py * 27, x2: cx + dx * 41 - px * 27, y2: cy + dy * 41 - py * 27, class: "shield" }));
    }
    // The type first (what the unit does: its kanji, or its word in English), big in the
    // middle; the letter second, smaller in the corner: it tells apart the units of a type
    // (the hidden Shogun's candidates).
    const english = this.model.labels === "english";
    if (english) {
      // The word is wider than a kanji: above the letter, clear of the facing wedge and the
      // Shield on whichever edge they are.
      g.append(svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", class: "gunit-type en" }, type.short));
      g.append(svg("text", { x: cx, y: cy + 27, "text-anchor": "middle", class: "gunit-letter en" }, u.letter));
    } else {
      g.append(svg("text", { x: cx - 7, y: cy + 13, "text-anchor": "middle", class: "gunit-type" }, type.kanji));
      g.append(svg("text", { x: cx + 19, y: cy + 25, "text-anchor": "middle", class: "gunit-letter" }, u.letter));
    }
    if (shogun && english) {
      // The word is wider than the kanji: a pill along the cell's top edge.
      g.append(svg("rect", { x: x + S - 62, y: y + 4, width: 58, height: 22, rx: 11, class: "gs-shogun-badge" }));
      g.append(svg("text", { x: x + S - 33, y: y + 20, "text-anchor": "middle", class: "gs-shogun-text en" }, MARKS.shogun.english));
    } else if (shogun) {
      g.append(svg("circle", { cx: x + S - 17, cy: y + 17, r: 14, class: "gs-shogun-badge" }));
      g.append(svg("text", { x: x + S - 17, y: y + 24, "text-anchor": "middle", class: "gs-shogun-text" }, MARKS.shogun.kanji));
    }
    const who = u.ghost ? fmt(_("{name}'s new {name2}, waiting for its facing"), { name: side.name, name2: type.name }) : fmt(u.shield ? _("{side} {unit} {letter}, facing {facing}, on its Shield") : _("{side} {unit} {letter}, facing {facing}"), { side: side.name, unit: type.name, letter: u.letter, facing: FACING[u.facing] });
    const role = shogun ? (secret ? _(". Your Shogun: only you see this mark") : _(". The Shogun (revealed)")) : "";
    g.append(svg("title", {}, `${who}${role}. ${type.name}: ${type.does}`));
    return g;
  }

  /** Facings and directions: arrows on the edges of the unit that turns or moves. */
  /** The engine's preferred move (the replay's analysis: ``model.bestMove``, the choice of
   * seat ``model.bestSeat`` described): a green frame on the cell it names (the unit given
   * the Command, the cell moved to, attacked or placed on, with an arrow from the acting
   * unit; the unit turned), or on the Fence's edge. A Shogun choice is secret: it is drawn
   * only for the seat that made it. Cards: ``markBestCard``. */
  drawBest(board, v, me) {
    const best = this.model.bestMove;
    if (!best) return;
    const seat = this.model.bestSeat ?? null;
    const flipped = this.model.flipped;
    const unitOf = (letter) => (v.units || []).find((u) => u.letter === letter && (seat === null || u.owner === seat)) || null;
    const g = svg("g", { class: "best-move", "aria-hidden": "true", "data-kind": best.kind });
    let cell = null;
    let from = null;
    if (["unit", "chain"].includes(best.kind)) cell = best.from;
    else if (["to", "at", "hit", "swap", "ask"].includes(best.kind)) {
      cell = best.to;
      from = best.unit ? unitOf(best.unit)?.cell || null : null;
    } else if (best.kind === "shogun") cell = seat !== null && seat === me ? unitOf(best.unit)?.cell || null : null;
    else if (["dir", "face"].includes(best.kind) && best.unit) cell = unitOf(best.unit)?.cell || null;
    if (best.kind === "fence" && best.edge) {
      g.append(svg("line", { ...edgeLine(best.edge, flipped, 2), class: "best-edge" }));
      g.dataset.best = best.edge;
      board.append(g);
      return;
    }
    if (!cell || !/^[a-g][1-7]$/.test(cell)) return;
    const [x, y] = cellXY(cell, flipped);
    g.append(svg("rect", { x: x + 5, y: y + 5, width: S - 10, height: S - 10, rx: 10, class: "best-frame" }));
    g.dataset.best = cell;
    if (from && from !== cell && /^[a-g][1-7]$/.test(from)) {
      const [fx, fy] = cellXY(from, flipped).map((c) => c + S / 2);
      const [tx, ty] = [x + S / 2, y + S / 2];
      const len = Math.hypot(tx - fx, ty - fy) || 1;
      const [ux, uy] = [(tx - fx) / len, (ty - fy) / len];
      const [ex, ey] = [tx - ux * 24, ty - uy * 24];
      const head = `${ex + ux * 18},${ey + uy * 18} ${ex - uy * 12},${ey + ux * 12} ${ex + uy * 12},${ey - ux * 12}`;
      g.append(svg("line", { x1: fx, y1: fy, x2: ex, y2: ey, class: "best-shaft" }), svg("polygon", { points: head, class: "best-head" }));
      g.dataset.from = from;
    }
    board.append(g);
  }

  /** The card of the engine's preferred move, outlined where the viewer sees it face up
   * among the mover's own cards: only when the viewer is the mover (a hand is secret). */
  markBestCard() {
    const best = this.model.bestMove;
    const seat = this.model.bestSeat ?? null;
    if (!best?.card || seat === null || seat !== this.model.seat) return;
    const side = this.root.querySelector(`.gs-side[data-seat="${seat}"]`);
    const card = side?.querySelector(`.gs-card[data-card="${CSS.escape(best.card)}"]`);
    if (card) {
      card.classList.add("best-card");
      card.dataset.best = best.card;
    }
  }

  drawArrows(board, v, legal, placed, units) {
    const flipped = this.model.flipped;
    const dirs = legal.filter((l) => l.kind === "dir");
    const faces = legal.filter((l) => l.kind === "face");
    // Rapid-Move may offer both (move first, or turn first): the moves get the arrows.
    const arrows = dirs.length ? dirs : faces;
    if (!arrows.length) return;
    const cell = arrows[0].unit ? units.get(arrows[0].unit)?.cell : v.formation_cell || v.command?.cell || null;
    if (!cell) return;
    const [x, y] = cellXY(cell, flipped);
    const cx = x + S / 2;
    const cy = y + S / 2;
    for (const l of arrows) {
      const d = l.kind === "dir" ? l.direction : l.facing;
      const [dx, dy] = screenDir(d, flipped);
      const px = -dy;
      const py = dx;
      // Outside the unit's cell for a move, just inside its edge for a facing.
      const base = l.kind === "dir" ? 46 : 30;
      const tip = [cx + dx * (base + 34), cy + dy * (base + 34)];
      const b1 = [cx + dx * base + px * 22, cy + dy * base + py * 22];
      const b2 = [cx + dx * base - px * 22, cy + dy * base - py * 22];
      board.append(
        svg(
          "polygon",
          {
            points: `${tip} ${b1} ${b2}`,
            class: `gs-arrow ${l.kind}`,
            "data-action": l.action,
            "data-kind": l.kind,
            "data-dir": d,
            role: "button",
            tabindex: 0,
            "aria-label": choiceText(l),
            onclick: () => this.model.send(l.action),
            onkeydown: pressed(() => this.model.send(l.action)),
          },
          svg("title", {}, choiceText(l)),
        ),
      );
      placed.add(l.action);
    }
  }

  /** Fence choices: a bar on each edge that may take one. */
  drawEdges(board, legal, placed) {
    for (const l of legal.filter((a) => a.kind === "fence" && a.edge)) {
      const line = edgeLine(l.edge, this.model.flipped, 14);
      const g = svg("g", { class: "gs-edge", "data-action": l.action, "data-kind": l.kind, "data-edge": l.edge, role: "button", tabindex: 0, "aria-label": choiceText(l), onclick: () => this.model.send(l.action), onkeydown: pressed(() => this.model.send(l.action)) });
      g.append(svg("line", { ...line, class: "gs-edge-mark" }));
      // A band 30 units thick along the edge (a line's box has no height to click).
      const t = 15;
      g.append(svg("rect", { x: Math.min(line.x1, line.x2) - t, y: Math.min(line.y1, line.y2) - t, width: Math.abs(line.x2 - line.x1) + 2 * t, height: Math.abs(line.y2 - line.y1) + 2 * t, rx: t, class: "gs-edge-hit" }));
      g.append(svg("title", {}, choiceText(l)));
      board.append(g);
      placed.add(l.action);
    }
  }

  clickCell(name, list) {
    if (list.length === 1) {
      this.chooserCell = null;
      this.model.send(list[0].action);
      return;
    }
    this.chooserCell = list.length && this.chooserCell !== name ? name : null;
    // A tap on a unit with nothing to play there says what it is and does.
    const unit = list.length ? null : this.root.querySelector(`.gunit[data-cell="${name}"] title`);
    this.info = unit ? unit.textContent : "";
    this.draw();
  }

  // -- the cards ---------------------------------------------------------------------------

  drawSide(v, seat, legal, placed, me) {
    const p = v.players?.[seat];
    if (!p) return el("div");
    const side = SIDES[seat];
    const mine = seat === me;
    const cardChoice = (kinds, code) => {
      const l = legal.find((a) => kinds.includes(a.kind) && a.card === code);
      if (l) placed.add(l.action);
      return l;
    };
    const faceOf = (code, kinds, opts = {}) => {
      const l = mine && code ? cardChoice(kinds, code) : null;
      return cardFace(code, seat, { ...opts, action: l, onclick: l ? () => this.model.send(l.action) : null });
    };
    const looks = new Map(legal.filter((l) => l.kind === "look").map((l) => [l.position, l]));
    const lookable = (pos, code, opts) => {
      const l = !mine ? looks.get(pos) : null;
      if (!l) return cardFace(code, seat, opts);
      placed.add(l.action);
      return cardFace(code, seat, { ...opts, action: l, onclick: () => this.model.send(l.action) });
    };
    const zone = (label, cards, key = null) => el("div.gs-zone", { "data-zone": key }, el("span.gs-zone-label", {}, label), el("div.gs-cards", {}, cards.length ? cards : el("span.gs-empty", {}, _("empty"))));
    // The Command Row in resolving order; a face-down card the viewer may see says so.
    const row = (p.row || []).map((c, i) => lookable(String(i + 1), c.card, { badge: `${i + 1}`, small: true, down: !c.face_up }));
    const lightning = p.lightning ? [lookable("L", p.lightning.card, { badge: "⚡", small: true, lit: true, down: !p.lightning.face_up })] : [];
    // The opponent's hand is mostly a count: small backs, and the cards they had to show.
    const hand = (p.hand || []).map((c) => faceOf(c, ["send", "remove"], { small: !mine, mini: !mine && c === null }));
    const parts = [
      el(
        "div.gs-side-head",
        {},
        el("strong", {}, side.mark, " ", mine ? fmt(_("{side} (you)"), { side: side.name }) : side.name),
        el("span", { title: _("Military Logistics Points: pay for units, Fences and Lightning Commands") }, fmt(_("{points} logistics"), { points: p.points })),
        el("span", {}, fmt(_("{plural} left"), { plural: fmt(ngettext("{n} Fence", "{n} Fences", p.fences_left), { n: p.fences_left }) })),
        el("span", { title: _("Units on the opponent's Invader Spot (3 win)") }, fmt(_("{invaders}/3 invaders"), { invaders: p.invaders })),
        p.shogun && mine && !p.shogun_revealed ? el("span.gs-own-shogun", { title: _("Only you see this") }, fmt(_("Your Shogun: {shogun}"), { shogun: p.shogun })) : null,
        p.shogun_revealed && p.shogun ? el("span", {}, fmt(_("Shogun {shogun} revealed"), { shogun: p.shogun })) : null,
      ),
    ];
    const rows = el("div.gs-zones", {}, zone(_("Lightning"), lightning, "lightning"), zone(_("Command Row (resolves left first)"), row, "row"));
    if (!mine) parts.push(rows);
    if (mine) {
      // Your hand first: it is what you play from.
      parts.push(el("div.gs-zones", {}, zone(_("Hand"), hand, "hand")), rows);
      // The cards still to arrange into hand and deck: large while they are being arranged.
      const arranging = v.phase === "secret";
      if ((p.stock || []).length) parts.push(zone(arranging ? _("Cards to arrange") : _("Your cards, arranged after the formation"), p.stock.map((c) => faceOf(c, ["hand", "deck"], { small: !arranging })), "stock"));
      if ((p.prepared || []).length) parts.push(zone(_("Prepared Advanced cards"), p.prepared.map((c) => faceOf(c, ["take"], { small: true }))));
      const deck = (p.deck || []).map((c, i) => cardFace(c, seat, { small: true, badge: i === 0 ? "top" : `${i + 1}` }));
      parts.push(el("details.gs-deck", {}, el("summary", {}, fmt(_("Deck: {plural} (top first)"), { plural: fmt(ngettext("{n} card", "{n} cards", deck.length), { n: deck.length }) })), el("div.gs-cards", {}, deck)));
    } else {
      parts.push(
        el(
          "div.gs-zones.compact",
          {},
          zone(_("Hand"), hand, "hand"),
          // The deck: its top card's back, with the count.
          el(
            "div.gs-zone",
            { "data-zone": "deck" },
            el("span.gs-zone-label", {}, _("Deck")),
            el("div.gs-cards", {}, (p.deck || []).length ? cardFace(null, seat, { small: true, mini: true, badge: String(p.deck.length) }) : el("span.gs-empty", {}, _("empty"))),
          ),
        ),
      );
    }
    return el(`section.gs-side${mine ? ".mine" : ".theirs"}`, { "data-seat": seat, style: `--side:${side.color}` }, parts);
  }

  /** Cards on offer that lie in none of the zones drawn (a pool, the Advanced cards). */
  drawOffer(v, legal, placed, me) {
    const free = legal.filter((l) => l.card && !placed.has(l.action));
    if (!free.length) return null;
    const cards = free.map((l) => {
      placed.add(l.action);
      return cardFace(l.card, me ?? 0, { action: l, onclick: () => this.model.send(l.action) });
    });
    return el("div.gs-offer", {}, el("div.gs-zone-label", {}, _("Click a card")), el("div.gs-cards", {}, cards));
  }

  drawChoices(legal, placed) {
    let rest = legal.filter((l) => !placed.has(l.action));
    const title = [];
    if (this.chooserCell) {
      rest = legal.filter((l) => [l.from, l.to].includes(this.chooserCell));
      title.push(el("div.gs-zone-label", {}, fmt(_("Choices on {chooserCell}:"), { chooserCell: this.chooserCell })));
    }
    if (!rest.length) return null;
    return el(
      "div.gs-choices",
      {},
      title,
      rest.map((l) =>
        el(
          "button.action",
          { type: "button", "data-action": l.action, "data-kind": l.kind, "data-piece": l.piece, title: choiceText(l), onclick: () => this.model.send(l.action) },
          pieceIcon(l.kind === "place" ? l.piece : null),
          choiceWords(l) || l.label,
        ),
      ),
    );
  }

  /** This turn's orders: the card resolving now, then the queue, in order. */
  drawOrders(v) {
    if (v.phase !== "battle" || v.outcome) return null;
    const owner = v.to_act >= 0 ? v.to_act : 0;
    const cards = [];
    if (v.resolving) cards.push(cardFace(v.resolving, owner, { small: true, badge: "now", lit: true }));
    (v.queue || []).forEach((c, i) => cards.push(cardFace(c, owner, { small: true, badge: fmt(_("then {x}"), { x: i + 1 }) })));
    if (!cards.length) return null;
    return el("div.gs-orders", {}, el("div.gs-zone-label", {}, fmt(_("{x}'s orders this turn, in order"), { x: SIDES[owner].name })), el("div.gs-cards", {}, cards));
  }
}

/** A keydown handler that acts on Enter or Space (for the field's clickable shapes). */
function pressed(fn) {
  return (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      fn();
    }
  };
}

function pieceIcon(piece) {
  if (!piece) return null;
  if (piece === "F") return el("span.gs-piece-icon.fence", { "aria-hidden": "true" }, "▬");
  // In English the button's own words name the unit: the kanji icon is left out.
  if (english()) return null;
  return el("span.gs-piece-icon", { "aria-hidden": "true" }, TYPES[piece]?.kanji || piece);
}

/** What changed on the field between two views: the last move, to highlight and animate. */
function diffViews(a, b) {
  const before = new Map((a.units || []).map((u) => [u.letter, u]));
  const after = new Map((b.units || []).map((u) => [u.letter, u]));
  const cells = new Set();
  const moved = new Map();
  const fallen = [];
  for (const [letter, u] of after) {
    const o = before.get(letter);
    if (!o) cells.add(u.cell);
    else if (o.cell !== u.cell) {
      cells.add(o.cell);
      cells.add(u.cell);
      moved.set(letter, o.cell);
    } else if (o.facing !== u.facing || o.shield !== u.shield || o.owner !== u.owner) cells.add(u.cell);
  }
  // A unit gone from the field was removed, or invaded (its side's invaders went up).
  const invaded = (a.players || []).map((p, seat) => (b.players?.[seat]?.invaders ?? 0) > (p.invaders ?? 0));
  for (const [letter, o] of before) {
    if (!after.has(letter)) {
      fallen.push({ ...o, invaded: !!invaded[o.owner] });
      cells.add(o.cell);
    }
  }
  const old = new Set((a.fences || []).map((f) => f.edge));
  const edges = new Set((b.fences || []).map((f) => f.edge).filter((e) => !old.has(e)));
  return { cells, moved, fallen, edges };
}

/** How the battle ended, in the rulebook's words. */
function endNote(view) {
  const out = view.outcome;
  const winner = SIDES[out.winners?.[0]];
  const loser = out.winners?.length === 1 ? SIDES[1 - out.winners[0]] : null;
  const when = view.turn ? fmt(_("The battle ended on turn {turn}"), { turn: view.turn }) : _("The game is over");
  if (out.reason === "shogun_captured" && loser) return fmt(_("{when}: {name}'s Shogun was removed from the field."), { when, name: loser.name });
  if (out.reason === "invasion" && winner && loser) return fmt(_("{when}: {name} brought 3 units onto {name2}'s Invader Spot."), { when, name: winner.name, name2: loser.name });
  return `${when}.`;
}

/** The prompt: what the player decides now, in words. */
function promptText(v, legal) {
  const kinds = new Set(legal.map((l) => l.kind));
  const cmd = v.command;
  const card = cmd?.card ? cardInfo(cmd.card).name : v.resolving ? cardInfo(v.resolving).name : null;
  const lead = card ? `${card}: ` : "";
  const acting = legal.find((l) => l.unit)?.unit;
  const unit = (v.units || []).find((u) => u.letter === acting);
  const who = unit ? unitName(unit) : _("the unit");
  const me = v.players?.[v.seat];
  if (kinds.has("place")) {
    const where = v.phase === "formation" ? fmt(_(" ({n} logistics left)"), { n: me ? me.points : "?" }) : "";
    return fmt(_("{lead}Choose what to place{where}: click a unit type or a Fence below."), { lead, where });
  }
  if (kinds.has("at")) return fmt(_("{lead}Click a highlighted cell to place it."), { lead });
  const placing = v.phase === "formation" ? v.formation_piece : v.command?.piece;
  const faced = placing && TYPES[placing] && !acting ? fmt(_("the new {x}"), { x: TYPES[placing].name }) : who;
  if (kinds.has("face") && !kinds.has("dir")) return fmt(_("{lead}Click an arrow: which way {faced} faces."), { lead, faced });
  if (kinds.has("dir")) return lead + fmt(kinds.has("face") ? _("Click an arrow: the direction {who} moves (or turn first).") : _("Click an arrow: the direction {who} moves."), { who });
  if (kinds.has("fence")) return fmt(_("{lead}Click a highlighted edge to build a Fence."), { lead });
  if (kinds.has("shogun")) return _("Secretly choose your Shogun: click one of your units. Only you will see the mark.");
  if (kinds.has("hand")) return fmt(_("Choose your starting hand: click a card ({n} more)."), { n: 3 - (me?.hand?.length ?? 0) });
  if (kinds.has("deck")) return _("Order your deck: click the card that goes next (top first).");
  if (kinds.has("unit")) return fmt(_("{lead}Click the unit that carries out the Command."), { lead });
  if (kinds.has("chain")) return lead + (kinds.has("done") ? _("Click an adjacent unit to join the chained Command, or press Done.") : _("Click an adjacent unit to join the chained Command."));
  if (kinds.has("hit")) return fmt(_("{lead}Click the enemy to attack."), { lead });
  if (kinds.has("to")) return fmt(_("{lead}Click the cell {who} moves to."), { lead, who });
  if (kinds.has("invade")) return fmt(_("{lead}{who} may invade the Invader Spot: invade or stay."), { lead, who });
  if (kinds.has("mode")) return fmt(_("{lead}Choose which Command of the card to use."), { lead });
  if (kinds.has("send")) {
    const more = kinds.has("end") || kinds.has("lightning");
    return more ? _("Send another card from your hand, end your turn, or pay for a Lightning Command.") : _("Send a card from your hand to your Command Row: click it.");
  }
  if (kinds.has("look")) return fmt(_("{lead}Click a card of the opponent's Command Row to look at it."), { lead });
  if (kinds.has("ask")) return fmt(_("{lead}Click an enemy unit to ask whether it is the Shogun."), { lead });
  if (kinds.has("swap")) return fmt(_("{lead}Click the unit to switch places with."), { lead });
  if (kinds.has("pick")) return _("Pick a card: click it.");
  if (kinds.has("take")) return _("Take one of your Advanced cards into your hand: click it.");
  if (kinds.has("remove")) return _("Remove one card of your hand from the game: click it.");
  if (kinds.has("blind")) return _("Take one of the face-down Advanced cards.");
  if (kinds.has("end") || kinds.has("lightning")) return _("End your turn, or pay for a Lightning Command.");
  if (legal.length === 1) return choiceText(legal[0]) || choiceWords(legal[0]) || legal[0].label;
  return legal.length ? _("Your decision: click one of the choices.") : "";
}

function waitingText(v, me) {
  if (v.outcome) return _("The battle is over.");
  if (v.to_act === undefined || v.to_act < 0) return "";
  const who = SIDES[v.to_act]?.name || _("The opponent");
  if (v.to_act === me) return _("Your decision.");
  if (v.phase === "secret") return fmt(_("{who} is deciding in secret."), { who });
  return fmt(_("{who} is deciding."), { who });
}
