// Gunkimono: the battlefield (printed troops, tiles by level, stronghold symbols and
// strongholds), your hand of two-half tiles and your reserve of small tiles, the face-up row,
// the honor track with its banners, and each player's score and its breakdown.
//
// Everything is drawn from view(seat) and from the server's descriptions of the legal
// choices (kind, label, text, tile, squares, troops...): no notation is read here. A tile is
// placed as on the table: pick it from your hand, turn it (Rotate, the R key or a right
// click), see its ghost on the board and click where it goes.

import { el, svg, clear } from "../ui.js";
import { _, N_, fmt, ngettext, word } from "../i18n.js";

// Each troop type's colour, its kanji and its short English label (the header's toggle picks
// one); its full name comes with the view (`troop_names`, from troops.json).
const TROOPS = {
  I: { color: "#8c6d3f", mark: "歩", short: _("Inf") },
  S: { color: "#a23b2c", mark: "侍", short: _("Sam") },
  C: { color: "#3c6e8f", mark: "騎", short: _("Cav") },
  P: { color: "#4f7a3a", mark: "槍", short: _("Spr") },
  A: { color: "#6b4f8a", mark: "弓", short: _("Arc") },
};
// The page's label preference (the model's `labels`), kept by the board at each update: the
// tile pictures below are drawn by helpers shared by the board, the hand and the row.
let LABELS = "kanji";
function english() {
  return LABELS === "english";
}
/** A troop type's mark on a tile, a square or the honor track: its kanji or English label. */
function troopMark(letter) {
  const t = TROOPS[letter];
  if (!t) return "?";
  return english() ? t.short : t.mark;
}
const ORDER = ["I", "S", "C", "P", "A"]; // the honor track's columns
// War banners by kind: their colour and the letter on their flag (D 11-15, C 6-10, L 1-5).
const BANNERS = { dragon: { mark: "D", color: "#b3372a" }, crane: { mark: "C", color: "#2f5d50" }, lotus: { mark: "L", color: "#b0508a" } };
const SEAT_COLORS = ["#c8553d", "#2f6690", "#5b8e3e", "#8a5a9b", "#c99a2e"];
// Each seat's shape as well as its colour (up to five players): its icon, its honor markers and
// its strongholds all carry it, so that no player is told apart by colour alone.
const SEAT_SHAPES = ["●", "■", "▲", "◆", "★"];
// (the data-shape attribute's values, and the shapes' words, translated where shown)
const SHAPE_NAMES = [N_("circle"), N_("square"), N_("triangle"), N_("diamond"), N_("star")];

/** Seat ``seat``'s shape (circle, square, triangle, diamond, star) of radius ``r`` at (cx, cy). */
function seatShape(seat, cx, cy, r, attrs = {}) {
  const k = seat % 5;
  const common = { fill: SEAT_COLORS[k], "data-shape": SHAPE_NAMES[k], ...attrs };
  if (k === 0) return svg("circle", { cx, cy, r, ...common });
  if (k === 1) return svg("rect", { x: cx - r * 0.88, y: cy - r * 0.88, width: r * 1.76, height: r * 1.76, ...common });
  const corners = k === 2 ? [[0, -1.1], [1, 0.75], [-1, 0.75]] : k === 3 ? [[0, -1.15], [1.15, 0], [0, 1.15], [-1.15, 0]] : [];
  if (k === 4) {
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      const d = i % 2 ? 0.5 : 1.2;
      corners.push([Math.cos(a) * d, Math.sin(a) * d]);
    }
  }
  return svg("polygon", { points: corners.map(([x, y]) => `${cx + x * r},${cy + y * r}`).join(" "), ...common });
}
const PHASE_WORDS = {
  place: _("placing a tile"),
  support: _("placing a large tile over extra support"),
  score: _("scoring"),
  stronghold: _("building a stronghold"),
  draw: _("refilling the hand"),
  over: _("game over"),
};
const S = 64; // one square
const M = 24; // margin for the coordinates
// Where the second half of a tile lies from its first, for each rotation: right, below,
// left, above (the first half is the tile's first troop, as the view lists its halves).
const TURNS = [N_("right"), N_("below"), N_("left"), N_("above")];

function seatName(seat) {
  return fmt(_("Player {x}"), { x: seat + 1 });
}

/** "1 tile", "2 stronghold symbols": in the language's plural forms (i18n.js). */
function tileCount(n) {
  return fmt(ngettext("{n} tile", "{n} tiles", n), { n });
}

function symbolCount(n) {
  return fmt(ngettext("{n} stronghold symbol", "{n} stronghold symbols", n), { n });
}

/** A square's name as the board's coordinates show it (column letter, row number). */
function cellName(i, width) {
  return `${String.fromCharCode(97 + (i % width))}${Math.floor(i / width) + 1}`;
}

// The troops' names for the move list, where no view is at hand (troops.json's order).
const TROOP_WORDS = { I: _("Infantry"), S: _("Samurai"), C: _("Cavalry"), P: _("Spearman"), A: _("Archer") };

/** A placement in words ("Infantry on g7 and Archer on h7", "a small Cavalry on h3"), from
 * the move's notation: the move list's entries, which carry nothing else. */
/** The squares of the engine's preferred move (its description, the server's data): the
 * squares a tile would cover, else the one it names (a stronghold, a score). */
export function bestSquares(described) {
  if (!described) return [];
  if (Array.isArray(described.cells) && described.cells.length) return described.cells.filter((c) => typeof c === "string");
  return typeof described.to === "string" ? [described.to] : [];
}

export function placementWords(action) {
  const text = String(action || "");
  const small = /^(small|support) ([A-Z])@([a-z]+\d+)$/.exec(text);
  if (small) {
    const troop = TROOP_WORDS[small[2]] || small[2];
    return small[1] === "small" ? fmt(_("a small {troop} on {x}"), { troop, x: small[3] }) : fmt(_("a small {troop} face down on {x}, as extra support"), { troop, x: small[3] });
  }
  const halves = text.split(" ").map((h) => /^([A-Z])\d*@([a-z]+\d+)$/.exec(h));
  if (halves.length === 2 && halves.every(Boolean)) {
    const [a, b] = halves;
    return fmt(_("{first} on {a} and {second} on {b}"), { first: TROOP_WORDS[a[1]] || a[1], a: a[2], second: TROOP_WORDS[b[1]] || b[1], b: b[2] });
  }
  return null;
}

/** Whose turn it is and what they do ("Player 2 is scoring"). */
function turnWords(seat, phase) {
  return fmt(_("{seatName} is {doing}"), { seatName: seatName(seat), doing: PHASE_WORDS[phase] || phase });
}

/** The two troops of a large tile, by the letters of its halves ({first}, {second}). */
function tileTroops(v, halves) {
  return { first: troopName(v, halves[0].troop), second: troopName(v, halves[1].troop) };
}

/** A legal choice's label, worded here from its data (the server's description: its kind,
 * troops, squares, points), so that it reads in the page's language; the engine's own
 * English label for a kind this page does not know. */
