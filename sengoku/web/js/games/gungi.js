// Gungi: the 9x9 board in SVG with towers and their tiers, both hands, drops, legal targets.
// Everything is drawn from view(seat) and the legal actions' notation (sengoku/games/gungi).

import { el, svg, clear } from "../ui.js";

// Piece names as the engine spells them, with the kanji and short English labels.
export const PIECES = {
  marshal: { kanji: "帥", name: "Marshal", short: "Mar" },
  general: { kanji: "大", name: "General", short: "Gen" },
  lieutenant_general: { kanji: "中", name: "Lieutenant General", short: "LtG" },
  major_general: { kanji: "小", name: "Major General", short: "MjG" },
  samurai: { kanji: "侍", name: "Samurai", short: "Sam" },
  spear: { kanji: "槍", name: "Spear", short: "Spr" },
  knight: { kanji: "馬", name: "Knight", short: "Kni" },
  spy: { kanji: "忍", name: "Spy", short: "Spy" },
  fortress: { kanji: "砦", name: "Fortress", short: "Frt" },
  pawn: { kanji: "兵", name: "Pawn", short: "Paw" },
  cannon: { kanji: "砲", name: "Cannon", short: "Can" },
  archer: { kanji: "弓", name: "Archer", short: "Arc" },
  musketeer: { kanji: "筒", name: "Musketeer", short: "Mus" },
  captain: { kanji: "謀", name: "Captain", short: "Cpt" },
};
const BY_KANJI = Object.fromEntries(Object.entries(PIECES).map(([k, p]) => [p.kanji, k]));
const COLORS = ["white", "black"];
const SIDE = { white: "White", black: "Black" };

const S = 100; // one square
const M = 34; // margin for the coordinates
const SIZE = 9 * S + 2 * M;

/** Parse canonical Gungi notation (see sengoku/games/gungi/move.py). */
export function parseMove(action) {
  if (action === "済み") return { done: true };
  let m = action.match(/^(\d)-(\d)-(\d) (\S)\((\d)-(\d)\)(取|付)?(?: 返(.+))?$/u);
  if (m) {
    return {
      to: `${m[1]}-${m[2]}`,
      tier: Number(m[3]),
      kanji: m[4],
      from: `${m[5]}-${m[6]}`,
      capture: m[7] === "取",
      stack: m[7] === "付",
      betray: parseBetrayal(m[8]),
    };
  }
  m = action.match(/^(\d)-(\d)-(\d) (\S)新(?: 返(.+))?$/u);
  if (m) {
    return {
      to: `${m[1]}-${m[2]}`,
      tier: Number(m[3]),
      kanji: m[4],
      drop: true,
      betray: parseBetrayal(m[5]),
    };
  }
  return null;
}

function parseBetrayal(text) {
  if (!text) return [];
  return [...text.matchAll(/(\S)(\d)?/gu)].map((m) => ({ kanji: m[1], tier: Number(m[2] || 0) }));
}

/** Board coordinates of a square name "c-r" as seen with White at the bottom. */
function xy(square, flipped) {
  const [c, r] = square.split("-").map(Number);
  let x = 9 - c;
  let y = r - 1;
  if (flipped) {
    x = 8 - x;
    y = 8 - y;
  }
  return [M + x * S, M + y * S];
}

function pieceLabel(name, labels) {
  const p = PIECES[name] || { kanji: "?", name, short: name.slice(0, 3) };
  return labels === "english" ? p.short : p.kanji;
}

