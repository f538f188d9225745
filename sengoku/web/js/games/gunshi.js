// Gunshi: the 7x7 field with each unit's type, facing and shield, fences on edges, both
// Command Rows (the opponent's face-down cards as backs), hands, decks and logistics points.
// Clicking a cell plays the one move that names it, or narrows the moves to those naming it.

import { el, svg, clear } from "../ui.js";
import { actionPicker } from "./generic.js";

const SIDES = [
  { name: "Red", color: "#b3372a", light: "#f3d2cb", mark: "▲" },
  { name: "Blue", color: "#2f5d8a", light: "#cfdcec", mark: "▼" },
];
const TYPES = { I: { name: "Infantry", kanji: "歩" }, A: { name: "Archer", kanji: "弓" }, C: { name: "Cavalry", kanji: "騎" } };
const DIRS = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };
const S = 100;
const M = 30;
const COLS = "abcdefg";

function cellXY(name, flipped) {
  let x = COLS.indexOf(name[0]);
  let y = 7 - Number(name.slice(1)); // row 7 (north) at the top
  if (flipped) {
    x = 6 - x;
    y = 6 - y;
  }
  return [M + x * S, M + y * S];
}

/** The cell an action names (``at d3``, ``unit d3``, ``to d3``, ``fence d3n``...), if any. */
function cellOf(action) {
  const m = action.match(/^\S+ ([a-g][1-7])([ne])?$/u);
  return m ? m[1] : null;
}

function card(code, owner, hidden) {
  if (code === null || code === undefined || hidden) {
    return el("span.gcard.back", { title: "a face-down card", style: `background:${SIDES[owner].color}` }, "軍");
  }
  return el("span.gcard", { title: String(code), style: `border-color:${SIDES[owner].color}` }, String(code));
}