function choiceLabel(v, row) {
  const troop = row.troop ? troopName(v, row.troop) : "";
  switch (row.kind) {
    case "place_tile": {
      const [a, b] = row.troops || [];
      if (!a || !b) break;
      return fmt(_("Place {first}/{second} tile on {a}-{b}"), { first: troopName(v, a.troop), second: troopName(v, b.troop), a: a.cell, b: b.cell });
    }
    case "small_tile":
      return fmt(_("Place small {troop} tile on {square}"), { troop, square: row.to });
    case "support":
      return fmt(_("Support with small {troop} on {square}"), { troop, square: row.to });
    case "score_vp":
      return fmt(_("Victory points +{points}: {troop} formation of {points}"), { troop, points: row.points });
    case "score_honor":
      return row.banner ? fmt(_("Honor +{points}: {troop} marker to the banners"), { troop, points: row.points }) : fmt(_("Honor +{points}: {troop} marker to row {row}"), { troop, points: row.points, row: row.row });
    case "stronghold": {
      const letter = v.board?.troops?.[row.squares?.[0]];
      return fmt(_("Stronghold on {troop} {square} (formation of {points})"), { troop: letter ? troopName(v, letter) : "", square: row.to, points: row.points });
    }
    case "draw":
      return _("Draw from the stack");
    case "take": {
      const face = v.tiles?.[row.tile];
      if (!face) break;
      return fmt(_("Take {first}/{second} tile"), tileTroops(v, face.halves));
    }
  }
  return row.label;
}

/** A legal choice's description (a button's title, the line under the board), worded here
 * from its data as its label is. */
function choiceText(v, row) {
  const troop = row.troop ? troopName(v, row.troop) : "";
  switch (row.kind) {
    case "place_tile": {
      const [a, b] = row.troops || [];
      if (!a || !b) break;
      return fmt(_("Place your {first}/{second} tile with the {first} ({firstSymbols}) on {a} and the {second} ({secondSymbols}) on {b}."), {
        first: troopName(v, a.troop),
        second: troopName(v, b.troop),
        firstSymbols: symbolCount(a.symbols),
        secondSymbols: symbolCount(b.symbols),
        a: a.cell,
        b: b.cell,
      });
    }
    case "small_tile":
      return fmt(_("Place your small {troop} tile face up on {square}."), { troop, square: row.to });
    case "support":
      return fmt(_("Place your small {troop} tile face down on {square} as extra support for the large tile you place next."), { troop, square: row.to });
    case "score_vp":
      return fmt(ngettext("Score {points} victory point for the {troop} on {square} (the size of its formation).", "Score {points} victory points for the {troop} on {square} (the size of its formation).", row.points), { troop, square: row.to, points: row.points });
    case "score_honor":
      return row.banner
        ? fmt(ngettext("Score {points} honor point for the {troop} on {square} (its stronghold symbols): your {troop} marker moves up to the banners.", "Score {points} honor points for the {troop} on {square} (its stronghold symbols): your {troop} marker moves up to the banners.", row.points), { troop, square: row.to, points: row.points })
        : fmt(ngettext("Score {points} honor point for the {troop} on {square} (its stronghold symbols): your {troop} marker moves up to row {row}.", "Score {points} honor points for the {troop} on {square} (its stronghold symbols): your {troop} marker moves up to row {row}.", row.points), { troop, square: row.to, points: row.points, row: row.row });
    case "stronghold": {
      const letter = v.board?.troops?.[row.squares?.[0]];
      return fmt(_("Build your lowest remaining stronghold on the {troop} on {square}: its formation of {points} is yours to assess every turn."), { troop: letter ? troopName(v, letter) : "", square: row.to, points: row.points });
    }
    case "draw":
      return _("Refill your hand with the top tile of the face-down stack.");
    case "take": {
      const face = v.tiles?.[row.tile];
      if (!face) break;
      return fmt(_("Refill your hand with the face-up {first} ({firstSymbols}) / {second} ({secondSymbols}) tile."), { ...tileTroops(v, face.halves), firstSymbols: symbolCount(face.halves[0].symbols), secondSymbols: symbolCount(face.halves[1].symbols) });
    }
  }
  return row.text;
}

/** A troop type's name in the page's language (the view names it in English). */
function troopName(v, letter) {
  const name = v?.troop_names?.[letter];
  return name ? word(name) : letter;
}

/** A stronghold symbol: a small castle tower, its top left corner at (x, y). */
function castle(x, y, k, cls = "castle") {
  const d = `M${x} ${y + k}V${y + k * 0.3}h${k * 0.22}v${k * 0.18}h${k * 0.2}V${y + k * 0.3}h${k * 0.16}v${k * 0.18}h${k * 0.2}V${y + k * 0.3}h${k * 0.22}V${y + k}Z`;
  return svg("path", { d, class: cls });
}

/** One tile half (or a small tile) in a box of side k at (x, y). */
function halfShape(troop, symbols, x, y, k, { faceDown = false } = {}) {
  const g = svg("g", { class: "half", "data-troop": troop });
  if (faceDown) {
    // Face down: the tile's back, crossed (extra support under the next large tile).
    g.append(svg("rect", { x: x + 1, y: y + 1, width: k - 2, height: k - 2, rx: k * 0.12, class: "face-down" }));
    g.append(svg("path", { d: `M${x + k * 0.25} ${y + k * 0.25}L${x + k * 0.75} ${y + k * 0.75}M${x + k * 0.75} ${y + k * 0.25}L${x + k * 0.25} ${y + k * 0.75}`, class: "face-down-cross" }));
    return g;
  }
  g.append(svg("rect", { x: x + 1, y: y + 1, width: k - 2, height: k - 2, rx: k * 0.12, fill: TROOPS[troop]?.color || "#777", class: "half-bg" }));
  g.append(svg("text", { x: x + k / 2, y: y + k * (english() ? 0.56 : 0.6), "text-anchor": "middle", class: english() ? "half-mark en" : "half-mark", "font-size": k * (english() ? 0.3 : 0.44) }, troopMark(troop)));
  g.append(svg("text", { x: x + k * 0.12, y: y + k * 0.92, class: "half-letter", "font-size": k * 0.22 }, troop));
  for (let s = 0; s < symbols; s++) g.append(castle(x + k * 0.86 - (s + 1) * k * 0.2, y + k * 0.72, k * 0.18));
  return g;
}

