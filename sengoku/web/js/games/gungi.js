// Gungi: the 9x9 board in SVG with towers and their tiers, both hands, drops, legal targets.
// Drawn from view(seat) and the legal rows' descriptions (kind, piece, from, to, tier: see
// sengoku/games/gungi/describe.py), and the last move from its description too (the move
// event carries it: the client never reads notation). The hands, Done and the tower details
// go to the page's dock.

import { el, svg, clear, markLastMove, animateArrival, tooltip, hideTip, promptFromLegal } from "../ui.js";
import { _, fmt, ngettext, language } from "../i18n.js";

// Piece names as the engine spells them, with the kanji and short English labels.
export const PIECES = {
  marshal: { kanji: "帥", name: _("Marshal"), short: _("Mar") },
  general: { kanji: "大", name: _("General"), short: _("Gen") },
  lieutenant_general: { kanji: "中", name: _("Lieutenant General"), short: "LtG" },
  major_general: { kanji: "小", name: _("Major General"), short: "MjG" },
  samurai: { kanji: "侍", name: _("Samurai"), short: _("Sam") },
  spear: { kanji: "槍", name: _("Spear"), short: _("Spr") },
  knight: { kanji: "馬", name: _("Knight"), short: _("Kni") },
  spy: { kanji: "忍", name: _("Spy"), short: _("Spy") },
  fortress: { kanji: "砦", name: _("Fortress"), short: _("Frt") },
  pawn: { kanji: "兵", name: _("Pawn"), short: _("Paw") },
  cannon: { kanji: "砲", name: _("Cannon"), short: _("Can") },
  archer: { kanji: "弓", name: _("Archer"), short: _("Arc") },
  musketeer: { kanji: "筒", name: _("Musketeer"), short: _("Mus") },
  captain: { kanji: "謀", name: _("Captain"), short: _("Cpt") },
};
const COLORS = ["white", "black"];
const SIDE = { white: _("White"), black: _("Black") };

const S = 100; // one square
const M = 34; // margin for the coordinates
const SIZE = 9 * S + 2 * M;

