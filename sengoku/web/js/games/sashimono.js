// Sashimono: each side's Sonae (3x3 troop cards, face up or hidden) with the 12 Sashimono
// spaces around it (bowed cards turned), hands, decks and VP; the Kagemusha in solo play.
// Clicking a card or a space plays the one move that names it, or narrows the moves to it.

import { el, svg, clear } from "../ui.js";
import { actionPicker } from "./generic.js";

const SLOTS = ["top-a", "top-b", "top-c", "right-1", "right-2", "right-3", "bottom-c", "bottom-b", "bottom-a", "left-3", "left-2", "left-1"];
const SLOT_POS = [[-1, 0], [-1, 1], [-1, 2], [0, 3], [1, 3], [2, 3], [3, 2], [3, 1], [3, 0], [2, -1], [1, -1], [0, -1]];
const CELLS = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
const TROOPS = { T: "#8a5a2b", K: "#2f5d50", N: "#6b4f8a" };
const ARMY = { west: { color: "#b3372a", mark: "●" }, east: { color: "#2f5d8a", mark: "■" }, kagemusha: { color: "#3a3330", mark: "◆" } };
const C = 92; // one card space
const G = 10; // gap

function pretty(id) {
  return String(id)
    .split("-")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

/** (side, key) an action names: a Sonae cell (own or enemy) or a Sashimono space. */
function targetOf(action, me) {
  let m = action.match(/^\S+ (enemy )?([abc][123])$/u);
  if (m) return `${m[1] ? 1 - me : me}:${m[2]}`;
  m = action.match(/^\S+ ((?:top|bottom)-[abc]|(?:left|right)-[123])$/u);
  if (m) return `${me}:${m[1]}`;
  return null;
}

/** A small troop card (the Kagemusha's Kumi line). */
function kumiCard(card) {
  const fill = card.types ? TROOPS[card.types[0]] || "#777" : "#3a3330";
  return el(
    `span.gcard.kumi${card.face === "up" ? "" : ".back"}`,
    { title: card.types ? `${card.types}: attack ${card.attack}, defence ${card.defence}` : "face down", style: `border-color:${fill};color:${card.face === "up" ? fill : "#fff"}${card.face === "up" ? "" : ";background:#3a3330"}` },
    card.types || "指",
    card.types ? el("small", {}, `A${card.attack} D${card.defence}`) : "",
  );
}

function kagemushaPanel(k) {
  return el(
    "section.sside.kagemusha",
    { style: `border-top-color:${ARMY.kagemusha.color}` },
    el("div.sside-head", {}, el("strong", {}, ARMY.kagemusha.mark, " Kagemusha (", pretty(k.army || ""), ")"), el("span.vp", {}, `${k.vp} VP`), el("span.muted", {}, `army on space ${k.army_position} of 12 · Kumi deck ${k.kumi_deck_count} · Sashimono deck ${k.sashimono_deck_count}`)),
    el("div.gcards", {}, el("span.muted", {}, "Kumi line: "), (k.kumi_line || []).length ? k.kumi_line.map(kumiCard) : el("span.muted", {}, "empty")),
    el("div.gcards", {}, el("span.muted", {}, "Sashimono line: "), (k.sashimono_line || []).length ? k.sashimono_line.map((c) => el(`span.gcard.wide${c.bowed ? ".bowed" : ""}`, { title: c.bowed ? "bowed" : "" }, pretty(c.card), c.bowed ? " (bowed)" : "")) : el("span.muted", {}, "empty")),
    k.scored?.length ? el("div.gcards", {}, el("span.muted", {}, "Scored: "), k.scored.map((c) => el("span.gcard.wide", {}, pretty(c)))) : "",
  );
}

function sonae(side, targets, focus, onClick, armyAt = null) {
  const army = ARMY[side.army] || ARMY.kagemusha;
  const W = 5 * C + 4 * G;
  const box = svg("svg", { viewBox: `0 0 ${W} ${W}`, class: "board sonae", role: "img", "aria-label": `${side.army} Sonae` });
  box.append(svg("rect", { x: 0, y: 0, width: W, height: W, rx: 16, class: "sonae-bg" }));
  const at = (row, col) => [(col + 1) * (C + G), (row + 1) * (C + G)];
  const target = (key, x, y) => {
    const id = `${side.seat}:${key}`;
    if (targets.has(id)) box.append(svg("rect", { x: x - 4, y: y - 4, width: C + 8, height: C + 8, rx: 12, class: "gtarget", "data-target": id }));
    if (focus === id) box.append(svg("rect", { x: x - 4, y: y - 4, width: C + 8, height: C + 8, rx: 12, class: "gfocus" }));
    box.append(svg("rect", { x, y, width: C, height: C, class: "hit", "data-sq": id, onclick: () => onClick(id) }));
  };
  (side.sonae || []).forEach((card, i) => {
    const [x, y] = at(Math.floor(i / 3), i % 3);
    const g = svg("g", { class: `scard ${card.face}`, "data-cell": CELLS[i] });
    const hidden = card.face !== "up";
    const fill = card.types ? TROOPS[card.types[0]] || "#777" : "#3a3330";
    g.append(svg("rect", { x, y, width: C, height: C, rx: 10, fill: hidden && !card.types ? army.color : "#fffaf1", stroke: hidden ? army.color : fill, "stroke-width": 5, "stroke-dasharray": hidden ? "8 5" : "" }));
    if (card.types) {
      g.append(svg("text", { x: x + C / 2, y: y + 46, "text-anchor": "middle", class: "scard-type", fill }, card.types));
      g.append(svg("title", {}, `${card.types}: attack ${card.attack}, defence ${card.defence}${hidden ? " (face down)" : ""}`));
      g.append(svg("text", { x: x + C / 2, y: y + C - 12, "text-anchor": "middle", class: "scard-stats" }, `A${card.attack} · D${card.defence}`));
    } else {
      g.append(svg("text", { x: x + C / 2, y: y + 58, "text-anchor": "middle", class: "scard-back" }, "指"));
    }
    if (hidden && card.types) g.append(svg("text", { x: x + C - 10, y: y + 20, "text-anchor": "end", class: "scard-hidden" }, "hidden"));
    g.append(svg("text", { x: x + 8, y: y + 18, class: "scard-cell" }, CELLS[i]));
    box.append(g);
    target(CELLS[i], x, y);
  });
  SLOTS.forEach((slot, i) => {
    const [row, col] = SLOT_POS[i];
    const [x, y] = at(row, col);
    const held = (side.slots || {})[slot];
    const g = svg("g", { class: "slot", "data-slot": slot });
    if (held) {
      const cx = x + C / 2;
      const cy = y + C / 2;
      const inner = svg("g", { transform: held.bowed ? `rotate(90 ${cx} ${cy})` : "" });
      inner.append(svg("rect", { x: x + 14, y: y + 2, width: C - 28, height: C - 4, rx: 6, fill: army.color, stroke: "#1f1a17", "stroke-width": 2 }));
      inner.append(svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "slot-name" }, pretty(held.card).split(" ").pop()));
      g.append(inner);
      g.append(svg("title", {}, `${pretty(held.card)}${held.bowed ? " (bowed)" : ""}`));
      if (held.bowed) g.dataset.bowed = "true";
    } else {
      g.append(svg("rect", { x: x + 14, y: y + 14, width: C - 28, height: C - 28, rx: 8, class: "slot-empty" }));
    }
    if (armyAt === i) {
      // The Kagemusha's army walks the 12 spaces (solo play): a dark diamond marks it.
      const cx = x + C / 2;
      const cy = y + C / 2;
      g.append(svg("polygon", { points: `${cx},${cy - 30} ${cx + 30},${cy} ${cx},${cy + 30} ${cx - 30},${cy}`, class: "kage-army" }));
      g.append(svg("text", { x: cx, y: cy + 8, "text-anchor": "middle", class: "kage-army-text" }, "影"));
      g.dataset.army = "true";
    }
    box.append(g);
    target(slot, x, y);
  });
  return box;
}

