// Gunkimono: the battlefield (troops, tile levels, strongholds), the face-up row, your hand,
// the honor track and banners. Click a square to narrow the legal moves to those touching it,
// then pick the move; hovering a move outlines the squares it uses.

import { el, svg, clear } from "../ui.js";
import { actionPicker } from "./generic.js";

const TROOPS = {
  I: { name: "Infantry", color: "#8c6d3f", mark: "歩" },
  S: { name: "Samurai", color: "#a23b2c", mark: "侍" },
  C: { name: "Cavalry", color: "#3c6e8f", mark: "騎" },
  P: { name: "Spearman", color: "#4f7a3a", mark: "槍" },
  A: { name: "Archer", color: "#6b4f8a", mark: "弓" },
};
const SEAT_COLORS = ["#c8553d", "#2f6690", "#5b8e3e", "#8a5a9b", "#c99a2e"];
const SEAT_SHAPES = ["●", "■", "▲", "◆", "★"];
const S = 64;
const M = 26;

function cellName(i, width) {
  return `${String.fromCharCode(97 + (i % width))}${Math.floor(i / width) + 1}`;
}

function cellsOf(action) {
  return [...action.matchAll(/([a-j])([1-9])(?![0-9])/gu)].map((m) => `${m[1]}${m[2]}`);
}

function tileChip(code) {
  // "I1S2": two troops with their stronghold symbols; "I" alone for a small tile.
  const parts = [...String(code).matchAll(/([ISCPA])(\d?)/gu)];
  return el(
    "span.tile-chip",
    { title: parts.map((p) => `${TROOPS[p[1]]?.name || p[1]}${p[2] ? ` (${p[2]} symbol${p[2] === "1" ? "" : "s"})` : ""}`).join(" + ") },
    parts.map((p) => el("span.tile-half", { style: `background:${TROOPS[p[1]]?.color || "#777"}` }, p[1], p[2] ? el("sup", {}, p[2]) : null)),
  );
}

/** The honor track: a column per troop type, every player's marker, stronghold rows, banners. */
function honorTrack(v) {
  const types = Object.keys(TROOPS);
  const end = v.ending_row || 10;
  const strongRows = new Set(v.stronghold_rows || []);
  const CW = 64;
  const RH = 24;
  const top = 34;
  const width = types.length * CW + 40;
  const height = top + (end + 1) * RH + 8;
  const box = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "honor-track", role: "img", "aria-label": "Honor track" });
  box.append(svg("rect", { x: 0, y: 0, width, height, rx: 10, class: "honor-bg" }));
  for (let row = 0; row <= end; row++) {
    const y = top + (end - row) * RH;
    const cls = row === end ? "honor-row end" : strongRows.has(row) ? "honor-row strong" : "honor-row";
    box.append(svg("rect", { x: 30, y, width: types.length * CW, height: RH, class: cls }));
    box.append(svg("text", { x: 15, y: y + 16, "text-anchor": "middle", class: "honor-num" }, row));
  }
  types.forEach((t, k) => {
    const x = 30 + k * CW;
    box.append(svg("text", { x: x + CW / 2, y: 16, "text-anchor": "middle", class: "honor-head", fill: TROOPS[t].color }, `${TROOPS[t].mark} ${(v.banner_stacks?.[k] || []).length}⚑`));
    box.append(svg("title", {}, `${TROOPS[t].name}: banners left ${(v.banner_stacks?.[k] || []).join(", ") || "none"}`));
    (v.players || []).forEach((p, seat) => {
      const level = p.honor?.[k];
      if (level === null || level === undefined || level < 0) return;
      const y = top + (end - Math.min(level, end)) * RH + RH / 2;
      const cx = x + 12 + seat * ((CW - 20) / Math.max(1, v.players.length - 1 || 1));
      box.append(svg("text", { x: cx, y: y + 6, "text-anchor": "middle", class: "honor-marker", fill: SEAT_COLORS[seat % 5], "data-seat": seat, "data-troop": t, "data-level": level }, SEAT_SHAPES[seat % 5]));
    });
  });
  return box;
}