/** A large tile as a small picture: its two halves side by side (or turned). */
function tilePicture(halves, { size = 40, turn = 0 } = {}) {
  const dx = [1, 0, -1, 0][turn];
  const dy = [0, 1, 0, -1][turn];
  const w = (Math.abs(dx) + 1) * size;
  const h = (Math.abs(dy) + 1) * size;
  const box = svg("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: "tile-pic", "aria-hidden": "true" });
  const x0 = dx < 0 ? size : 0;
  const y0 = dy < 0 ? size : 0;
  box.append(halfShape(halves[0].troop, halves[0].symbols, x0, y0, size));
  box.append(halfShape(halves[1].troop, halves[1].symbols, x0 + dx * size, y0 + dy * size, size));
  return box;
}

function smallPicture(troop, symbols, { size = 34, faceDown = false } = {}) {
  const box = svg("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, class: "tile-pic small", "aria-hidden": "true" });
  box.append(halfShape(troop, symbols, 0, 0, size, { faceDown }));
  return box;
}

function halfWords(v, half) {
  return `${troopName(v, half.troop)} (${symbolCount(half.symbols)})`;
}

function tileWords(v, id) {
  const face = v.tiles?.[id];
  if (!face) return _("a large tile");
  return `${halfWords(v, face.halves[0])} / ${halfWords(v, face.halves[1])}`;
}

/** The legal choices of this position, indexed the way the player picks them. */
function indexChoices(legal, view) {
  const w = view.board.width;
  const out = { places: new Map(), smalls: new Map(), scores: [], strongholds: new Map(), draw: null, takes: new Map(), other: [] };
  for (const row of legal) {
    if (row.kind === "place_tile") {
      const face = view.tiles?.[row.tile];
      const first = face ? row.troops.find((t) => t.troop === face.halves[0].troop) : row.troops[0];
      const second = row.troops.find((t) => t !== first);
      const diff = second.square - first.square;
      const turn = diff === 1 ? 0 : diff === w ? 1 : diff === -1 ? 2 : 3;
      if (!out.places.has(row.tile)) out.places.set(row.tile, new Map());
      out.places.get(row.tile).set(`${first.square}|${turn}`, { row, first: first.square, second: second.square, turn });
    } else if (row.kind === "small_tile" || row.kind === "support") {
      if (!out.smalls.has(row.troop)) out.smalls.set(row.troop, { up: new Map(), support: new Map() });
      out.smalls.get(row.troop)[row.kind === "support" ? "support" : "up"].set(row.squares[0], row);
    } else if (row.kind === "score_vp" || row.kind === "score_honor") {
      out.scores.push(row);
    } else if (row.kind === "stronghold") {
      out.strongholds.set(row.squares[0], row);
    } else if (row.kind === "draw") {
      out.draw = row;
    } else if (row.kind === "take") {
      out.takes.set(row.tile, row);
    } else {
      out.other.push(row);
    }
  }
  return out;
}

/** The squares of the formation on square ``i`` (the view's formation ids). */
function formationOf(board, i) {
  const id = board.formation?.[i];
  if (id === undefined || board.troops[i] === "?") return [i];
  const out = [];
  board.formation.forEach((f, j) => {
    if (f === id) out.push(j);
  });
  return out;
}

/** Words for the square a player points at: what stands there and its formation. */
function squareWords(v, i) {
  const b = v.board;
  const name = cellName(i, b.width);
  const letter = b.troops[i];
  if (letter === "?") return fmt(_("{name}: a small tile lying face down as extra support."), { name });
  const level = b.levels[i];
  const troop = troopName(v, letter);
  let what = level
    ? fmt(_("{name}: {troop} on a tile at level {level}, {plural}"), { name, troop, level, plural: symbolCount(b.symbols[i]) })
    : fmt(_("{name}: {troop} printed on the battlefield (level 0)"), { name, troop });
  const squares = formationOf(b, i);
  const owners = [...new Set(squares.map((j) => b.strongholds[j]).filter((s) => s >= 0))];
  what += fmt(_(". Formation of {length} {troop}"), { length: squares.length, troop });
  if (b.strongholds[i] >= 0) what += fmt(_("; {seatName}'s stronghold stands here"), { seatName: seatName(b.strongholds[i]) });
  if (owners.length) what += fmt(_(", controlled by {map}: no victory points for joining it"), { map: owners.map(seatName).join(" and ") });
  return `${what}.`;
}

/** One scoring of a turn in words ("Cavalry on c5: 3 VP for its formation"). */
function scoringWords(v, s) {
  const troop = s.troop ? troopName(v, s.troop) : "";
  switch (s.kind) {
    case "vp":
      return fmt(_("{troop} on {square}: +{points} VP (formation of {points})"), { troop, square: s.square, points: s.points });
    case "honor":
      return fmt(_("{troop} on {square}: +{points} honor"), { troop, square: s.square, points: s.points });
    case "strongholds":
      return fmt(_("strongholds assessed: +{points} VP"), { points: s.points });
    case "stronghold_built":
      return fmt(_("stronghold built on {troop} {square} (formation of {points})"), { troop, square: s.square, points: s.points });
    case "banner":
      return fmt(_("claimed a {banner} war banner ({troop} column)"), { banner: word(s.banner), troop });
    default:
      return String(s.kind);
  }
}

/** The honor track: a column per troop type, every player's marker, the stronghold rows
 * and the banner stacks on the ending row. */
function honorTrack(v) {
  const end = v.ending_row;
  const strongRows = new Set(v.stronghold_rows || []);
  const CW = 62;
  const RH = 22;
  const top = 58;
  const left = 30;
  const width = left + ORDER.length * CW + 8;
  const height = top + (end + 1) * RH + 8;
  const box = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "honor-track", role: "img", "aria-label": _("Honor track") });
  box.append(svg("rect", { x: 0, y: 0, width, height, rx: 10, class: "honor-bg" }));
  for (let row = 0; row <= end; row++) {
    const y = top + (end - row) * RH;
    const cls = row === end ? "honor-row end" : strongRows.has(row) ? "honor-row strong" : "honor-row";
    box.append(svg("rect", { x: left, y, width: ORDER.length * CW, height: RH, class: cls }));
    box.append(svg("text", { x: left / 2, y: y + 15, "text-anchor": "middle", class: "honor-num" }, row));
    if (strongRows.has(row)) box.append(castle(left + ORDER.length * CW - 18, y + 4, 14, "castle row-castle"));
  }
  ORDER.forEach((t, k) => {
    const x = left + k * CW;
    const stack = v.banner_stacks?.[k] || [];
    const g = svg("g", { class: "honor-col", "data-troop": t });
    g.append(svg("title", {}, fmt(_("{troop} column: banners left {banners} (top first)"), { troop: troopName(v, t), banners: stack.length ? [...stack].reverse().join(", ") : _("none") })));
    g.append(svg("rect", { x: x + 4, y: 4, width: CW - 8, height: 22, rx: 5, fill: TROOPS[t].color }));
    g.append(svg("text", { x: x + CW / 2, y: 20, "text-anchor": "middle", class: english() ? "honor-head en" : "honor-head" }, english() ? TROOPS[t].short : `${TROOPS[t].mark} ${t}`));
    // The banner stack, its top (taken next) drawn last, on the right.
    stack.forEach((kind, i) => {
      const bx = x + 6 + i * 17;
      g.append(svg("rect", { x: bx, y: 30, width: 15, height: 22, rx: 3, fill: BANNERS[kind]?.color || "#555", class: "banner-flag" }));
      g.append(svg("text", { x: bx + 7.5, y: 46, "text-anchor": "middle", class: "banner-mark" }, BANNERS[kind]?.mark || "?"));
    });
    box.append(g);
    (v.players || []).forEach((p, seat) => {
      const level = p.honor?.[k];
      if (level === null || level === undefined) return;
      const y = top + (end - Math.min(level, end)) * RH + RH / 2;
      const step = (CW - 18) / Math.max(1, v.players.length - 1);
      const cx = x + 9 + seat * step;
      // Four or five markers in a column: smaller, and every other one a little lower, so
      // that the shapes do not hide one another.
      const crowded = step < 16;
      const cy = crowded ? y + (seat % 2 ? 3 : -3) : y;
      const marker = svg("g", { class: "honor-marker", "data-seat": seat, "data-troop": t, "data-level": level });
      marker.append(seatShape(seat, cx, cy, crowded ? 5.5 : 7, { class: "honor-shape" }));
      marker.append(svg("title", {}, fmt(_("{seatName} ({x}): {troopName} honor at row {level}"), { seatName: seatName(seat), x: _(SHAPE_NAMES[seat % 5]), troopName: troopName(v, t), level })));
      box.append(marker);
    });
  });
  return box;
}