/** One piece: a pentagon pointing at the opponent; White ivory, Black ink, plus a side mark. */
function pieceShape(name, color, { cx, cy, scale, up, labels }) {
  const k = (S / 2) * scale;
  const pts = [
    [0, -0.92],
    [0.66, -0.6],
    [0.8, 0.84],
    [-0.8, 0.84],
    [-0.66, -0.6],
  ];
  const dir = up ? 1 : -1;
  const points = pts.map(([x, y]) => `${cx + x * k},${cy + y * k * dir}`).join(" ");
  const text = pieceLabel(name, labels);
  const english = labels === "english";
  const g = svg("g", {
    class: `piece ${color}`,
    "data-piece": name,
    "data-color": color,
  });
  g.append(svg("polygon", { points, class: "piece-body" }));
  if (color === "black") {
    // A second, inner outline: Black is told apart by shape, not only by colour.
    const inner = pts.map(([x, y]) => `${cx + x * k * 0.8},${cy + (y * 0.8 + 0.05) * k * dir}`);
    g.append(svg("polygon", { points: inner.join(" "), class: "piece-inner" }));
  }
  g.append(
    svg(
      "text",
      {
        x: cx,
        // Centred on the piece's body, nudged toward its wide end.
        y: english ? cy + k * 0.22 + k * 0.08 * dir : cy + k * 0.3 + k * 0.12 * dir,
        class: english ? "piece-text en" : "piece-text",
        "font-size": english ? k * 0.62 : k * 0.95,
        "text-anchor": "middle",
      },
      text,
    ),
  );
  g.append(svg("title", {}, `${SIDE[color]} ${PIECES[name]?.name || name}`));
  return g;
}

/** A small piece icon (hands, tower details, legends) as its own <svg>. */
export function pieceIcon(name, color, labels, size = 34) {
  const s = svg("svg", {
    viewBox: "0 0 100 100",
    width: size,
    height: size,
    class: "piece-icon",
    "aria-hidden": "true",
  });
  s.append(pieceShape(name, color, { cx: 50, cy: 50, scale: 0.95, up: color === "white", labels }));
  return s;
}

function describeChoice(move) {
  let text;
  if (move.done) text = "Done: finish your setup (済み)";
  else if (move.drop) text = `Drop on tier ${move.tier} (新)`;
  else if (move.capture) text = `Capture (取) — land on tier ${move.tier}`;
  else if (move.stack) text = `Stack on top (付) — tier ${move.tier}`;
  else text = `Move to tier ${move.tier}`;
  if (move.betray && move.betray.length) {
    const turned = move.betray
      .map((b) => `${b.kanji} ${PIECES[BY_KANJI[b.kanji]]?.name || ""}${b.tier ? ` (tier ${b.tier})` : ""}`)
      .join(", ");
    text += `, and betray: turn ${turned}`;
  }
  return text;
}

export default {
  name: "gungi",
  kanji: "軍儀",
  title: "Gungi",
  notationHint: "Type a move, e.g. 7-6-1 兵",
  // Nothing is hidden in Gungi: hot seat needs no "pass the device" screen.
  perfectInformation: true,
  tagline: "Stacking chess on a 9x9 board: build towers, drop reserves, capture the Marshal.",
  howTo: [
    "Each side has a Marshal (帥). Capture the enemy Marshal to win.",
    "Pieces stack into towers up to two tiers (three in Advanced). A piece on a higher tier reaches further; only the top of a tower moves.",
    "Move onto an enemy tower's top to capture it (取), or onto a tower to stack (付). Drop a piece from your hand (新) instead of moving.",
    "Click one of your pieces (or a piece in your hand) to see where it may go; click a highlighted square to play.",
  ],
  seatName(seat) {
    return SIDE[COLORS[seat]] || `Seat ${seat + 1}`;
  },
  seatIcon(seat, labels) {
    return pieceIcon("marshal", COLORS[seat] || "white", labels, 26);
  },
  defaultFlip(seat) {
    return seat === 1;
  },
  statusNote(view) {
    if (!view) return "";
    const notes = [];
    if (view.phase === "setup") {
      const still = (view.drafting || []).map((c) => SIDE[c] || c).join(" and ");
      notes.push(`Setup: place your pieces, then press Done.${still ? ` Still placing: ${still}.` : ""}`);
    }
    (view.marshal_capturable || []).forEach((danger, i) => {
      if (danger) notes.push(`${SIDE[COLORS[i]]}'s Marshal can be captured!`);
    });
    return notes.join(" ");
  },
  create(root, ctx) {
    return new GungiBoard(root, ctx);
  },
};