export default {
  name: "gunkimono",
  kanji: "軍記物",
  title: "Gunkimono",
  tagline: "Place army tiles on the battlefield, score formations or honor, build strongholds.",
  notationHint: "Type a move, e.g. I1@a1 A2@b1",
  howTo: [
    "On your turn place a tile from your hand onto the battlefield: each half covers a square of its troop type or raises a level.",
    "Score the troops you place (victory points) or climb the honor track for that troop type; banners reward the first to reach them.",
    "Build strongholds in large formations: at the end, formations with your strongholds score.",
    "Click a square to see the moves that use it, then pick one.",
  ],
  seatName(seat) {
    return `Player ${seat + 1}`;
  },
  seatIcon(seat) {
    return el("span.seat-shape", { style: `color:${SEAT_COLORS[seat % 5]}` }, SEAT_SHAPES[seat % 5]);
  },
  defaultFlip() {
    return false;
  },
  statusNote(view) {
    if (!view) return "";
    const bits = [`Phase: ${view.phase}`];
    if (view.stack_size !== undefined) bits.push(`${view.stack_size} tiles in the stack`);
    if (view.end_triggered) bits.push("the end has been triggered");
    return bits.join(" · ");
  },
  create(root) {
    root.classList.add("gunkimono");
    let focus = null;
    let highlight = [];
    let model = null;
    let lastKey = "";
    const draw = () => {
      const v = model.view;
      const b = v.board;
      const w = b.width;
      const h = b.height;
      const board = svg("svg", { viewBox: `0 0 ${w * S + 2 * M} ${h * S + 2 * M}`, class: "board kimono-board", role: "img", "aria-label": "Gunkimono battlefield" });
      board.append(svg("rect", { x: 0, y: 0, width: w * S + 2 * M, height: h * S + 2 * M, rx: 14, class: "frame" }));
      // Outline the squares the legal moves use, unless nearly every square is one (noise).
      let legalCells = new Set(model.interactive ? model.legal.flatMap((l) => cellsOf(l.action)) : []);
      if (legalCells.size > (w * h) / 3) legalCells = new Set();
      for (let i = 0; i < w * h; i++) {
        const x = M + (i % w) * S;
        const y = M + Math.floor(i / w) * S;
        const name = cellName(i, w);
        const troop = TROOPS[b.troops[i]] || { color: "#999", mark: "?" };
        const level = b.levels[i] || 0;
        const g = svg("g", { class: "cell", "data-cell": name, "data-level": level });
        // Paper under the troop colour; each tile level deepens the colour and the edge.
        g.append(svg("rect", { x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 6, fill: "#f4ede0" }));
        g.append(svg("rect", { x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 6, fill: troop.color, "fill-opacity": 0.55 + Math.min(level, 3) * 0.15, class: "cell-bg", "stroke-width": level ? 2 + level * 1.5 : 0 }));
        g.append(svg("text", { x: x + S / 2, y: y + S / 2 + 9, "text-anchor": "middle", class: "cell-mark" }, troop.mark));
        if (level) g.append(svg("text", { x: x + 8, y: y + 17, class: "cell-level" }, `L${level}`));
        for (let k = 0; k < (b.symbols[i] || 0); k++) g.append(svg("circle", { cx: x + S - 10 - k * 9, cy: y + 10, r: 3.5, class: "cell-symbol" }));
        const owner = b.strongholds[i];
        if (owner >= 0) {
          g.append(svg("rect", { x: x + 6, y: y + S - 24, width: 18, height: 18, rx: 3, fill: SEAT_COLORS[owner % 5], class: "stronghold" }));
          g.append(svg("text", { x: x + 15, y: y + S - 10, "text-anchor": "middle", class: "stronghold-mark" }, SEAT_SHAPES[owner % 5]));
        }
        if (legalCells.has(name)) g.append(svg("rect", { x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 6, class: "cell-legal" }));
        if (highlight.includes(name)) g.append(svg("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 6, class: "cell-hover" }));
        if (focus === name) g.append(svg("rect", { x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 6, class: "cell-focus" }));
        g.append(svg("rect", { x, y, width: S, height: S, class: "hit", "data-sq": name, onclick: () => { focus = focus === name ? null : name; draw(); } }));
        board.append(g);
      }
      for (let c = 0; c < w; c++) board.append(svg("text", { x: M + c * S + S / 2, y: M - 8, "text-anchor": "middle", class: "coord" }, String.fromCharCode(97 + c)));
      for (let r = 0; r < h; r++) board.append(svg("text", { x: M / 2, y: M + r * S + S / 2 + 6, "text-anchor": "middle", class: "coord" }, r + 1));
      const legal = focus ? model.legal.filter((l) => cellsOf(l.action).includes(focus)) : model.legal;
      const picker = actionPicker({ ...model, legal });
      picker.addEventListener("mouseover", (e) => {
        const a = e.target.closest("[data-action]");
        const cells = a ? cellsOf(a.dataset.action) : [];
        if (cells.join() !== highlight.join()) {
          highlight = cells;
          for (const node of board.querySelectorAll(".cell-hover")) node.remove();
          for (const name of cells) {
            const g = board.querySelector(`[data-cell="${name}"] .cell-bg`);
            if (g) g.parentNode.append(svg("rect", { x: Number(g.getAttribute("x")) + 1, y: Number(g.getAttribute("y")) + 1, width: S - 6, height: S - 6, rx: 6, class: "cell-hover" }));
          }
        }
      });
      const players = el("div.kimono-players", {}, (v.players || []).map((p, s) =>
        el("div.kimono-player", { "data-seat": s },
          el("span.seat-shape", { style: `color:${SEAT_COLORS[s % 5]}` }, SEAT_SHAPES[s % 5]),
          el("strong", {}, `Player ${s + 1}`), ` ${p.score} VP`,
          el("span.honor", {}, Object.keys(TROOPS).map((t, k) => el("span.honor-step", { title: `${TROOPS[t].name} honor ${p.honor?.[k] ?? 0}`, style: `border-color:${TROOPS[t].color}` }, `${t}${p.honor?.[k] ?? 0}`))),
          p.banners?.length ? el("span.banners", {}, `banners: ${p.banners.join(", ")}`) : null,
          el("span.muted", {}, ` · strongholds left ${p.strongholds_left}`),
          p.hand ? el("div.hand-tiles", {}, el("span.muted", {}, "Hand: "), p.hand.map(tileChip)) : el("div.muted", {}, `${p.hand_size} tiles in hand`),
        )));
      const track = el("details.honor-box", { open: true }, el("summary", {}, "Honor track"), honorTrack(v), el("p.muted", {}, "Shaded rows: strongholds; top row: banners (⚑ left per column)."));
      clear(root).append(
        el("div.kimono-row", {}, el("span.muted", {}, "Face-up row: "), (v.row || []).map(tileChip)),
        el("div.board-wrap", {}, board),
        ...(focus ? [el("div.muted", {}, `Moves using ${focus} (tap it again to show all):`)] : []),
        picker,
        players,
        track,
      );
    };
    return {
      update(m) {
        const key = m.legal.map((l) => l.action).join("|");
        if (model && key !== lastKey) focus = null;
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