/** The last move's squares from its description (the server's data: never notation). */
export function lastMoveOf(described) {
  if (!described) return null;
  if (described.kind === "done") return { done: true };
  const square = (cell) => (typeof cell === "string" ? cell.split("-").slice(0, 2).join("-") : null);
  const to = square(described.to);
  if (!to) return null;
  const from = described.from && described.from !== "hand" ? square(described.from) : null;
  return { to, from, drop: !from };
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

/** A sentence without its kanji marks ("Move your Spear (槍) ... capturing (取).") */
function noKanji(text) {
  return String(text).replace(/\s*\([\u3000-\u30ff\u4e00-\u9fff]+\)/gu, "");
}

/** A move described by the server (its kind, piece, squares: describe.py's objects) in the
 * page's language: ``label`` (short) and ``text`` (the sentence), the client's own words for
 * what the engine writes in English; null for a description it cannot read. */
export function describeMove(l) {
  if (!l || !l.kind) return null;
  if (l.kind === "done") return { label: _("Done (済み)"), text: _("Declare your setup done (済み).") };
  const p = PIECES[l.piece];
  if (!p || !l.to) return null;
  const values = { piece: p.name, kanji: p.kanji, from: l.from, to: l.to };
  const stack = Number(l.tier) > 1;
  let label;
  let text;
  if (l.kind === "place") {
    label = fmt(_("Place {piece} at {to}"), values);
    text = fmt(stack ? _("Place your {piece} ({kanji}) from your hand onto the stack at {to}.") : _("Place your {piece} ({kanji}) from your hand on {to}."), values);
  } else if (l.kind === "drop") {
    label = fmt(_("Drop (新) {piece} at {to}"), values);
    text = fmt(stack ? _("Drop your {piece} ({kanji}) from your hand onto the stack at {to}.") : _("Drop your {piece} ({kanji}) from your hand on {to}."), values);
  } else if (l.kind === "capture") {
    label = fmt(_("{piece} {from} takes on {to}"), values);
    text = fmt(_("Move your {piece} ({kanji}) from {from} to {to}, capturing (取)."), values);
  } else if (l.kind === "move") {
    label = fmt(_("Move {piece} {from} to {to}"), values);
    text = fmt(stack ? _("Move your {piece} ({kanji}) from {from} to {to} onto the stack (付).") : _("Move your {piece} ({kanji}) from {from} to {to}."), values);
  } else {
    return null;
  }
  const turned = Array.isArray(l.betrayal) ? l.betrayal.map((t) => PIECES[t.piece]).filter(Boolean) : [];
  if (turned.length) {
    const names = new Intl.ListFormat(language(), { type: "conjunction" }).format(turned.map((t) => `${t.name} (${t.kanji})`));
    text = [text, fmt(_("The enemy {names} turn to your side (返)."), { names })].join(" "); // two sentences
  }
  return { label, text };
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

/** A legal row (the server's description) as the renderer uses it: squares without tiers. */
function legalMove(row) {
  const square = (cell) => (cell ? cell.split("-").slice(0, 2).join("-") : null);
  const done = row.kind === "done";
  const drop = row.from === "hand";
  return {
    done,
    drop,
    piece: row.piece,
    from: drop ? null : square(row.from),
    to: square(row.to),
    tier: Number(row.tier || 0),
    capture: row.kind === "capture",
    stack: !drop && row.kind !== "capture" && Number(row.tier || 0) > 1,
  };
}

/** The notation's kanji mark of a kind of move, in brackets: words alone in English mode. */
function markOf(kanji, labels) {
  return labels === "english" ? "" : ` (${kanji})`;
}

/** What tells apart two moves to one square: capture, stack, drop, and the tier it lands on. */
function choiceHeading(m, labels) {
  const mv = m.move;
  if (mv.done) return fmt(_("Done{mark}"), { mark: markOf("済み", labels) });
  if (mv.capture) return fmt(_("Capture{markOf}, landing on tier {tier}"), { markOf: markOf("取", labels), tier: mv.tier });
  if (mv.drop) return fmt(m.kind === "place" ? _("Place on tier {tier}") : _("Drop{mark} on tier {tier}"), { mark: markOf("新", labels), tier: mv.tier });
  if (mv.stack) return fmt(_("Stack on top{markOf}, tier {tier}"), { markOf: markOf("付", labels), tier: mv.tier });
  return fmt(_("Move to tier {tier}"), { tier: mv.tier });
}

export default {
  name: "gungi",
  kanji: "軍儀",
  title: _("Gungi"),
  notationHint: _("Type a move, e.g. 7-6-1 兵"),
  stylesheet: true,
  // Nothing is hidden in Gungi: hot seat needs no "pass the device" screen.
  perfectInformation: true,
  tagline: _("Stacking chess on a 9x9 board: build towers, drop reserves, capture the Marshal."),
  howTo: [
    _("Each side has a Marshal (帥). Capture the enemy Marshal to win."),
    _("Pieces stack into towers up to two tiers (three in Advanced). A piece on a higher tier reaches further; only the top of a tower moves."),
    _("Move onto an enemy tower's top to capture it (取), or onto a tower to stack (付). Drop a piece from your hand (新) instead of moving."),
    _("Click one of your pieces (or a piece in your hand) to see where it may go; click a highlighted square to play."),
  ],
  seatName(seat) {
    return SIDE[COLORS[seat]] || fmt(_("Seat {x}"), { x: seat + 1 });
  },
  seatIcon(seat, labels) {
    return pieceIcon("marshal", COLORS[seat] || "white", labels, 26);
  },
  defaultFlip(seat) {
    return seat === 1;
  },
  statusNote(view) {
    if (!view || view.outcome) return "";
    const notes = [];
    if (view.phase === "setup") {
      // Worth saying only once a side has declared Done (both placing is the usual case).
      const still = (view.drafting || []).map((c) => SIDE[c] || c);
      if (still.length === 1) notes.push(fmt(_("Still placing: {x}."), { x: still[0] }));
    }
    (view.marshal_capturable || []).forEach((danger, i) => {
      if (danger) notes.push(fmt(_("{x}'s Marshal can be captured!"), { x: SIDE[COLORS[i]] }));
    });
    return notes.join(" ");
  },
  /** A move of the move list in English mode: its words ("Spear 9-3-2 takes on 8-2-1"),
   * since the notation spells its pieces in kanji; null keeps the notation. */
  moveText(event, labels) {
    const label = describeMove(event?.described)?.label || event?.described?.label;
    return labels === "english" && label ? noKanji(label) : null;
  },
  /** A described choice in the page's language (the analysis board's and the puzzles'
   * lists): { label, text }, or null to show the server's words. */
  describeChoice(l) {
    return describeMove(l);
  },
  /** What the player decides, in words (the page shows it as the prompt). */
  prompt({ view, legal }) {
    if (!legal?.length) return "";
    if (view?.phase === "setup") {
      const canDone = legal.some((l) => l.kind === "done");
      return canDone ? _("Setup: place a piece from your hand, or press Done.") : _("Setup: place a piece from your hand.");
    }
    const inDanger = (view?.marshal_capturable || [])[COLORS.indexOf(view?.to_move)];
    const kinds = new Set(legal.map((l) => l.kind));
    const ways = [kinds.has("move") ? _("move a piece") : null, kinds.has("capture") ? _("capture") : null, kinds.has("drop") ? _("drop a piece from your hand") : null].filter(Boolean);
    // "a, b or c" in the page's language (its list comma and its "or").
    const what = ways.length > 1 ? fmt(_("{some} or {last}"), { some: ways.slice(0, -1).join(_(", ")), last: ways[ways.length - 1] }) : ways[0] || promptFromLegal(legal, describeMove);
    return (inDanger ? _("Your Marshal is attacked! ") : "") + fmt(_("Your move: {what}. Pick a piece, then a highlighted square."), { what });
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
    this.boardWrap = el("div.board-wrap.board-fit");
    this.bottomHand = el("div.hand.bottom");
    this.setupDone = el("div.setup-done.actions");
    this.info = el("div.tower-info", { "aria-live": "polite" });
    this.chooser = el("div.chooser", { hidden: true });
    // The page's dock (beside the board, always on screen) takes the hands, Done and the tower
    // details; a page without one (the replay) gets them around the board.
    this.dock = ctx?.dock || null;
    if (this.dock) {
      clear(this.dock).append(el("div.gungi-dock.gungi", {}, this.topHand, this.bottomHand, this.setupDone, this.info));
      root.append(this.boardWrap, this.chooser);
    } else {
      root.append(this.topHand, this.boardWrap, this.bottomHand, this.setupDone, this.chooser, this.info);
    }
    this.shownLast = undefined;
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
      move: legalMove(l),
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
          : mv.drop && mv.piece === this.selected.piece;
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
    const last = lastMoveOf(this.model.lastMove);
    const board = svg("svg", {
      viewBox: `0 0 ${SIZE} ${SIZE}`,
      class: "board",
      role: "group",
      "aria-label": _("Gungi board"),
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
      const mark = (square, role) => {
        const [x, y] = xy(square, flipped);
        markLastMove(board, { x, y, width: S, height: S }, role);
      };
      if (last.from) mark(last.from, "from");
      mark(last.to, "to");
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
    // The engine's preferred move (the replay's analysis, ``model.bestMove``): a green arrow
    // from its square (none for a drop from the hand) and a frame on its target, over the
    // pieces and under the click targets.
    const best = lastMoveOf(this.model.bestMove);
    if (best && !best.done) {
      const centre = (square) => xy(square, flipped).map((v) => v + S / 2);
      const [tx, ty] = centre(best.to);
      const g = svg("g", { class: "best-move", "data-best": best.to, "aria-hidden": "true" });
      const [x, y] = xy(best.to, flipped);
      g.append(svg("rect", { x: x + 6, y: y + 6, width: S - 12, height: S - 12, rx: 8, class: "best-frame" }));
      if (best.from) {
        const [fx, fy] = centre(best.from);
        const len = Math.hypot(tx - fx, ty - fy) || 1;
        const [ux, uy] = [(tx - fx) / len, (ty - fy) / len];
        const [ex, ey] = [tx - ux * 26, ty - uy * 26]; // the head ends at the frame
        const head = `${ex + ux * 20},${ey + uy * 20} ${ex - uy * 14},${ey + ux * 14} ${ex + uy * 14},${ey - ux * 14}`;
        g.append(svg("line", { x1: fx, y1: fy, x2: ex, y2: ey, class: "best-shaft" }));
        g.append(svg("polygon", { points: head, class: "best-head" }));
        g.dataset.from = best.from;
      }
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
            // keyboard.js: a square is picked with Enter, the arrows move as the player sees it
            "data-pick": `sq:${square}`,
            "data-grid": "board",
            "data-row": Math.round((y - M) / S),
            "data-col": Math.round((x - M) / S),
            "data-choice": targets.has(square) ? "" : null,
            "aria-label": this.squareLabel(square, towers.get(square), targets.has(square)),
            onclick: () => this.clickSquare(square),
          }),
        );
        if (towers.has(square)) tooltip(board.lastChild, () => this.towerTip(square));
      }
    }
    hideTip();
    clear(this.boardWrap).append(board);
    this.animateLast(board, last);
    this.drawHands();
    this.drawInfo(towers);
  }

  /** The piece that just arrived slides in from where it came (a drop fades in): once per
   * new move, never on the first drawing nor under prefers-reduced-motion (ui.js). */
  animateLast(board, last) {
    const key = this.model.lastAction || null;
    const first = this.shownLast === undefined;
    const changed = key !== this.shownLast;
    this.shownLast = key;
    if (first || !changed || !last || last.done) return;
    const top = board.querySelector(`.tower[data-square="${last.to}"] .piece:last-of-type`);
    if (!top) return;
    if (last.from) {
      const [fx, fy] = xy(last.from, this.model.flipped);
      const [tx, ty] = xy(last.to, this.model.flipped);
      animateArrival(top, { dx: fx - tx, dy: fy - ty });
    } else {
      animateArrival(top);
    }
  }

  /** What a tower is and what its top piece may do now (hover, focus or long-press). */
  towerTip(square) {
    const tower = this.towers().get(square) || [];
    if (!tower.length) return "";
    const top = tower[tower.length - 1];
    const name = `${SIDE[top.color]} ${PIECES[top.piece]?.name || top.piece} (${PIECES[top.piece]?.kanji || ""})`;
    const under = tower.slice(0, -1).map((p) => `${SIDE[p.color]} ${PIECES[p.piece]?.name || p.piece}`);
    const reach = tower.length > 1 ? fmt(_("On tier {length}: it reaches {x} further than on the ground."), { length: tower.length, x: tower.length - 1 }) : _("On the ground (tier 1).");
    const moves = this.moves.filter((m) => m.move.from === square);
    const can = this.model.interactive && COLORS.indexOf(top.color) === this.model.seat ? fmt(ngettext(" It has {n} legal move now.", " It has {n} legal moves now.", moves.length), { n: moves.length }) : "";
    return `${name} at ${square}. ${reach}${under.length ? ` Below it: ${under.reverse().join(", ")}.` : ""}${can}`;
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
    const dropKinds = new Set(this.moves.filter((m) => m.move.drop).map((m) => m.move.piece));
    const done = this.moves.find((m) => m.move && m.move.done);
    for (const [box, color] of [
      [this.topHand, top],
      [this.bottomHand, bottom],
    ]) {
      clear(box);
      box.dataset.color = color;
      const hand = (view.hands || {})[color] || {};
      box.append(el("span.hand-label", {}, fmt(_("{x} hand"), { x: SIDE[color] })));
      const names = Object.keys(PIECES).filter((n) => hand[n]);
      if (!names.length) box.append(el("span.hand-empty", {}, "empty"));
      box.classList.toggle("mine", COLORS.indexOf(color) === this.model.seat);
      for (const name of names) {
        const mine = dropKinds.has(name) && COLORS.indexOf(color) === this.model.seat;
        const selected = this.selected?.kind === "hand" && this.selected.piece === name && mine;
        const drops = this.moves.filter((m) => m.move.drop && m.move.piece === name).length;
        const held = fmt(_("{side} {piece}{mark}, {n} in hand."), { side: SIDE[color], piece: PIECES[name].name, mark: markOf(PIECES[name].kanji, labels), n: hand[name] });
        const how = this.model.view.phase === "setup" ? _(" Pick it, then one of {n} highlighted squares, to place it.") : _(" Pick it, then one of {n} highlighted squares, to drop{mark} it.");
        const tip = held + (mine ? fmt(how, { n: drops, mark: markOf("新", labels) }) : "");
        box.append(
          tooltip(el(
            `button.hand-piece${mine ? ".droppable" : ""}${selected ? ".selected" : ""}`,
            {
              type: "button",
              "data-piece": name,
              "data-color": color,
              "aria-disabled": mine ? null : "true",
              "aria-label": fmt(_("{x} {x2}, {x3} in hand"), { x: SIDE[color], x2: PIECES[name].name, x3: hand[name] }),
              onclick: () => mine && this.clickHand(name),
            },
            pieceIcon(name, color, labels, 34),
            el("span.count", {}, `×${hand[name]}`),
          ), tip),
        );
      }
    }
    clear(this.setupDone);
    if (done) {
      this.setupDone.append(
        el("button.primary.done-button", { type: "button", id: "setup-done", title: describeMove(done)?.text || done.text, onclick: () => this.model.send(done.action) }, fmt(_("Done{markOf}: my army is set"), { markOf: markOf("済み", labels) })),
      );
    }
  }

  drawInfo(towers) {
    const { labels } = this.model;
    clear(this.info);
    const square = this.inspect || this.selected?.square;
    const tower = square && towers.get(square);
    if (!tower) {
      this.info.append(
        el("span.muted", {}, this.model.interactive ? _("Tap a piece to see its tower and moves.") : _("Tap a tower to see its tiers.")),
      );
      return;
    }
    this.info.append(el("strong", {}, fmt(_("Tower {square}"), { square })));
    const list = el("ol.tiers", { reversed: true });
    [...tower].reverse().forEach((p, i) => {
      list.append(
        el(
          "li",
          {},
          pieceIcon(p.piece, p.color, labels, 24),
          fmt(_(" tier {tier}: {kanji}{piece} ({side})"), { tier: tower.length - i, kanji: labels === "english" ? "" : `${PIECES[p.piece]?.kanji || ""} `, piece: PIECES[p.piece]?.name || p.piece, side: SIDE[p.color] }),
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
    this.chooser.append(el("div.chooser-title", {}, fmt(_("Which move to {square}?"), { square })));
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
          el("span.choice-notation", {}, choiceHeading(m, this.model.labels)),
          // In English the sentence loses its kanji marks and the (kanji) notation.
          el("span.choice-text", {}, this.model.labels === "english" ? noKanji(describeMove(m)?.text || m.text || m.label || "") : `${describeMove(m)?.text || m.text || m.label || ""} (${m.short || m.action})`),
        ),
      );
    }
    this.chooser.append(el("button.link", { type: "button", onclick: () => this.hideChooser() }, _("Cancel")));
  }

  hideChooser() {
    this.chooser.hidden = true;
    clear(this.chooser);
  }

  destroy() {
    clear(this.root);
  }
}