export default {
  name: "sashimono",
  kanji: "指物",
  title: "Sashimono",
  notationHint: "Type a move, e.g. flip a1",
  tagline: "Two armies of troop cards in their Sonae, and the banners around them: twelve spaces, bowed cards, victory points.",
  seatCount: (options) => (options.mode === "solo" ? 1 : 2),
  howTo: [
    "Each army is a Sonae of nine troop cards, some face down. Sashimono (banner) cards go in the twelve spaces around it and give their abilities; a used Sashimono bows.",
    "On your turn, take an Action turn (play cards, use abilities, battle) or a Score turn. Battles compare the attack and defence of lines.",
    "The first to the VP target wins. In solo play you face the Kagemusha's army.",
    "Click a card or a space to play the move that names it; other choices are buttons.",
  ],
  seatName(seat) {
    return ["West", "East"][seat] || `Seat ${seat + 1}`;
  },
  seatIcon(seat) {
    const a = [ARMY.west, ARMY.east][seat] || ARMY.kagemusha;
    return el("span.seat-shape", { style: `color:${a.color}` }, a.mark);
  },
  defaultFlip: () => false,
  statusNote(view) {
    return view ? `Turn ${view.turn ?? 0} · first to ${view.vp_target} VP` : "";
  },
  create(root) {
    root.classList.add("sashimono");
    let model = null;
    let focus = null;
    let lastKey = "";
    const draw = () => {
      const v = model.view;
      const me = model.seat ?? 0;
      const legal = model.interactive ? model.legal : [];
      const targets = new Map();
      for (const l of legal) {
        const t = targetOf(l.action, me);
        if (!t) continue;
        if (!targets.has(t)) targets.set(t, []);
        targets.get(t).push(l);
      }
      const onClick = (id) => {
        const options = targets.get(id) || [];
        if (options.length === 1) {
          focus = null;
          model.send(options[0].action);
          return;
        }
        focus = focus === id || !options.length ? null : id;
        draw();
      };
      const sides = (v.sides || []).map((s) => {
        const army = ARMY[s.army] || ARMY.kagemusha;
        return el(
          "section.sside",
          { "data-seat": s.seat, style: `border-top-color:${army.color}` },
          el("div.sside-head", {}, el("strong", {}, army.mark, " ", pretty(s.army || "Kagemusha"), s.seat === me ? " (you)" : ""), el("span.vp", {}, `${s.vp} VP`), el("span.muted", {}, `hand ${s.hand_count} · deck ${s.deck_count} · Sashimono ${s.sashimono_hand_count} in hand, ${s.sashimono_deck_count} in deck`)),
          sonae(s, targets, focus, onClick, v.kagemusha && s.seat === 0 ? v.kagemusha.army_position - 1 : null),
          Array.isArray(s.hand) ? el("div.gcards", {}, el("span.muted", {}, "Hand: "), s.hand.map((t, i) => el("span.gcard", { title: `h${i + 1}`, style: `border-color:${TROOPS[t] || "#777"}` }, t))) : "",
          Array.isArray(s.sashimono_hand) && s.sashimono_hand.length ? el("div.gcards", {}, el("span.muted", {}, "Sashimono: "), s.sashimono_hand.map((c) => el("span.gcard.wide", {}, pretty(c)))) : "",
          s.scored?.length ? el("div.gcards", {}, el("span.muted", {}, "Scored: "), s.scored.map((c) => el("span.gcard.wide", {}, pretty(c)))) : "",
        );
      });
      const shown = focus ? legal.filter((l) => targetOf(l.action, me) === focus) : legal;
      clear(root).append(
        v.prompt?.rule && model.interactive ? el("div.prompt", {}, v.prompt.rule) : "",
        actionPicker({ ...model, legal: shown }),
        el("div.sides", {}, sides, v.kagemusha ? kagemushaPanel(v.kagemusha) : ""),
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