function bannerChip(b) {
  const kind = BANNERS[b.kind] || { mark: "?", color: "#555" };
  const value = b.value === null || b.value === undefined ? "?" : b.value;
  return el("span.banner-chip", { title: fmt(value === "?" ? _("{kind} war banner from the {column} column: its value is hidden until the end") : _("{kind} war banner from the {column} column: {value} VP"), { kind: word(b.kind), column: word(b.column), value }), style: `background:${kind.color}` }, `${word(b.kind)} ${value}`);
}

/** A column head of the end panel's table: its word, or a shorter one on a phone. */
function head(long, short, title) {
  return el("th", { scope: "col", title }, el("span.long", {}, long), el("span.short", { "aria-hidden": "true" }, short));
}

/** A player's score in words: VP and where they came from, banners when visible. */
function scoreWords(p) {
  const parts = fmt(_("{vp_formations} formations + {vp_strongholds} strongholds"), { vp_formations: p.vp_formations, vp_strongholds: p.vp_strongholds });
  return p.banner_points === null || p.banner_points === undefined ? fmt(_("{score} VP ({parts})"), { score: p.score, parts }) : fmt(_("{score} VP ({parts}) + {banner_points} banners = {total}"), { score: p.score, parts, banner_points: p.banner_points, total: p.total });
}

export default {
  name: "gunkimono",
  kanji: "軍記物",
  title: _("Gunkimono"),
  stylesheet: true,
  tagline: _("Place army tiles on the battlefield, score formations or honor, build strongholds."),
  notationHint: _("Or type a move, e.g. I1@a1 A2@b1"),
  howTo: [
    _("On your turn pick a tile from your hand (or a small tile from your reserve), turn it with Rotate, and click where it goes: the ghost shows where each half lands."),
    _("No troop may cover its own type, and both halves of a large tile must lie at the same level."),
    _("Score each troop you placed: victory points for its formation's size, or honor points up its column of the honor track. Reach the top for a war banner."),
    _("When all your honor markers reach a stronghold row, build a stronghold in a formation: it scores its formation every turn."),
  ],
  seatName,
  seatIcon(seat) {
    return el("span.seat-shape", { style: `color:${SEAT_COLORS[seat % 5]}` }, SEAT_SHAPES[seat % 5]);
  },
  defaultFlip() {
    return false;
  },
  // One shared map (or a table of cards) seen the same way by every seat: nothing to flip.
  canFlip: false,
  // The tray draws its own prompt (#kimono-prompt): the page shows no second one.
  drawsPrompt: true,
  /** A move of the move list: its placement in words, not notation. */
  moveText(event) {
    // A small tile laid face down as extra support is its own event ("support").
    const words = event?.type === "place" || event?.type === "support" ? placementWords(event.action) : null;
    return words ? words.charAt(0).toUpperCase() + words.slice(1) : null;
  },
  statusNote(view) {
    if (!view || !view.board) return "";
    if (view.phase === "over") return _("The game is over: banners are revealed and added to the scores.");
    const bits = [turnWords(view.turn, view.phase)];
    bits.push(fmt(_("{plural} in the stack"), { plural: tileCount(view.stack_size) }));
    if (view.end_triggered) bits.push(_("the end-of-game tile has appeared: this is the last round"));
    else if (view.end_stack_in_play) bits.push(_("the end-game stack is in play"));
    return `${bits.join(" · ")}.`;
  },
  /** The end panel's per-player breakdown: formations, strongholds, banners, total. */
  endDetails(view, nameOf) {
    if (!view?.players) return null;
    const rows = view.players.map((p, s) => {
      const banners = p.banner_points ?? 0;
      return el(
        "tr",
        { "data-seat": s },
        // The seat's short name (the list above gives who plays it): one line a player.
        el("th", { scope: "row", title: nameOf(s) }, seatName(s)),
        el("td", {}, String(p.vp_formations)),
        el("td", {}, String(p.vp_strongholds)),
        el("td", { title: p.banners.map((b) => `${word(b.kind)} ${b.value ?? "?"}`).join(", ") || _("no banner") }, String(banners)),
        el("td.total", {}, String(p.score + banners)),
      );
    });
    return el(
      "table.kimono-final",
      {},
      el("caption", {}, _("Final score = victory points for formations + for strongholds + war banners")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, _("Player")), head(_("Formations"), _("Form."), _("Victory points for formations")), head(_("Strongholds"), _("Strong."), _("Victory points from strongholds, assessed every turn")), head(_("Banners"), _("Bann."), _("War banners, revealed at the end")), head(_("Total"), _("Total"), _("The final score")))),
      el("tbody", {}, rows),
    );
  },
  create(root) {
    return new KimonoBoard(root);
  },
};

class KimonoBoard {
  constructor(root) {
    this.root = root;
    this.model = null;
    this.sel = null; // {type: "tile", id} or {type: "small", troop}
    this.turn = 0; // the selected tile's rotation (TURNS)
    this.smallMode = "up"; // a small tile face up, or face down as extra support
    this.hover = null; // the square under the pointer
    this.preview = null; // a touch's chosen placement, waiting for its confirmation
    this.lastKey = "";
    this.legalKey = "";
    clear(root);
    root.classList.add("gunkimono");
    this.boardWrap = el("div.board-wrap");
    this.info = el("div.kimono-info", { "aria-live": "polite" });
    this.prompt = el("div.kimono-prompt", { id: "kimono-prompt" });
    this.decide = el("div.kimono-decide");
    this.handBox = el("div.kimono-hand");
    this.rowBox = el("div.kimono-rowbox");
    this.lastBox = el("div.kimono-last");
    this.playersBox = el("div.kimono-players");
    this.trackBox = el("div.kimono-track");
    root.append(
      el("div.kimono-main", {}, el("div.kimono-boardcol", {}, this.boardWrap, this.info), el("div.kimono-tray", {}, this.prompt, this.decide, this.handBox, this.rowBox, this.lastBox)),
      el("div.kimono-lower", {}, this.playersBox, this.trackBox),
    );
    this.onKey = (e) => {
      if (!this.sel || e.target?.tagName === "INPUT") return;
      if (e.key === "r" || e.key === "R") {
        this.rotate();
        e.preventDefault();
      } else if (e.key === "Escape") {
        this.select(null);
      }
    };
    document.addEventListener("keydown", this.onKey);
  }