class GungiBoard {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.selected = null;
    this.inspect = null;
    this.model = null;
    clear(root);
    root.classList.add("gungi");
    this.topHand = el("div.hand.top");
    this.boardWrap = el("div.board-wrap");
    this.bottomHand = el("div.hand.bottom");
    this.info = el("div.tower-info", { "aria-live": "polite" });
    this.chooser = el("div.chooser", { hidden: true });
    root.append(this.topHand, this.boardWrap, this.bottomHand, this.chooser, this.info);
  }

  update(model) {
    // A new snapshot of the same position (the socket and a fetch may both bring one) keeps
    // the selection; a different position or set of moves clears it.
    const key = `${model.view?.fen}|${model.interactive ? model.legal.map((l) => l.action).join("|") : ""}`;
    const legalChanged = key !== this.legalKey;
    this.legalKey = key;
    this.model = model;
    if (legalChanged) {
      this.selected = null;
      this.hideChooser();
    }
    this.moves = (model.interactive ? model.legal : []).map((l) => ({
      ...l,
      move: parseMove(l.action),
    }));
    this.draw();
  }

  towers() {
    const map = new Map();
    for (const cell of this.model.view.board || []) map.set(cell.square, cell.tower);
    return map;
  }

  targets() {
    const out = new Map();
    if (!this.selected) return out;
    for (const m of this.moves) {
      const mv = m.move;
      if (!mv || mv.done) continue;
      const fits =
        this.selected.kind === "board"
          ? mv.from === this.selected.square
          : mv.drop && BY_KANJI[mv.kanji] === this.selected.piece;
      if (!fits) continue;
      if (!out.has(mv.to)) out.set(mv.to, []);
      out.get(mv.to).push(m);
    }
    return out;
  }

  draw() {
    const { view, labels, flipped } = this.model;
    const towers = this.towers();
    const targets = this.targets();
    const last = this.model.lastAction ? parseMove(this.model.lastAction) : null;
    const board = svg("svg", {
      viewBox: `0 0 ${SIZE} ${SIZE}`,
      class: "board",
      role: "img",
      "aria-label": "Gungi board",
    });
    board.append(
      svg(
        "defs",
        {},
        svg(
          "linearGradient",
          { id: "wood", x1: 0, y1: 0, x2: 1, y2: 1 },
          svg("stop", { offset: "0", "stop-color": "#ecd3a0" }),
          svg("stop", { offset: "1", "stop-color": "#d9b574" }),
        ),
      ),
    );
    board.append(svg("rect", { x: 0, y: 0, width: SIZE, height: SIZE, rx: 18, class: "frame" }));
    board.append(svg("rect", { x: M, y: M, width: 9 * S, height: 9 * S, fill: "url(#wood)" }));
    // Territory bands: each side's first three rows, faintly.
    for (let i = 0; i <= 9; i++) {
      const w = i === 0 || i === 9 ? 4 : 1.6;
      board.append(svg("line", { x1: M, y1: M + i * S, x2: M + 9 * S, y2: M + i * S, class: "grid", "stroke-width": w }));
      board.append(svg("line", { x1: M + i * S, y1: M, x2: M + i * S, y2: M + 9 * S, class: "grid", "stroke-width": w }));
    }
    for (const [cx, cy] of [[3, 3], [6, 3], [3, 6], [6, 6]]) {
      board.append(svg("circle", { cx: M + cx * S, cy: M + cy * S, r: 6, class: "star" }));
    }
    // Coordinates: columns 9..1 from White's side, rows 1..9 (the official notation).
    for (let i = 0; i < 9; i++) {
      const col = flipped ? i + 1 : 9 - i;
      const row = flipped ? 9 - i : i + 1;
      board.append(svg("text", { x: M + i * S + S / 2, y: M - 9, class: "coord", "text-anchor": "middle" }, col));
      board.append(svg("text", { x: M + 9 * S + M / 2, y: M + i * S + S / 2 + 8, class: "coord", "text-anchor": "middle" }, row));
    }
    const tint = (square, cls) => {
      const [x, y] = xy(square, flipped);
      board.append(svg("rect", { x: x + 2, y: y + 2, width: S - 4, height: S - 4, class: cls }));
    };
    if (last && !last.done) {
      if (last.from) tint(last.from, "last-from");
      tint(last.to, "last-to");
    }
    if (this.selected?.kind === "board") tint(this.selected.square, "selected");
    if (this.inspect && towers.has(this.inspect) && this.inspect !== this.selected?.square) {
      tint(this.inspect, "inspect");
    }
    // Towers: lower tiers peek out below and to the right; pips show each tier's owner.
    const danger = view.marshal_capturable || [];
    for (const [square, tower] of towers) {
      const [x, y] = xy(square, flipped);
      const h = tower.length;
      const g = svg("g", { class: "tower", "data-square": square, "data-height": h });
      tower.forEach((p, i) => {
        const off = (h - 1 - i) * 8 - (h - 1) * 4;
        const up = (p.color === "white") !== flipped;
        const shape = pieceShape(p.piece, p.color, {
          cx: x + S / 2 + off,
          cy: y + S / 2 + off,
          scale: 0.78,
          up,
          labels,
        });
        if (i < h - 1) shape.classList.add("under");
        if (p.piece === "marshal" && i === h - 1 && danger[COLORS.indexOf(p.color)]) {
          g.append(svg("circle", { cx: x + S / 2, cy: y + S / 2, r: S * 0.46, class: "danger" }));
        }
        g.append(shape);
      });
      if (h > 1) {
        g.append(svg("circle", { cx: x + S - 15, cy: y + 15, r: 13, class: "tier-badge" }));
        g.append(svg("text", { x: x + S - 15, y: y + 21, class: "tier-text", "text-anchor": "middle" }, h));
      }
      (h > 1 ? tower : []).forEach((p, i) => {
        g.append(svg("rect", { x: x + 6 + i * 13, y: y + S - 14, width: 10, height: 8, rx: 2, class: `pip ${p.color}` }));
      });
      board.append(g);
    }
    for (const [square, list] of targets) {
      const [x, y] = xy(square, flipped);
      const cls = list.some((m) => m.move.capture) ? "target capture" : list.some((m) => m.move.stack || m.move.tier > 1) ? "target stack" : "target";
      const g = svg("g", { class: cls, "data-target": square });
      if (cls.includes("capture")) {
        g.append(svg("rect", { x: x + 5, y: y + 5, width: S - 10, height: S - 10, rx: 10 }));
      } else if (cls.includes("stack")) {
        // A solid frame and a corner diamond: the piece underneath stays readable.
        g.append(svg("rect", { x: x + 5, y: y + 5, width: S - 10, height: S - 10, rx: 10, class: "stack-frame" }));
        g.append(svg("polygon", { points: `${x + 18},${y + 6} ${x + 30},${y + 18} ${x + 18},${y + 30} ${x + 6},${y + 18}` }));
      } else {
        g.append(svg("circle", { cx: x + S / 2, cy: y + S / 2, r: 15 }));
      }
      board.append(g);
    }
    // Click targets last so nothing drawn above them swallows a click.
    for (let r = 1; r <= 9; r++) {
      for (let c = 1; c <= 9; c++) {
        const square = `${c}-${r}`;
        const [x, y] = xy(square, flipped);
        board.append(
          svg("rect", {
            x,
            y,
            width: S,
            height: S,
            class: "hit",
            "data-sq": square,
            "aria-label": this.squareLabel(square, towers.get(square), targets.has(square)),
            onclick: () => this.clickSquare(square),
          }),
        );
      }
    }
    clear(this.boardWrap).append(board);
    this.drawHands();
    this.drawInfo(towers);
  }

  /** What a screen reader says for a square: its tower, top last, and whether it is a target. */
  squareLabel(square, tower, target) {
    const pieces = (tower || []).map((p) => `${SIDE[p.color]} ${PIECES[p.piece]?.name || p.piece}`);
    return `${square}: ${pieces.length ? pieces.reverse().join(" on ") : "empty"}${target ? ", legal target" : ""}`;
  }

  drawHands() {
    const { view, labels, flipped } = this.model;
    const bottom = flipped ? "black" : "white";
    const top = flipped ? "white" : "black";
    const dropKinds = new Set(
      this.moves.filter((m) => m.move && m.move.drop).map((m) => BY_KANJI[m.move.kanji]),
    );
    const done = this.moves.find((m) => m.move && m.move.done);
    for (const [box, color] of [
      [this.topHand, top],
      [this.bottomHand, bottom],
    ]) {
      clear(box);
      box.dataset.color = color;
      const hand = (view.hands || {})[color] || {};
      box.append(el("span.hand-label", {}, `${SIDE[color]} hand`));
      const names = Object.keys(PIECES).filter((n) => hand[n]);
      if (!names.length) box.append(el("span.hand-empty", {}, "empty"));
      for (const name of names) {
        const mine = dropKinds.has(name) && COLORS.indexOf(color) === this.model.seat;
        const selected = this.selected?.kind === "hand" && this.selected.piece === name && mine;
        box.append(
          el(
            `button.hand-piece${mine ? ".droppable" : ""}${selected ? ".selected" : ""}`,
            {
              type: "button",
              "data-piece": name,
              "data-color": color,
              disabled: !mine,
              title: `${PIECES[name].name} ×${hand[name]}`,
              "aria-label": `${SIDE[color]} ${PIECES[name].name}, ${hand[name]} in hand`,
              onclick: () => this.clickHand(name),
            },
            pieceIcon(name, color, labels, 34),
            el("span.count", {}, `×${hand[name]}`),
          ),
        );
      }
      if (done && color === COLORS[this.model.seat]) {
        box.append(
          el("button.primary.done-button", { type: "button", onclick: () => this.model.send(done.action) }, "Done (済み)"),
        );
      }
    }
  }

  drawInfo(towers) {
    const { labels } = this.model;
    clear(this.info);
    const square = this.inspect || this.selected?.square;
    const tower = square && towers.get(square);
    if (!tower) {
      this.info.append(
        el("span.muted", {}, this.model.interactive ? "Tap a piece to see its tower and moves." : "Tap a tower to see its tiers."),
      );
      return;
    }
    this.info.append(el("strong", {}, `Tower ${square}`));
    const list = el("ol.tiers", { reversed: true });
    [...tower].reverse().forEach((p, i) => {
      list.append(
        el(
          "li",
          {},
          pieceIcon(p.piece, p.color, labels, 24),
          ` tier ${tower.length - i}: ${PIECES[p.piece]?.kanji || ""} ${PIECES[p.piece]?.name || p.piece} (${SIDE[p.color]})`,
        ),
      );
    });
    this.info.append(list);
  }

  clickSquare(square) {
    const targets = this.targets();
    if (targets.has(square)) {
      this.choose(targets.get(square), square);
      return;
    }
    this.hideChooser();
    this.inspect = square;
    const hasMoves = this.moves.some((m) => m.move && m.move.from === square);
    if (hasMoves && !(this.selected?.kind === "board" && this.selected.square === square)) {
      this.selected = { kind: "board", square };
    } else {
      this.selected = null;
    }
    this.draw();
  }

  clickHand(piece) {
    this.hideChooser();
    if (this.selected?.kind === "hand" && this.selected.piece === piece) this.selected = null;
    else this.selected = { kind: "hand", piece };
    this.draw();
  }

  choose(list, square) {
    if (list.length === 1) {
      this.selected = null;
      this.model.send(list[0].action);
      return;
    }
    clear(this.chooser);
    this.chooser.hidden = false;
    this.chooser.append(el("div.chooser-title", {}, `Which move to ${square}?`));
    for (const m of list) {
      this.chooser.append(
        el(
          "button.choice",
          {
            type: "button",
            "data-action": m.action,
            onclick: () => {
              this.hideChooser();
              this.selected = null;
              this.model.send(m.action);
            },
          },
          el("span.choice-notation", {}, m.short || m.action),
          el("span.choice-text", {}, describeChoice(m.move)),
        ),
      );
    }
    this.chooser.append(el("button.link", { type: "button", onclick: () => this.hideChooser() }, "Cancel"));
  }

  hideChooser() {
    this.chooser.hidden = true;
    clear(this.chooser);
  }

  destroy() {
    clear(this.root);
  }
}