export default {
  name: "gunshi",
  kanji: "軍師",
  title: "Gunshi",
  notationHint: "Type a move, e.g. at d3",
  tagline: "Tactics on a 7x7 field: units with facing, shields and fences, commanded by cards.",
  howTo: [
    "Each side fields Infantry, Archers and Cavalry on a 7x7 field; a unit's facing decides where it can move and shoot, and its shield protects its front.",
    "Fences on the edges between cells block movement. Command cards, played from your Command Row, move and fight; your opponent sees only their backs until they are played.",
    "Win by bringing units onto the enemy's Invader Spots or by exhausting the enemy's logistics.",
    "Click a cell to play the move that names it (or to see the moves that do); other choices are buttons.",
  ],
  seatName(seat) {
    return SIDES[seat]?.name || `Seat ${seat + 1}`;
  },
  seatIcon(seat) {
    return el("span.seat-shape", { style: `color:${SIDES[seat % 2].color}` }, SIDES[seat % 2].mark);
  },
  defaultFlip(seat) {
    return seat === 1;
  },
  statusNote(view) {
    if (!view) return "";
    return [view.phase && `Phase: ${view.phase}`, view.step && `step: ${view.step}`].filter(Boolean).join(" · ");
  },
  create(root) {
    root.classList.add("gunshi");
    let model = null;
    let focus = null;
    let lastKey = "";
    const draw = () => {
      const v = model.view;
      const flipped = model.flipped;
      const legal = model.interactive ? model.legal : [];
      const byCell = new Map();
      for (const l of legal) {
        const c = cellOf(l.action);
        if (!c) continue;
        if (!byCell.has(c)) byCell.set(c, []);
        byCell.get(c).push(l);
      }
      const size = 7 * S + 2 * M;
      const board = svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "board gunshi-board", role: "img", "aria-label": "Gunshi field" });
      board.append(svg("rect", { x: 0, y: 0, width: size, height: size, rx: 16, class: "frame" }));
      for (let r = 1; r <= 7; r++) {
        for (let c = 0; c < 7; c++) {
          const name = `${COLS[c]}${r}`;
          const [x, y] = cellXY(name, flipped);
          // The back lines are the Invasion Zones (the whole line, or its 3 centre cells).
          const zone = (r === 1 || r === 7) && (v.options?.invasion_zone !== "centre_three" || (c >= 2 && c <= 4));
          const back = zone ? (r === 1 ? "home-red" : "home-blue") : (r + c) % 2 ? "field-a" : "field-b";
          board.append(svg("rect", { x, y, width: S, height: S, class: `gcell ${back}`, "data-zone": zone ? (r === 1 ? "blue-invades" : "red-invades") : null }));
        }
      }
      for (let i = 0; i < 7; i++) {
        const col = flipped ? COLS[6 - i] : COLS[i];
        const row = flipped ? i + 1 : 7 - i;
        board.append(svg("text", { x: M + i * S + S / 2, y: M - 8, "text-anchor": "middle", class: "coord" }, col));
        board.append(svg("text", { x: M / 2, y: M + i * S + S / 2 + 7, "text-anchor": "middle", class: "coord" }, row));
      }
      // Fences: thick bars on the north or east edge of their cell.
      for (const f of v.fences || []) {
        const cell = f.edge.slice(0, -1);
        const side = f.edge.slice(-1);
        const [x, y] = cellXY(cell, flipped);
        let line;
        if (side === "n") {
          const yy = flipped ? y + S : y;
          line = { x1: x + 6, y1: yy, x2: x + S - 6, y2: yy };
        } else {
          const xx = flipped ? x : x + S;
          line = { x1: xx, y1: y + 6, x2: xx, y2: y + S - 6 };
        }
        board.append(svg("line", { ...line, class: "fence", stroke: SIDES[f.owner].color, "data-edge": f.edge }));
      }
      for (const u of v.units || []) {
        const [x, y] = cellXY(u.cell, flipped);
        const cx = x + S / 2;
        const cy = y + S / 2;
        let [dx, dy] = DIRS[u.facing] || [0, -1];
        if (flipped) {
          dx = -dx;
          dy = -dy;
        }
        const side = SIDES[u.owner];
        const g = svg("g", { class: "gunit", "data-cell": u.cell, "data-owner": u.owner, "data-type": u.type, "data-facing": u.facing });
        // Red units are round, Blue units square: sides differ by shape as well as colour.
        if (u.owner === 0) g.append(svg("circle", { cx, cy, r: 34, fill: side.light, stroke: side.color, "stroke-width": 5 }));
        else g.append(svg("rect", { x: cx - 32, y: cy - 32, width: 64, height: 64, rx: 8, fill: side.light, stroke: side.color, "stroke-width": 5 }));
        // The facing: a wedge on the front edge; a shield is a thick bar across it.
        const px = -dy;
        const py = dx;
        const tip = [cx + dx * 46, cy + dy * 46];
        const b1 = [cx + dx * 32 + px * 13, cy + dy * 32 + py * 13];
        const b2 = [cx + dx * 32 - px * 13, cy + dy * 32 - py * 13];
        g.append(svg("polygon", { points: `${tip} ${b1} ${b2}`, fill: side.color }));
        if (u.shield) {
          g.append(svg("line", { x1: cx + dx * 40 + px * 26, y1: cy + dy * 40 + py * 26, x2: cx + dx * 40 - px * 26, y2: cy + dy * 40 - py * 26, class: "shield" }));
        }
        g.append(svg("text", { x: cx, y: cy + 11, "text-anchor": "middle", class: "gunit-kanji" }, TYPES[u.type]?.kanji || u.type));
        g.append(svg("text", { x: x + 14, y: y + S - 8, "text-anchor": "middle", class: "gunit-letter" }, u.letter));
        g.append(svg("title", {}, `${side.name} ${TYPES[u.type]?.name || u.type} ${u.letter}, facing ${u.facing}${u.shield ? ", shielded" : ""}`));
        board.append(g);
      }
      for (const [name] of byCell) {
        const [x, y] = cellXY(name, flipped);
        board.append(svg("rect", { x: x + 5, y: y + 5, width: S - 10, height: S - 10, rx: 10, class: "gtarget", "data-target": name }));
      }
      if (focus) {
        const [x, y] = cellXY(focus, flipped);
        board.append(svg("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 10, class: "gfocus" }));
      }
      for (let r = 1; r <= 7; r++) {
        for (let c = 0; c < 7; c++) {
          const name = `${COLS[c]}${r}`;
          const [x, y] = cellXY(name, flipped);
          board.append(
            svg("rect", {
              x,
              y,
              width: S,
              height: S,
              class: "hit",
              "data-sq": name,
              onclick: () => {
                const options = byCell.get(name) || [];
                if (options.length === 1) {
                  focus = null;
                  model.send(options[0].action);
                  return;
                }
                focus = focus === name || !options.length ? null : name;
                draw();
              },
            }),
          );
        }
      }
      const shown = focus ? legal.filter((l) => cellOf(l.action) === focus) : legal;
      const players = (v.players || []).map((p, s) =>
        el(
          "div.gplayer",
          { "data-seat": s, style: `border-left-color:${SIDES[s].color}` },
          el("div.gplayer-head", {}, el("strong", {}, SIDES[s].mark, " ", p.colour || SIDES[s].name), el("span", {}, `${p.points} logistics`), el("span", {}, `${p.invaders} invader${p.invaders === 1 ? "" : "s"}`), el("span", {}, `${p.fences_left} fences left`)),
          el("div.gcards", {}, el("span.muted", {}, "Command Row: "), p.row?.length ? p.row.map((c) => card(c, s, c === null)) : el("span.muted", {}, "empty")),
          p.lightning !== null && p.lightning !== undefined ? el("div.gcards", {}, el("span.muted", {}, "Lightning: "), card(p.lightning, s, false)) : "",
          Array.isArray(p.hand) && p.hand.length ? el("div.gcards", {}, el("span.muted", {}, "Hand: "), p.hand.map((c) => card(c, s, c === null))) : "",
          Array.isArray(p.deck) && p.deck.length ? el("div.gcards", {}, el("span.muted", {}, "Deck (top first): "), p.deck.map((c) => card(c, s, c === null))) : "",
        ),
      );
      const top = model.flipped ? players[0] : players[1];
      const bottom = model.flipped ? players[1] : players[0];
      clear(root).append(
        top || "",
        el("div.board-wrap", {}, board),
        bottom || "",
        ...(focus ? [el("div.muted", {}, `Moves naming ${focus}:`)] : []),
        v.prompt?.rule && model.interactive ? el("div.prompt", {}, v.prompt.rule) : "",
        actionPicker({ ...model, legal: shown }),
      );
    };
    return {
      update(m) {
        const key = m.legal.map((l) => l.action).join("|");
        if (key !== lastKey) focus = null;
        lastKey = key;
        model = m;
        draw();
      },
      destroy() {
        clear(root);
      },
    };
  },
};