  update(model) {
    const key = model.interactive ? model.legal.map((l) => l.action).join("|") : "";
    this.model = model;
    LABELS = model.labels || "kanji";
    this.choices = indexChoices(model.interactive ? model.legal : [], model.view);
    if (key !== this.legalKey) {
      this.legalKey = key;
      this.preview = null;
      this.info.textContent = "";
      // Keep the picked tile while it may still be placed (after extra support, say).
      if (this.sel?.type === "tile" && !this.choices.places.has(this.sel.id)) this.sel = null;
      if (this.sel?.type === "small" && !this.choices.smalls.has(this.sel.troop)) this.sel = null;
      // Only one tile can go (over extra support, often): it is picked for you.
      if (!this.sel && this.choices.places.size === 1 && this.choices.smalls.size === 0) this.select({ type: "tile", id: [...this.choices.places.keys()][0] }, false);
      this.fixTurn();
    }
    const last = model.view.last_turn;
    const lastKey = last ? `${last.seat}|${last.squares.join(",")}|${model.view.placed.length}|${model.view.placed_small.length}` : "";
    this.fresh = last && lastKey !== this.lastKey && this.lastKey !== "" ? new Set(last.squares) : new Set();
    this.lastKey = lastKey || this.lastKey || "-";
    this.draw();
  }

  /** The placements of the picked tile in the current rotation, by first square. */
  placements() {
    if (this.sel?.type !== "tile") return new Map();
    const all = this.choices.places.get(this.sel.id) || new Map();
    const out = new Map();
    for (const p of all.values()) if (p.turn === this.turn) out.set(p.first, p);
    return out;
  }

  smallTargets() {
    if (this.sel?.type !== "small") return new Map();
    const s = this.choices.smalls.get(this.sel.troop);
    return s ? s[this.smallMode] : new Map();
  }

  /** Turn to a rotation with at least one placement (the next one after ``from``). */
  fixTurn(step = 0) {
    if (this.sel?.type !== "tile") return;
    const all = [...(this.choices.places.get(this.sel.id) || new Map()).values()];
    for (let k = step; k < step + 4; k++) {
      const t = (this.turn + k) % 4;
      if (all.some((p) => p.turn === t)) {
        this.turn = t;
        return;
      }
    }
  }

  rotate() {
    if (this.sel?.type !== "tile") return;
    this.preview = null;
    this.fixTurn(1);
    this.draw();
  }

  select(sel, redraw = true) {
    this.sel = sel;
    this.preview = null;
    if (sel?.type === "small") {
      const s = this.choices.smalls.get(sel.troop);
      this.smallMode = s && s.up.size ? "up" : "support";
    }
    this.fixTurn();
    if (redraw) this.draw();
  }

  /** The placement a pointer on square ``i`` means: the picked tile's first half there,
   * else its second half there. */
  placementAt(i) {
    const here = this.placements();
    if (here.has(i)) return here.get(i);
    for (const p of here.values()) if (p.second === i) return p;
    return null;
  }

  draw() {
    const v = this.model.view;
    if (!v?.board) return;
    this.drawBoard();
    this.drawTray();
    this.drawPlayers();
    clear(this.trackBox).append(el("h2", {}, _("Honor track")), honorTrack(v), el("p.muted.track-key", {}, _("Rows with a castle: strongholds. Top row: war banners (D dragon 11-15, C crane 6-10, L lotus 1-5), the rightmost taken next.")));
  }

  // -------------------------------------------------------------- the battlefield

  drawBoard() {
    const v = this.model.view;
    const b = v.board;
    const w = b.width;
    const h = b.height;
    const W = w * S + 2 * M;
    const H = h * S + 2 * M;
    const board = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "board kimono-board", role: "group", "aria-label": _("Gunkimono battlefield") });
    board.append(svg("rect", { x: 0, y: 0, width: W, height: H, rx: 14, class: "frame" }));
    const last = new Set(v.last_turn?.squares || []);
    const pending = v.phase === "score" && v.pending?.length ? v.pending[0].square : null;
    for (let i = 0; i < w * h; i++) {
      const x = M + (i % w) * S;
      const y = M + Math.floor(i / w) * S;
      const name = cellName(i, w);
      const letter = b.troops[i];
      const level = b.levels[i] || 0;
      const g = svg("g", { class: `cell${level ? " tiled" : " printed"}${this.fresh.has(name) ? " fresh" : ""}`, "data-cell": name, "data-level": level, "data-troop": letter });
      if (level) {
        // A tile: raised by its level (a shadow per level), the troop's full colour.
        for (let k = Math.min(level, 4); k > 0; k--) g.append(svg("rect", { x: x + 3 + k * 1.5, y: y + 3 + k * 1.5, width: S - 6, height: S - 6, rx: 7, class: "tile-edge" }));
        g.append(halfShape(letter, b.symbols[i], x + 2, y + 2, S - 6, { faceDown: letter === "?" }));
        g.append(svg("text", { x: x + 7, y: y + 16, class: "cell-level" }, level));
      } else {
        // Printed on the board: flat and pale, so that every tile stands out above it.
        g.append(svg("rect", { x: x + 1, y: y + 1, width: S - 2, height: S - 2, class: "printed-paper" }));
        g.append(svg("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 4, fill: TROOPS[letter]?.color || "#999", class: "printed-bg" }));
        g.append(svg("text", { x: x + S / 2, y: y + S / 2 + (english() ? 6 : 9), "text-anchor": "middle", class: english() ? "printed-mark en" : "printed-mark" }, troopMark(letter)));
        g.append(svg("text", { x: x + 6, y: y + S - 7, class: "printed-letter" }, letter));
      }
      const owner = b.strongholds[i];
      if (owner >= 0) {
        // The owner's colour and shape, with the castle: which player's, without colour too.
        const mark = svg("g", { class: "stronghold-mark", "data-seat": owner });
        mark.append(svg("rect", { x: x + S - 27, y: y + S - 27, width: 22, height: 22, rx: 4, fill: SEAT_COLORS[owner % 5], class: "stronghold" }));
        mark.append(castle(x + S - 24, y + S - 24, 16, "castle stronghold-castle"));
        mark.append(seatShape(owner, x + S - 27, y + S - 27, 7.5, { class: "stronghold-shape" }));
        mark.append(svg("title", {}, fmt(_("{seatName}'s stronghold ({x})"), { seatName: seatName(owner), x: _(SHAPE_NAMES[owner % 5]) })));
        g.append(mark);
      }
      board.append(g);
    }
    // The latest turn's squares: a dark and a bright outline, readable on every colour.
    for (const name of last) {
      const i = this.index(name);
      const x = M + (i % w) * S;
      const y = M + Math.floor(i / w) * S;
      board.append(svg("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 7, class: "last-outer" }));
      board.append(svg("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 7, class: "last-inner", "data-last": name }));
    }
    for (let c = 0; c < w; c++) board.append(svg("text", { x: M + c * S + S / 2, y: M - 7, "text-anchor": "middle", class: "coord" }, String.fromCharCode(97 + c)));
    for (let r = 0; r < h; r++) board.append(svg("text", { x: M / 2, y: M + r * S + S / 2 + 5, "text-anchor": "middle", class: "coord" }, r + 1));
    // Targets of the decision at hand.
    const targets = this.targetSquares();
    for (const i of targets) {
      const x = M + (i % w) * S;
      const y = M + Math.floor(i / w) * S;
      // White under dark dashes: an outline that reads on pale printed squares and on tiles.
      board.append(svg("rect", { x: x + 6, y: y + 6, width: S - 12, height: S - 12, rx: 8, class: "target-under" }));
      board.append(svg("rect", { x: x + 6, y: y + 6, width: S - 12, height: S - 12, rx: 8, class: "target", "data-target": cellName(i, w) }));
    }
    // The engine's preferred move (the replay's analysis, ``model.bestMove``, the mover's own
    // choice described): a green frame on each square its tile would cover (or the square it
    // would score), never the tile's troop, which the mover's hand alone held.
    for (const name of bestSquares(this.model.bestMove)) {
      const i = this.index(name);
      if (i === undefined) continue;
      const x = M + (i % w) * S;
      const y = M + Math.floor(i / w) * S;
      const g = svg("g", { class: "best-move", "data-best": name, "aria-hidden": "true" });
      g.append(svg("rect", { x: x + 6, y: y + 6, width: S - 12, height: S - 12, rx: 8, class: "best-frame" }));
      board.append(g);
    }
    if (pending) {
      const i = this.index(pending);
      board.append(svg("rect", { x: M + (i % w) * S + 1, y: M + Math.floor(i / w) * S + 1, width: S - 2, height: S - 2, rx: 8, class: "score-focus" }));
    }
    this.overlay = svg("g", { class: "overlay" });
    board.append(this.overlay);
    for (let i = 0; i < w * h; i++) {
      const name = cellName(i, w);
      board.append(
        svg("rect", {
          x: M + (i % w) * S,
          y: M + Math.floor(i / w) * S,
          width: S,
          height: S,
          class: "hit",
          "data-sq": name,
          // keyboard.js: Enter picks the square, the arrows move over the battlefield
          "data-pick": `sq:${name}`,
          "data-grid": "battlefield",
          "data-row": Math.floor(i / w),
          "data-col": i % w,
          "aria-label": squareWords(v, i),
          onpointerenter: () => this.pointAt(i),
          onpointerdown: (e) => this.pressStart(e, () => this.showInfo(squareWords(v, i))),
          onpointerup: () => this.pressEnd(),
          onpointerleave: () => this.pressEnd(),
          onclick: (e) => this.clickSquare(i, e),
          oncontextmenu: (e) => {
            if (this.sel?.type === "tile") {
              e.preventDefault();
              this.rotate();
            }
          },
        }),
      );
    }
    board.addEventListener("pointerleave", () => this.pointAt(null));
    this.svg = board;
    clear(this.boardWrap).append(board);
    this.drawOverlay();
  }

  index(name) {
    if (!this.names) {
      const b = this.model.view.board;
      this.names = new Map();
      for (let i = 0; i < b.width * b.height; i++) this.names.set(cellName(i, b.width), i);
    }
    return this.names.get(name);
  }

  targetSquares() {
    if (this.sel?.type === "tile") return [...this.placements().keys()];
    if (this.sel?.type === "small") return [...this.smallTargets().keys()];
    if (this.choices.strongholds.size) return [...this.choices.strongholds.keys()];
    return [];
  }

  pointAt(i) {
    if (i === this.hover) return;
    this.hover = i;
    if (i !== null) this.showInfo(squareWords(this.model.view, i));
    this.drawOverlay();
  }

  showInfo(text) {
    this.info.textContent = text;
  }

  // A long press (touch) shows what a square or tile is, like a hover does with a mouse.
  pressStart(e, show) {
    this.pressEnd();
    if (e.pointerType !== "mouse") this.pressTimer = setTimeout(show, 450);
  }

  pressEnd() {
    clearTimeout(this.pressTimer);
  }

  /** What follows the pointer: the hovered formation's outline and the picked tile's ghost. */
  drawOverlay() {
    if (!this.overlay) return;
    clear(this.overlay);
    const v = this.model.view;
    const b = v.board;
    const w = b.width;
    const at = (i) => [M + (i % w) * S, M + Math.floor(i / w) * S];
    const spot = this.preview ?? this.hover;
    if (spot === null || spot === undefined) return;
    // The formation under the pointer, outlined along its border.
    const squares = new Set(formationOf(b, spot));
    const edges = [];
    for (const i of squares) {
      const [x, y] = at(i);
      const c = i % w;
      if (!squares.has(i - w)) edges.push(`M${x} ${y}h${S}`);
      if (!squares.has(i + w)) edges.push(`M${x} ${y + S}h${S}`);
      if (c === 0 || !squares.has(i - 1)) edges.push(`M${x} ${y}v${S}`);
      if (c === w - 1 || !squares.has(i + 1)) edges.push(`M${x + S} ${y}v${S}`);
    }
    // A controlled formation is outlined in its stronghold owner's colour.
    const owner = [...squares].map((i) => b.strongholds[i]).find((s) => s >= 0);
    const ownerStyle = owner === undefined ? null : `stroke:${SEAT_COLORS[owner % 5]}`;
    this.overlay.append(svg("path", { d: edges.join(""), class: "formation-outline", "data-size": squares.size, style: ownerStyle }));
    // The ghost of the picked tile.
    if (this.sel?.type === "tile") {
      const face = v.tiles?.[this.sel.id];
      const p = this.placementAt(spot);
      let first = spot;
      let second = null;
      if (p) {
        first = p.first;
        second = p.second;
      } else {
        const c = spot % w;
        const dx = [1, 0, -1, 0][this.turn];
        const dy = [0, 1, 0, -1][this.turn];
        const r = Math.floor(spot / w);
        if (c + dx >= 0 && c + dx < w && r + dy >= 0 && r + dy < b.height) second = spot + dx + dy * w;
      }
      if (face && second !== null) {
        const ghost = svg("g", { class: `ghost${p ? " legal" : " illegal"}`, "data-ghost": p ? p.row.action : "" });
        const [x1, y1] = at(first);
        const [x2, y2] = at(second);
        ghost.append(halfShape(face.halves[0].troop, face.halves[0].symbols, x1 + 3, y1 + 3, S - 6));
        ghost.append(halfShape(face.halves[1].troop, face.halves[1].symbols, x2 + 3, y2 + 3, S - 6));
        ghost.append(svg("rect", { x: Math.min(x1, x2) + 2, y: Math.min(y1, y2) + 2, width: Math.abs(x2 - x1) + S - 4, height: Math.abs(y2 - y1) + S - 4, rx: 8, class: "ghost-frame" }));
        this.overlay.append(ghost);
        this.showInfo(p ? `${choiceText(v, p.row)} ${this.preview !== null ? _("Tap it again, or Confirm, to place it.") : _("Click to place it.")}` : fmt(_("The {tileWords} tile cannot go there turned this way: pick an outlined square, or rotate it."), { tileWords: tileWords(v, this.sel.id) }));
      }
    } else if (this.sel?.type === "small") {
      const row = this.smallTargets().get(spot);
      const [x, y] = at(spot);
      const ghost = svg("g", { class: `ghost${row ? " legal" : " illegal"}` });
      ghost.append(halfShape(this.sel.troop, v.small_tile_symbols, x + 3, y + 3, S - 6, { faceDown: this.smallMode === "support" }));
      this.overlay.append(ghost);
      if (row) this.showInfo(choiceText(v, row));
    }
  }

  clickSquare(i, e) {
    if (!this.model.interactive) return;
    // Touch: the first tap shows the ghost, a second tap on it places (no hover to preview).
    const confirmFirst = e.pointerType === "touch";
    let row = null;
    if (this.sel?.type === "tile") row = this.placementAt(i)?.row;
    else if (this.sel?.type === "small") row = this.smallTargets().get(i);
    else if (this.choices.strongholds.has(i)) row = this.choices.strongholds.get(i);
    if (!row) {
      this.hover = i;
      this.drawOverlay();
      return;
    }
    if (confirmFirst && this.preview !== i) {
      this.preview = i;
      this.drawOverlay();
      this.drawTray();
      return;
    }
    this.play(row);
  }

  play(row) {
    this.preview = null;
    this.sel = null;
    this.model.send(row.action);
  }

  // -------------------------------------------------------------- the tray beside the board

  promptText() {
    const v = this.model.view;
    const m = this.model;
    if (v.phase === "over") return _("The game is over.");
    if (!m.interactive) return `${turnWords(v.turn, v.phase)}…`;
    const c = this.choices;
    if (v.phase === "place" || v.phase === "support") {
      const over = v.phase === "support" ? fmt(_(" over the extra support on {support_square}"), { support_square: v.support_square }) : "";
      if (this.sel?.type === "tile") return fmt(_("Place your {tileWords} tile{over}: click an outlined square for its {troopName} half; Rotate turns it."), { tileWords: tileWords(v, this.sel.id), over, troopName: troopName(v, v.tiles[this.sel.id].halves[0].troop) });
      if (over) return fmt(_("Extra support lies face down on {support_square}. Now pick a large tile from your hand and place it over it."), { support_square: v.support_square });
      if (this.sel?.type === "small") return this.smallMode === "support" ? fmt(_("Place your small {troopName} tile face down as extra support: click an outlined square."), { troopName: troopName(v, this.sel.troop) }) : fmt(_("Place your small {troopName} tile face up: click an outlined square."), { troopName: troopName(v, this.sel.troop) });
      return c.places.size ? _("Your turn: pick a tile from your hand (or a small tile from your reserve), then click where it goes.") : _("Your turn: no large tile fits; pick a small tile from your reserve.");
    }
    if (v.phase === "score" && v.pending?.length) {
      const p = v.pending[0];
      return fmt(_("Score your {troopName} on {square}: victory points for its formation, or honor points up its column?"), { troopName: troopName(v, p.troop), square: p.square });
    }
    if (v.phase === "stronghold") return _("Build a stronghold: click an outlined troop, in a formation that holds none. It scores that formation every turn.");
    if (v.phase === "draw") return _("Refill your hand: take a face-up tile from the row, or draw from the stack.");
    return _("Your decision: click one of the choices.");
  }

  drawTray() {
    const v = this.model.view;
    const m = this.model;
    const c = this.choices;
    this.prompt.textContent = this.promptText();
    this.prompt.classList.toggle("mine", !!m.interactive);
    // The decision's buttons.
    clear(this.decide);
    if (this.sel?.type === "tile" && m.interactive) {
      const face = v.tiles?.[this.sel.id];
      this.decide.append(
        el(
          "div.picked",
          {},
          face ? tilePicture(face.halves, { size: 34, turn: this.turn }) : null,
          el("span", {}, fmt(_("Turned: second half {x}"), { x: _(TURNS[this.turn]) })),
          el("button.secondary", { type: "button", id: "kimono-rotate", title: _("Turn the tile (R key, or right click on the board)"), onclick: () => this.rotate() }, `⟳ ${_("Rotate")}`),
          el("button.link", { type: "button", id: "kimono-cancel", onclick: () => this.select(null) }, _("Cancel")),
        ),
      );
    }
    if (this.sel?.type === "small" && m.interactive) {
      const s = c.smalls.get(this.sel.troop);
      this.decide.append(
        el(
          "div.picked",
          {},
          smallPicture(this.sel.troop, v.small_tile_symbols, { faceDown: this.smallMode === "support" }),
          s?.up.size ? el(`button.${this.smallMode === "up" ? "primary" : "secondary"}`, { type: "button", id: "kimono-face-up", onclick: () => { this.smallMode = "up"; this.draw(); } }, _("Face up")) : null,
          s?.support.size ? el(`button.${this.smallMode === "support" ? "primary" : "secondary"}`, { type: "button", id: "kimono-support", title: _("Face down under a large tile that would straddle a difference of one level"), onclick: () => { this.smallMode = "support"; this.draw(); } }, _("Extra support")) : null,
          el("button.link", { type: "button", id: "kimono-cancel", onclick: () => this.select(null) }, _("Cancel")),
        ),
      );
    }
    if (this.preview !== null && m.interactive) {
      const row = this.sel?.type === "tile" ? this.placementAt(this.preview)?.row : this.sel?.type === "small" ? this.smallTargets().get(this.preview) : this.choices.strongholds.get(this.preview);
      if (row) this.decide.append(el("button.primary.confirm", { type: "button", id: "kimono-confirm", onclick: () => this.play(row) }, fmt(_("Confirm: {label}"), { label: choiceLabel(v, row) })));
    }
    const buttons = [...c.scores, ...(c.strongholds.size <= 12 ? c.strongholds.values() : []), ...(c.draw ? [c.draw] : []), ...c.takes.values(), ...c.other];
    if (buttons.length) {
      this.decide.append(
        el(
          "div.choices",
          {},
          buttons.map((row) =>
            el(
              `button.choice.${row.kind}`,
              { type: "button", "data-action": row.action, "data-kind": row.kind, title: choiceText(v, row), onclick: () => this.play(row), onpointerenter: () => this.showInfo(choiceText(v, row)) },
              row.kind === "take" && v.tiles?.[row.tile] ? tilePicture(v.tiles[row.tile].halves, { size: 22 }) : null,
              el("span", {}, choiceLabel(v, row)),
            ),
          ),
        ),
      );
    }
    this.drawHand();
    this.drawRow();
    this.drawLast();
  }

  drawHand() {
    const v = this.model.view;
    const m = this.model;
    const c = this.choices;
    const me = m.seat !== null && m.seat !== undefined ? v.players[m.seat] : null;
    clear(this.handBox);
    if (!me || !me.hand) {
      this.handBox.append(el("p.muted", {}, _("Spectating: hands are hidden.")));
      return;
    }
    const tiles = el("div.hand-tiles", { role: "group", "aria-label": _("Your hand") });
    me.hand.forEach((id, k) => {
      const face = v.tiles?.[id];
      const playable = c.places.has(id);
      const picked = this.sel?.type === "tile" && this.sel.id === id && me.hand.indexOf(id) === k;
      const words = fmt(playable ? _("{tile}: a large tile. Click to pick it, then click where it goes.") : m.interactive ? _("{tile}: a large tile; it cannot be placed now.") : _("{tile}: a large tile."), { tile: tileWords(v, id) });
      tiles.append(
        el(
          `button.hand-tile${playable ? ".playable" : ""}${picked ? ".picked" : ""}`,
          {
            type: "button",
            "data-tile": id,
            disabled: !playable,
            title: words,
            "aria-label": words,
            "aria-pressed": picked ? "true" : "false",
            onclick: () => this.select(picked ? null : { type: "tile", id }),
            onpointerenter: () => this.showInfo(words),
            onfocus: () => this.showInfo(words),
            onpointerdown: (e) => this.pressStart(e, () => this.showInfo(words)),
            onpointerup: () => this.pressEnd(),
          },
          face ? tilePicture(face.halves, { size: 36 }) : id,
        ),
      );
    });
    if (!me.hand.length) tiles.append(el("span.muted", {}, _("no large tile")));
    const reserve = el("div.reserve-tiles", { role: "group", "aria-label": _("Your small tiles") });
    for (const troop of me.reserve) {
      const playable = c.smalls.has(troop);
      const picked = this.sel?.type === "small" && this.sel.troop === troop;
      const words = fmt(_("Small {troopName} tile ({plural}): face up on one square, or face down as extra support under a large tile. One small tile per turn, never replaced."), { troopName: troopName(v, troop), plural: symbolCount(v.small_tile_symbols) });
      reserve.append(
        el(
          `button.small-tile${playable ? ".playable" : ""}${picked ? ".picked" : ""}`,
          {
            type: "button",
            "data-small": troop,
            disabled: !playable,
            title: words,
            "aria-label": words,
            "aria-pressed": picked ? "true" : "false",
            onclick: () => this.select(picked ? null : { type: "small", troop }),
            onpointerenter: () => this.showInfo(words),
            onfocus: () => this.showInfo(words),
          },
          smallPicture(troop, v.small_tile_symbols, { size: 28 }),
        ),
      );
    }
    if (!me.reserve.length) reserve.append(el("span.muted", {}, _("none left")));
    this.handBox.append(el("div.hand-line", {}, el("span.hand-label", {}, _("Your hand")), tiles), el("div.hand-line", {}, el("span.hand-label", {}, _("Small tiles")), reserve));
  }

  drawRow() {
    const v = this.model.view;
    const c = this.choices;
    clear(this.rowBox);
    const tiles = (v.row || []).map((id) => {
      const row = c.takes.get(id);
      const words = fmt(row ? _("{tile}: a face-up tile. Click to take it into your hand.") : _("{tile}: a face-up tile."), { tile: tileWords(v, id) });
      return el(
        `button.row-tile${row ? ".playable" : ""}`,
        { type: "button", "data-tile": id, disabled: !row, title: words, "aria-label": words, onclick: () => row && this.play(row), onpointerenter: () => this.showInfo(words), onfocus: () => this.showInfo(words) },
        v.tiles?.[id] ? tilePicture(v.tiles[id].halves, { size: 26 }) : id,
      );
    });
    const stack = el(
      `button.stack${c.draw ? ".playable" : ""}`,
      { type: "button", id: "kimono-stack", disabled: !c.draw, title: c.draw ? choiceText(v, c.draw) : _("The face-down stack"), onclick: () => c.draw && this.play(c.draw) },
      el("span.stack-count", {}, String(v.stack_size)),
      el("span", {}, v.end_stack_in_play ? _("end-game stack") : _("in the stack")),
    );
    this.rowBox.append(el("span.hand-label", {}, _("Face-up row")), el("div.row-tiles", {}, tiles, stack));
  }

  drawLast() {
    const v = this.model.view;
    clear(this.lastBox);
    const last = v.last_turn;
    if (!last) return;
    const lines = last.scores.length ? last.scores.map((s) => el("li", { "data-kind": s.kind }, scoringWords(v, s))) : [el("li.muted", {}, last.squares.length ? _("nothing scored yet") : _("no tile could be placed: the turn passed"))];
    const covered = last.squares.length ? fmt(_(" on {squares}"), { squares: last.squares.join(", ") }) : "";
    this.lastBox.append(el("h2", {}, fmt(_("{seatName}'s turn{covered}"), { seatName: seatName(last.seat), covered })), el("ul.scorings", {}, lines));
  }

  drawPlayers() {
    const v = this.model.view;
    clear(this.playersBox);
    // Four or five generals: two columns of panels, so the last ones are not below the fold.
    this.playersBox.classList.toggle("many", (v.players || []).length >= 4);
    (v.players || []).forEach((p, s) => {
      const toAct = v.phase !== "over" && v.turn === s;
      const honor = ORDER.map((t, k) => {
        const row = p.honor[k];
        return el(`span.honor-step${english() ? ".en" : ""}`, { title: fmt(row === null ? _("{troop} honor: marker off the track") : _("{troop} honor: row {row}"), { troop: troopName(v, t), row }), style: `border-color:${TROOPS[t].color}` }, `${troopMark(t)}${english() ? " " : ""}${row === null ? "✓" : row}`);
      });
      this.playersBox.append(
        el(
          `div.kimono-player${toAct ? ".to-act" : ""}`,
          { "data-seat": s, style: `border-left-color:${SEAT_COLORS[s % 5]}` },
          el("div.kp-head", {}, el("span.seat-shape", { style: `color:${SEAT_COLORS[s % 5]}` }, SEAT_SHAPES[s % 5]), el("strong", {}, seatName(s)), s === this.model.seat ? el("span.you", {}, _("you")) : null, el("span.kp-score", { "data-score": p.score }, scoreWords(p))),
          el("div.kp-line", {}, el("span.honor", {}, honor), p.banners.map(bannerChip)),
          el(
            "div.kp-line.muted",
            {},
            fmt(_("{tiles} in hand · small tiles {small} · strongholds: {strongholds} ({left} left)"), { tiles: tileCount(p.hand_size), small: p.reserve.join(" ") || _("none"), strongholds: p.strongholds.length ? p.strongholds.join(", ") : _("none"), left: p.strongholds_left }),
            p.hand === null && p.hand_known.length ? el("span.known", { title: _("Tiles seen taken from the row") }, ` · ${_("seen:")} `, p.hand_known.map((id) => (v.tiles?.[id] ? tilePicture(v.tiles[id].halves, { size: 16 }) : id))) : null,
          ),
        ),
      );
    });
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    this.pressEnd();
    clear(this.root);
  }
}
