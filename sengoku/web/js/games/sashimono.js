// Sashimono: each side's Sonae (3x3 Kumi, face up or Hidden) inside its ring of twelve
// Sashimono spaces (bowed cards turned), the hands as cards with their names and texts, and in
// solo play the Kagemusha: its Army on its path around your Sonae, its Kumi and Sashimono
// lines, and what its next turn will do.
//
// Every choice comes from the server as a description ({action, kind, label, text, card,
// slot, cell, side, line, look, hand, ...}); nothing here reads notation. A choice that names
// a thing on the table makes that thing clickable: a card in your hand, then a slot; a Kumi
// from your hand, then a cell. The other choices are buttons that say what they do.

import { el, clear, keepActionFocus } from "../ui.js";
import { api } from "../api.js";
import { _, fmt, language, N_, ngettext, word } from "../i18n.js";

const SLOTS = ["top-a", "top-b", "top-c", "right-1", "right-2", "right-3", "bottom-c", "bottom-b", "bottom-a", "left-3", "left-2", "left-1"];
// Each slot's [row, column] around the 3x3 Sonae (rows and columns 0..2 are the Sonae).
const SLOT_POS = [[-1, 0], [-1, 1], [-1, 2], [0, 3], [1, 3], [2, 3], [3, 2], [3, 1], [3, 0], [2, -1], [1, -1], [0, -1]];
const CELLS = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
const KUMI = {
  T: { name: "Teppo-Gumi", word: _("arquebusiers"), attack: 2, defence: 0 },
  K: { name: "Kiba-Tai", word: _("cavalry"), attack: 2, defence: 2 },
  N: { name: "Nagae-Gumi", word: _("spearmen"), attack: 0, defence: 2 },
};
const ARMY = {
  west: { name: _("West"), mark: "●" },
  east: { name: _("East"), mark: "■" },
  dual: { name: _("Either army"), mark: "◐" },
  kagemusha: { name: _("Kagemusha"), mark: "◆" },
};
// The marks that are words on the table, in kanji and in English (the header's toggle): the
// backs of a Kumi and of a Sashimono card, and the Kagemusha's Army on its path.
const MARKS = {
  kumi: { kanji: "兵", english: _("Kumi") },
  sashimono: { kanji: "指", english: _("Sash.") },
  army: { kanji: "影", english: _("Army") },
};
// The page's label preference (the model's `labels`), kept at each update: the card helpers
// below are shared by every part of the drawing.
let LABELS = "kanji";
function english() {
  return LABELS === "english";
}
/** A mark of MARKS as a span: the kanji, or the English word (class `en`, a smaller font). */
function markSpan(cls, name, attrs = {}) {
  return el(`span.${cls}${english() ? ".en" : ""}`, attrs, english() ? MARKS[name].english : MARKS[name].kanji);
}

const REQUIRES = {
  pair: _("any two Kumi of one type"),
  hidden: _("a Hidden Kumi"),
  gunbai: _("the Gunbai fan (flip a Kumi of this line first)"),
};
const row = (n) => fmt(_("row {n}"), { n });
const column = (c) => fmt(_("column {c}"), { c });
const LINE_WORDS = { row1: row(1), row2: row(2), row3: row(3), cola: column("a"), colb: column("b"), colc: column("c"), line: _("Kumi line") };
/** A Sashimono space's name in words: "top a", "left 1". */
const slotWords = (slot) => {
  const [side, at] = slot.split("-");
  const words = { top: _("top {at}"), bottom: _("bottom {at}"), left: _("left {at}"), right: _("right {at}") };
  return fmt(words[side] || "{at}", { at });
};
const LINE_CELLS = {
  row1: ["a1", "b1", "c1"],
  row2: ["a2", "b2", "c2"],
  row3: ["a3", "b3", "c3"],
  cola: ["a1", "a2", "a3"],
  colb: ["b1", "b2", "b3"],
  colc: ["c1", "c2", "c3"],
};
const REASONS = {
  vp: _("reached the victory points"),
  kagemusha_vp: _("the Kagemusha reached the victory points"),
  kagemusha_deck: _("a deck of the Kagemusha ran out"),
  resignation: "resignation",
  timeout: _("time ran out"),
  abandoned: _("a player left the game"),
  length_limit: _("the game reached its length limit"),
};

let catalogPromise = null;
/** The choices whose words are fixed (the engine's DONE_WORDS), by notation. */
const DONE_LABELS = {
  done: N_("Done with this card"),
  "ante done": N_("No more ante: fight"),
  end: N_("Place no more Kumi"),
  keep: N_("Keep the rest in play"),
};

/** A Score turn's bonus actions: their effects as the engine words them (describe.py's
 * _bonus_effect), translated here; the names are the engine's words (score_turn.BONUS). */
const BONUS_EFFECTS = {
  Bakufu: N_("draw a Sashimono, then put a Sashimono at the bottom of your deck"),
  Dojo: N_("train a Kumi"),
  Gennin: N_("flip a Kumi, then draw 1 Kumi"),
  Gyorin: N_("rearrange a line"),
};
/** The choices that pass (notation "no ..."). */
const PASS_LABELS = { "no bonus": N_("No bonus"), "no training": N_("No training") };
/** A Sashimono space as a button names it ("Above column a"), from its notation (top-a). */
const SLOT_LABELS = { top: N_("Above column {at}"), bottom: N_("Below column {at}"), left: N_("Left of row {at}"), right: N_("Right of row {at}") };
/** The choices of a card from a hand (or a looked-at card): their label by the notation's verb. */
const HAND_LABELS = {
  kumi: N_("Place {name}"),
  ante: N_("Ante {name}"),
  with: N_("Train with {name}"),
  discard: N_("Discard {name}"),
  bury: N_("Bury {name}"),
  keep: N_("Keep {name}"),
  bottom: N_("Bottom: {name}"),
};

/** The effects of our reference card's actions (cards/reference.toml), which the card
 * catalog does not hold: marked for the catalog, translated where a button shows them. */
const REFERENCE_EFFECTS = [N_("battle a line")];

/** The choices on one Kumi of a Sonae, by the notation's verb: [own, enemy] labels. */
const CELL_LABELS = {
  train: [N_("Train {cell}"), N_("Train {cell} (enemy)")],
  swap: [N_("Swap {cell}"), N_("Swap {cell} (enemy)")],
  flip: [N_("Flip {cell}"), N_("Flip {cell} (enemy)")],
  reveal: [N_("Reveal {cell}"), N_("Reveal {cell} (enemy)")],
  gunbai: [N_("Gunbai {cell}"), N_("Gunbai {cell} (enemy)")],
  peek: [N_("Peek at {cell}"), N_("Peek at {cell} (enemy)")],
};

/** A Kumi type's or a card's name in the page's language (a card's name is the rulebook's). */
function itemName(l, catalog) {
  if (l.kumi && KUMI[l.kumi]) return word(KUMI[l.kumi].name);
  if (l.card) return catalog.get(l.card)?.name || pretty(l.card);
  return null;
}

/** A choice's words in the page's language, from its kind and data (the engine's label is
 * English); null keeps the engine's label (a choice this table does not word yet). */
function choiceWords(l, catalog) {
  if (DONE_LABELS[l.action]) return _(DONE_LABELS[l.action]);
  if (PASS_LABELS[l.action]) return _(PASS_LABELS[l.action]);
  const verb = String(l.action || "").split(" ")[0];
  if (l.kind === "bonus" && l.bonus) {
    const effect = BONUS_EFFECTS[l.bonus];
    return effect ? fmt(_("Bonus {name}: {effect}"), { name: word(l.bonus), effect: _(effect) }) : fmt(_("Bonus: {name}"), { name: word(l.bonus) });
  }
  if (l.kind === "choose_slot" && l.slot) {
    const [side, at] = String(l.slot).split("-");
    if (SLOT_LABELS[side]) return fmt(_(SLOT_LABELS[side]), { at });
  }
  if (l.kind === "casualty" && (l.enemy || l.cell)) {
    if (l.enemy) return fmt(_("Enemy casualty {cell}"), { cell: l.enemy });
    return fmt(l.side === "enemy" ? _("Casualty {cell} (enemy)") : _("Casualty {cell}"), { cell: l.cell });
  }
  if (HAND_LABELS[verb] && (l.kind !== "bury" || !l.slot)) {
    const name = itemName(l, catalog);
    if (name) return fmt(_(HAND_LABELS[verb]), { name });
  }
  if (l.kind === "bury" && l.slot) return fmt(_("Bury {name}"), { name: l.slot });
  // the choices on a Kumi of a Sonae, a line or an order (also clickable on the board)
  const cell = l.cell || "";
  const enemy = l.side === "enemy";
  if (CELL_LABELS[verb] && cell) return fmt(_(CELL_LABELS[verb][enemy ? 1 : 0]), { cell });
  if (verb === "return" && (l.slot || cell)) return fmt(enemy ? _("Return {slot} to hand (enemy)") : _("Return {slot} to hand"), { slot: l.slot || cell });
  if ((verb === "battle" || verb === "rearrange") && l.line) {
    if (l.line === "line") return verb === "battle" ? _("Attack the Kumi line") : _("Rearrange the Kumi line");
    if (LINE_WORDS[l.line]) return fmt(verb === "battle" ? _("Attack {line}") : _("Rearrange {line}"), { line: LINE_WORDS[l.line] });
  }
  if (verb === "order") {
    const order = (String(l.action).split(" ")[1] || "").match(/../g);
    if (order) return fmt(_("Order {order}"), { order: order.join(", ") });
  }
  if (verb === "choose") return word(String(l.action).slice("choose ".length));
  if (l.kind === "turn" && l.choice === "action") return _("Action turn");
  if (l.kind === "turn" && l.choice === "score") return _("Scoring turn");
  if (l.kind === "play_card" && l.card) return fmt(_("Play {card}"), { card: catalog.get(l.card)?.name || pretty(l.card) });
  if (l.kind === "place" && l.cell) return fmt(l.face === "up" ? _("To {cell} face up") : _("To {cell} hidden"), { cell: l.cell });
  if (l.kind === "swap" && l.cell && verb === "with") return fmt(_("Swap with {cell}"), { cell: l.cell });
  if (l.kind === "card_action" && l.card) {
    // the card's own action (its name is the rulebook's): its effect from the catalog
    const act = (catalog.get(l.card)?.actions || []).find((a) => a.name === l.action.replace(/^do /, ""));
    if (act) return `${act.name}: ${act.text}`;
  }
  // a reference card's action (Utsu): its name as the rulebook spells it, its effect worded
  if (l.kind === "card_action" && l.effect) return `${word(String(l.action).replace(/^do /, ""))}: ${word(l.effect)}`;
  return null;
}

/** The card texts (GET /api/games/sashimono: names, scoring text, actions, ongoing), in the
 * page's language (the texts domain, docs/i18n-texts.md). */
function loadCatalog() {
  if (!catalogPromise) {
    catalogPromise = api("GET", `/api/games/sashimono?lang=${encodeURIComponent(language())}`)
      .then((info) => {
        const cards = new Map();
        for (const c of info.catalog?.cards || []) cards.set(c.id, c);
        return cards;
      })
      .catch(() => {
        catalogPromise = null;
        return new Map();
      });
  }
  return catalogPromise;
}

function pretty(id) {
  return String(id ?? "")
    .split("-")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

function capital(text) {
  const t = String(text || "").trim();
  return t ? t.charAt(0).toUpperCase() + t.slice(1) : "";
}

function armyOf(name) {
  return ARMY[name] || { name: pretty(name), mark: "◇" };
}

function requirementWords(req) {
  if (REQUIRES[req]) return REQUIRES[req];
  return [...req].map((t) => KUMI[t]?.name || t).join(" + ");
}

/** A requirement icon: Kumi letters in their colours, or a word. */
function requirementChip(req) {
  if (req === "gunbai") return el("span.s-req.gunbai", {}, _("Gunbai"));
  if (req === "hidden") return el("span.s-req.hidden", {}, _("Hidden"));
  if (req === "pair") return el("span.s-req.pair", {}, _("Pair"));
  return el("span.s-req", {}, [...req].map((t) => el(`span.s-kumi-letter.k-${t}`, {}, t)));
}

/** What a Sashimono card says, as plain text (for the hover/long-press panel). */
function cardInfo(card, id) {
  if (!card) return `${pretty(id)}.`;
  const lines = [`${card.name} (${armyOf(card.army).name})`];
  if (card.text) lines.push(fmt(_("To score: {text}"), { text: card.text }));
  for (const a of card.actions || []) lines.push(fmt(_("{name} — needs {map}: {text}."), { name: a.name, map: a.requires.map(requirementWords).join(_(" or ")), text: a.text }));
  if (card.ongoing_text) lines.push(card.ongoing_text);
  return lines.join("\n");
}

/** What a Kumi stack is, as plain text. */
function kumiInfo(stack, whose) {
  if (!stack) return _("An empty space (a casualty left it, or nothing was placed yet).");
  if (!stack.types) return fmt(ngettext("{whose} Hidden Kumi ({n} card): its type is unknown to you; hidden, it counts {attack} attack and {defence} defence.", "{whose} Hidden Kumi ({n} cards): its type is unknown to you; hidden, it counts {attack} attack and {defence} defence.", stack.rank), { whose, n: stack.rank, attack: stack.attack, defence: stack.defence });
  const names = [...stack.types].map((t) => `${KUMI[t]?.name || t} (${KUMI[t]?.word || ""})`).join(_(" trained with "));
  const face = stack.face === "up" ? _("face up") : _("Hidden (face down; only those who know see its type)");
  return fmt(_("{whose} {names}, {face}: attack {attack}, defence {defence}."), { whose, names, face, attack: stack.attack, defence: stack.defence });
}

/** A full Sashimono card face: name, army, scoring condition, actions with their Kumi. */
function cardFace(id, catalog, { compact = false } = {}) {
  const card = catalog.get(id);
  const army = armyOf(card?.army);
  return el(
    `div.s-face.army-${card?.army || "none"}${compact ? ".compact" : ""}`,
    {},
    el("div.s-face-name", {}, el("span.s-face-mark", { "aria-hidden": "true" }, army.mark), card?.name || pretty(id)),
    card?.text ? el("div.s-face-score", {}, card.text) : null,
    el(
      "ul.s-face-actions",
      {},
      (card?.actions || []).map((a) => el("li", {}, el("span.s-act-name", {}, a.name), a.requires.map(requirementChip), el("span.s-act-text", {}, a.text))),
    ),
    card?.ongoing_text ? el("div.s-face-ongoing", {}, card.ongoing_text) : null,
  );
}

/** A Kumi (troop) card: its type letters, name, attack and defence, or its back. */
function kumiFace(stack, armyName) {
  if (!stack) return el("div.s-kumi.empty", {}, el("span.s-empty-word", {}, "empty"));
  if (!stack.types) {
    return el(
      `div.s-kumi.back.army-${armyName}`,
      { "data-army": armyName },
      markSpan("s-back-kanji", "kumi", { "aria-hidden": "true" }),
      el("span.s-back-word", {}, stack.rank > 1 ? fmt(_("Hidden ×{rank}"), { rank: stack.rank }) : _("Hidden")),
      // Whose back it is by its army's mark (West ●, East ■), not by its colour alone.
      el("span.s-back-army", { "aria-hidden": "true" }, armyOf(armyName).mark),
    );
  }
  const top = stack.types[stack.types.length - 1];
  return el(
    `div.s-kumi.k-${top}${stack.face === "up" ? "" : ".hidden-known"}`,
    {},
    el("span.s-kumi-types", {}, [...stack.types].map((t) => el(`span.s-kumi-letter.k-${t}`, {}, t))),
    el("span.s-kumi-name", {}, stack.types.length > 1 ? fmt(_("Trained ×{length}"), { length: stack.types.length }) : KUMI[top]?.name || top),
    el("span.s-kumi-power", {}, el("b", {}, `A${stack.attack}`), el("b", {}, `D${stack.defence}`)),
    stack.face === "up" ? null : el("span.s-hidden-tag", {}, _("Hidden")),
  );
}

/** The key of the table object a choice points at (null: a choice shown as a button). */
function targetOf(l) {
  if (l.kind === "play_card" && l.card) return `card:${l.card}`;
  if (l.hand && l.card) return `card:${l.card}`;
  if (l.hand && l.kumi) return `kumi:${l.hand}`;
  if (typeof l.look === "number") return `look:${l.look}`;
  if (l.slot) return `slot:${l.slot}`;
  if (l.cell) return `cell:${l.side === "enemy" ? "enemy" : "own"}:${l.cell}`;
  return null;
}

/** Where the engine's preferred move (the replay's analysis: ``best``, the choice of seat
 * ``seat`` described) is on the table as drawn for the viewer ``me``: the space or Sonae
 * cell it names, on the mover's side (a cell of the enemy's when it says so), and the card
 * or Kumi it plays from the hand only when the viewer is the mover (a hand is secret). */
function bestNodes(root, best, seat, me) {
  if (!best || seat === null) return [];
  const q = (sel) => [...root.querySelectorAll(sel)];
  const side = (s) => `.s-side[data-seat="${s}"]`;
  const mover = me !== null && me === seat;
  if (best.slot) return q(`${side(seat)} .s-slot[data-slot="${CSS.escape(best.slot)}"]`);
  if (best.cell) {
    const cell = CSS.escape(best.cell);
    if (best.side !== "enemy") return q(`${side(seat)} .s-cell[data-cell="${cell}"]`);
    if (best.cell.startsWith("k")) return q(`.kagemusha .s-cell[data-cell="${cell}"]`);
    return q(`${side(1 - seat)} .s-cell[data-cell="${cell}"]`);
  }
  if (!mover) return [];
  if (best.card && (best.kind === "play_card" || best.hand)) return q(`.s-hands .s-hand-card[data-card="${CSS.escape(best.card)}"]`);
  if (best.kumi && best.hand) return q(`.s-hands .s-hand-kumi[data-hand="${CSS.escape(best.hand)}"]`);
  return [];
}

/** Signatures of what the table shows, to mark what the last move changed. */
function signatures(v) {
  const out = new Map();
  for (const s of v.sides || []) {
    (s.sonae || []).forEach((st, i) => out.set(`${s.seat}:cell:${CELLS[i]}`, JSON.stringify(st)));
    for (const slot of SLOTS) out.set(`${s.seat}:slot:${slot}`, JSON.stringify(s.slots?.[slot] || null));
  }
  const k = v.kagemusha;
  if (k) {
    (k.kumi_line || []).forEach((st, i) => out.set(`kage:cell:k${i + 1}`, JSON.stringify(st)));
    (k.sashimono_line || []).forEach((c, i) => out.set(`kage:sas:${i}`, JSON.stringify(c)));
    out.set(`army:${k.army_position}`, "1");
  }
  return out;
}

// What each of the engine's questions asks, in a player's words (the engine's `rule` is the
// rulebook's terse wording, for programs and logs): [to the player deciding, about them].
const QUESTION_WORDS = {
  look_bottom: [_("Setting up: choose the Sashimono to return to the bottom of your deck."), _("which Sashimono to return to the bottom of their deck.")],
  turn: [_("Your turn: choose an Action turn or a Score turn (a Score turn when you hold no Sashimono)."), _("an Action turn or a Score turn.")],
  play: [_("Action turn: play one Sashimono from your hand."), _("which Sashimono to play.")],
  slot: [_("Place your Sashimono next to one line of your Sonae: pick the space."), _("where to place their Sashimono.")],
  do: [_("Use your Sashimono: take each of its actions and its reference card's once at most, in any order, then finish."), _("the actions of their Sashimono.")],
  gunbai: [_("Gunbai fan: flip a Kumi of this line, then take the action."), _("which Kumi to flip with the Gunbai fan.")],
  return_sas: [_("You may take back into your hand Sashimono in play that scored nothing."), _("whether to take back Sashimono.")],
  bonus: [_("You may take one bonus action: Bakufu, Dojo, Gennin or Gyorin."), _("a bonus action.")],
  place: [_("You may play Kumi from your hand into empty spaces of your Sonae."), _("whether to play Kumi.")],
  place_at: [_("Pick an empty space for the Kumi, then play it face up or Hidden."), _("where to play a Kumi.")],
  flip: [_("Flip a Kumi."), _("which Kumi to flip.")],
  keep: [_("Choose the Kumi to keep in your hand; the rest go to the bottom of your deck."), _("which Kumi to keep.")],
  battle: [_("Battle: pick the enemy line your line attacks."), _("which line to attack.")],
  ante: [_("Your ante: reveal Hidden Kumi of your line, add Kumi from hand (+1 each), then Done."), _("their ante for the battle.")],
  casualty: [_("Choose the casualty of the losing line."), _("the casualty of the losing line.")],
  train: [_("Train a face-up Kumi (not in the line just played)."), _("which Kumi to train.")],
  train_with: [_("Put a Kumi of another type from your hand on top of it."), _("which Kumi to train with.")],
  rearrange: [_("Gyorin: choose the line of your Sonae to rearrange."), _("which line to rearrange.")],
  perm: [_("Rearrange the line: choose its new order."), _("the new order of a line.")],
  swap: [_("Swap: choose the first Kumi."), _("which Kumi to swap.")],
  swap_with: [_("Swap: choose the second Kumi."), _("which Kumi to swap.")],
  return_kumi: [_("Pick a Kumi to send back, its whole stack, to its owner's hand."), _("which Kumi to return.")],
  discard: [_("Discard a Kumi from your hand to the bottom of your deck."), _("which Kumi to discard.")],
  bury: [_("Put one of your Sashimono (in hand or in play) at the bottom of your deck."), _("which Sashimono to put at the bottom.")],
  peek: [_("Look at one of the enemy's Hidden Kumi."), _("which Hidden Kumi to look at.")],
  choose: [_("Choose one of the card's effects."), _("one of the card's effects.")],
};

/** The pending question in a player's words: to the one deciding (``mine``) or about them. */
function askWords(p, mine) {
  const words = QUESTION_WORDS[p?.question];
  if (words) return words[mine ? 0 : 1];
  return mine ? _("Your decision: pick one of the choices.") : _("their next step.");
}

export default {
  name: "sashimono",
  kanji: "指物",
  title: _("Sashimono"),
  stylesheet: true,
  notationHint: _("Type a move, e.g. flip a1"),
  tagline: _("Two armies of troop cards in their Sonae, and the banners around them: twelve spaces, bowed cards, victory points."),
  seatCount: (options) => (options.mode === "solo" ? 1 : 2),
  howTo: [
    _("Each army is a Sonae of nine Kumi (troop cards), some Hidden. Sashimono (banner) cards go in the twelve spaces around it; their actions need Kumi in the line they sit beside, and a used Sashimono bows."),
    _("On your turn, take an Action turn (play a Sashimono and use its actions: train, flip, swap, battle) or a Score turn (score the bowed Sashimono whose condition your Sonae meets)."),
    _("The first to the VP target wins. In solo play you face the Kagemusha: its Army walks round your Sonae and its Kumi attack the lines nearest it."),
    _("Click a card in your hand, then a highlighted space. Hover or long-press any card to read what it does."),
  ],
  seatName(seat) {
    return [_("West"), _("East")][seat] || fmt(_("Seat {x}"), { x: seat + 1 });
  },
  seatIcon(seat) {
    const a = [ARMY.west, ARMY.east][seat] || ARMY.kagemusha;
    return el(`span.seat-shape.s-seat-${seat}`, {}, a.mark);
  },
  defaultFlip: () => false,
  // The table draws its own prompt (above the cards): the page shows no second one.
  drawsPrompt: true,
  // One shared map (or a table of cards) seen the same way by every seat: nothing to flip.
  canFlip: false,
  statusNote(view) {
    if (!view) return "";
    const vp = (view.sides || []).map((s) => `${armyOf(s.army).name} ${s.vp}`);
    if (view.kagemusha) vp.push(fmt(_("Kagemusha {vp}"), { vp: view.kagemusha.vp }));
    return fmt(_("Turn {turn} · first to {target} VP · {scores} VP"), { turn: view.turn ?? 0, target: view.vp_target, scores: vp.join(" · ") });
  },
  /** The result in the game's words (the end panel and the status use it). */
  resultWords(result, view, held) {
    if (!result) return null;
    const reason = REASONS[result.reason] || String(result.reason || "").replace(/_/g, " ");
    if (view?.mode === "solo") {
      const won = (result.winners || []).includes(0);
      const k = view.kagemusha;
      const score = k ? fmt(_(" (you {mine} VP, the Kagemusha {theirs} VP)"), { mine: view.sides?.[0]?.vp ?? 0, theirs: k.vp }) : "";
      return {
        headline: won ? _("You defeat the Kagemusha!") : _("The Kagemusha wins"),
        reason: `${won ? "You win" : "The Kagemusha wins"}: ${reason}${score}.`,
        kanji: won ? "勝" : "負",
      };
    }
    // A duel: the winner and how, in words (the headline stays the page's own).
    const names = (result.winners || []).map((w) => armyOf(view?.sides?.find((x) => x.seat === w)?.army).name);
    if (!names.length) return { reason: fmt(_("No winner: {reason}."), { reason }) };
    const vp = (view?.sides || []).map((x) => `${armyOf(x.army).name} ${x.vp}`).join(", ");
    const how = result.reason === "vp" ? (view?.vp_target ? fmt(_("the first to {target} VP"), { target: view.vp_target }) : _("the first to the target of VP")) : reason;
    return { reason: `${names.join(" and ")} ${names.length > 1 ? "win" : "wins"}: ${how} (${vp} VP).` };
  },
  create(root) {
    root.classList.add("sashimono");
    let model = null;
    let catalog = new Map();
    let focus = null; // the table object clicked whose choices are shown
    let lastKey = "";
    let lastSame = "";
    let dragging = null; // the play_card choice of the card being dragged
    let pendingSlot = null; // the slot a card was dropped on
    let lastSig = null;
    let changed = new Set();
    const info = el("div.s-info", { role: "tooltip", hidden: true });
    let pressTimer = null;
    let suppressClick = false;

    // A touch anywhere else puts a long-press explanation away.
    root.addEventListener("pointerdown", (e) => {
      if (e.pointerType !== "mouse" && !e.target.closest?.("[data-info]")) hideInfo();
    });

    loadCatalog().then((c) => {
      catalog = c;
      // Drawn again with the cards' names: a focused choice keeps the focus.
      if (model) keepActionFocus([root], draw);
    });

    const showInfo = (node) => {
      const text = node.dataset.info;
      if (!text) return;
      clear(info).append(...text.split("\n").map((line, i) => el(i ? "p" : "strong", {}, line)));
      info.hidden = false;
      const r = node.getBoundingClientRect();
      const w = Math.min(320, window.innerWidth - 16);
      info.style.cssText = `width:${w}px;left:${Math.max(8, Math.min(r.left, window.innerWidth - w - 8))}px;top:${r.bottom + 6}px`;
      // Flip above the card when it would leave the window.
      const h = info.getBoundingClientRect().height;
      if (r.bottom + 6 + h > window.innerHeight) info.style.top = `${Math.max(8, r.top - h - 6)}px`;
    };
    const hideInfo = () => {
      info.hidden = true;
    };
    /** Hover (mouse), focus (keyboard) or long-press (touch) shows what a thing is and does. */
    const explain = (node, text) => {
      node.dataset.info = text;
      node.setAttribute("aria-label", text.split("\n")[0]);
      node.addEventListener("mouseenter", () => showInfo(node));
      node.addEventListener("mouseleave", hideInfo);
      node.addEventListener("focus", () => showInfo(node));
      node.addEventListener("blur", hideInfo);
      node.addEventListener("pointerdown", (e) => {
        suppressClick = false; // a long-press eats only the click that ends it
        if (e.pointerType === "mouse") return;
        hideInfo();
        clearTimeout(pressTimer);
        pressTimer = setTimeout(() => {
          suppressClick = true;
          showInfo(node);
        }, 450);
      });
      for (const ev of ["pointerup", "pointercancel", "pointerleave"]) node.addEventListener(ev, () => clearTimeout(pressTimer));
      node.addEventListener("contextmenu", (e) => e.preventDefault());
      return node;
    };

    const draw = () => {
      hideInfo();
      const v = model.view || {};
      const me = model.seat ?? null;
      const legal = model.interactive ? model.legal : [];
      const targets = new Map();
      for (const l of legal) {
        const t = targetOf(l);
        if (!t) continue;
        if (!targets.has(t)) targets.set(t, []);
        targets.get(t).push(l);
      }
      if (focus && !targets.has(focus)) focus = null;
      const drawn = new Set();
      const choose = (key) => {
        if (suppressClick) {
          suppressClick = false;
          return;
        }
        const options = targets.get(key) || [];
        hideInfo();
        if (options.length === 1) {
          focus = null;
          model.send(options[0].action);
          return;
        }
        focus = focus === key || !options.length ? null : key;
        draw();
      };
      /** Make ``node`` the clickable object ``key`` when a choice points at it. */
      const clickable = (node, key, changedKey = null) => {
        node.dataset.key = key;
        if (changedKey && changed.has(changedKey)) node.classList.add("s-changed");
        if (!targets.has(key)) return node;
        drawn.add(key);
        node.classList.add("s-target");
        if (focus === key) node.classList.add("s-focus");
        node.dataset.target = key;
        node.tabIndex = 0;
        node.setAttribute("role", "button");
        const opts = targets.get(key);
        node.dataset.choice = opts.length === 1 ? opts[0].label : fmt(_("{length} choices"), { length: opts.length });
        node.addEventListener("click", () => choose(key));
        node.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            choose(key);
          }
        });
        return node;
      };

      const sideOf = (seat) => (me === null ? (seat === 0 ? "own" : "enemy") : seat === me ? "own" : "enemy");
      const solo = !!v.kagemusha;
      const k = v.kagemusha;

      /** One Sonae: the 3x3 Kumi in the ring of twelve Sashimono spaces. */
      const sonae = (s) => {
        const who = sideOf(s.seat);
        const army = armyOf(s.army);
        const whose = me === null || who !== "own" ? fmt(_("{name}'s"), { name: army.name }) : _("Your");
        const grid = el(`div.s-sonae.army-${s.army}`, { "aria-label": fmt(_("{name} Sonae"), { name: army.name }), "data-army": s.army, "data-mark": army.mark });
        // The army's mark in the ring's empty corner: whose Sonae, by shape as well as colour.
        grid.append(el("span.s-sonae-mark", { "aria-hidden": "true", style: "grid-row:1;grid-column:1" }, army.mark));
        const battle = v.battle;
        const fighting = new Set();
        if (battle) {
          if (battle.attacker === s.seat && LINE_CELLS[battle.attack_line]) LINE_CELLS[battle.attack_line].forEach((c) => fighting.add(c));
          if (battle.defender === s.seat && LINE_CELLS[battle.defence_line]) LINE_CELLS[battle.defence_line].forEach((c) => fighting.add(c));
        }
        (s.sonae || []).forEach((stack, i) => {
          const cell = CELLS[i];
          const node = el(`div.s-cell${fighting.has(cell) ? ".s-battle" : ""}`, { "data-cell": cell, style: `grid-row:${Math.floor(i / 3) + 2};grid-column:${(i % 3) + 2}` }, kumiFace(stack, s.army), el("span.s-cell-name", { "aria-hidden": "true" }, cell));
          if (!stack) node.classList.add("is-empty");
          explain(node, `${cell}: ${kumiInfo(stack, whose)}`);
          grid.append(clickable(node, `cell:${who}:${cell}`, `${s.seat}:cell:${cell}`));
        });
        SLOTS.forEach((slot, i) => {
          const [r, c] = SLOT_POS[i];
          const held = s.slots?.[slot];
          const node = el(`div.s-slot${held ? "" : ".is-empty"}`, { "data-slot": slot, style: `grid-row:${r + 2};grid-column:${c + 2}` });
          if (held) {
            const card = catalog.get(held.card);
            node.append(
              el(
                `div.s-slotcard.army-${card?.army || s.army}${held.bowed ? ".bowed" : ""}`,
                {},
                el("span.s-slot-name", {}, card?.name || pretty(held.card)),
                el("span.s-slot-reqs", {}, (card?.actions || []).map((a) => requirementChip(a.requires[0] || ""))),
              ),
            );
            node.dataset.card = held.card;
            if (held.bowed) node.dataset.bowed = "true";
            explain(node, `${slot}${held.bowed ? " (bowed: used)" : ""}: ${cardInfo(card, held.card)}`);
          } else {
            node.append(el("span.s-slot-word", {}, slotWords(slot)));
            explain(node, fmt(_("{slot}: an empty Sashimono space."), { slot }));
          }
          if (solo && s.seat === 0 && k) {
            // The Kagemusha's Army walks these twelve spaces in order (its path).
            node.append(el("span.s-path", { "aria-hidden": "true" }, String(i + 1)));
            if (k.army_position === i + 1) {
              node.append(markSpan("s-army", "army"));
              node.classList.add("has-army");
              node.dataset.army = "true";
              node.dataset.info = `${node.dataset.info}\nThe Kagemusha's Army stands here (space ${i + 1}): no Sashimono may be played onto it.`;
            } else if (k.next_position === i + 1) {
              node.classList.add("army-next");
              node.dataset.info = `${node.dataset.info}\nThe Kagemusha's Army moves here next (space ${i + 1}).`;
            }
          }
          if (who === "own" && me !== null && !held && !node.dataset.army) {
            node.classList.add("s-drop");
            node.addEventListener("dragover", (e) => {
              if (!dragging) return;
              e.preventDefault();
              node.classList.add("s-drop-over");
            });
            node.addEventListener("dragleave", () => node.classList.remove("s-drop-over"));
            node.addEventListener("drop", (e) => {
              e.preventDefault();
              if (!dragging) return;
              const play = dragging;
              dragging = null;
              root.classList.remove("s-dragging");
              pendingSlot = { slot, play: play.action }; // the slot follows (see update)
              model.send(play.action);
            });
          }
          grid.append(clickable(node, who === "own" ? `slot:${slot}` : `enemy-slot:${slot}`, `${s.seat}:slot:${slot}`));
        });
        return grid;
      };

      const sidePanel = (s, i) => {
        const who = sideOf(s.seat);
        const army = armyOf(s.army);
        const mine = who === "own" && me !== null;
        // "first" and "second": where the panel goes (yours first; a spectator sees seat order)
        return el(
          `section.s-side.${mine ? "mine" : "theirs"}.${i ? "second" : "first"}.army-${s.army}`,
          { "data-seat": s.seat },
          el(
            "div.s-side-head",
            {},
            el("strong", {}, army.mark, " ", army.name, mine ? _(" (you)") : ""),
            el("span.s-vp", {}, fmt(_("{vp} VP"), { vp: s.vp })),
            el("span.s-counts", {}, fmt(_("Kumi {hand_count} in hand, {deck_count} in deck · Sashimono {sashimono_hand_count} in hand, {sashimono_deck_count} in deck"), { hand_count: s.hand_count, deck_count: s.deck_count, sashimono_hand_count: s.sashimono_hand_count, sashimono_deck_count: s.sashimono_deck_count })),
          ),
          sonae(s),
          s.scored?.length
            ? el("div.s-scored", {}, el("span.s-label", {}, "Scored:"), s.scored.map((id) => explain(el("span.s-chip", {}, catalog.get(id)?.name || pretty(id)), cardInfo(catalog.get(id), id))))
            : null,
          mine ? null : el("div.s-backs", { "aria-label": fmt(_("{name}'s hand"), { name: army.name }) }, el("span.s-label", {}, _("Hand:")), Array.from({ length: Math.min(s.hand_count, 8) }, () => markSpan("s-back.kumi", "kumi", { title: _("A Kumi, face down") })), Array.from({ length: Math.min(s.sashimono_hand_count, 6) }, () => markSpan("s-back.sas", "sashimono", { title: _("A Sashimono card, face down") })),
            // The legend of the backs: what each mark is, and how many.
            el("span.s-backs-legend", {}, fmt(_("{kumi} Kumi ({kumiMark}) · {sashimono} Sashimono ({sashimonoMark})"), { kumi: s.hand_count, kumiMark: MARKS.kumi[english() ? "english" : "kanji"], sashimono: s.sashimono_hand_count, sashimonoMark: MARKS.sashimono[english() ? "english" : "kanji"] }))),
        );
      };

      /** Your hands (Kumi and Sashimono) and what you are looking at. */
      const handStrip = () => {
        const own = (v.sides || []).find((s) => s.seat === me);
        if (!own) return null;
        const kumi = (own.hand || []).map((t, i) => {
          const key = `kumi:h${i + 1}`;
          const node = el(`div.s-hand-kumi.k-${t}`, { "data-hand": `h${i + 1}` }, el("span.s-kumi-letter.big", {}, t), el("span.s-kumi-name", {}, KUMI[t]?.name || t), el("span.s-kumi-power", {}, `A${KUMI[t]?.attack ?? 0} D${KUMI[t]?.defence ?? 0}`));
          explain(node, fmt(_("{name} ({word}) in your hand: attack {attack}, defence {defence} face up; Hidden, it counts 1 and 1."), { name: KUMI[t]?.name || t, word: KUMI[t]?.word || "", attack: KUMI[t]?.attack, defence: KUMI[t]?.defence }));
          return clickable(node, key);
        });
        const cards = (own.sashimono_hand || []).map((id) => {
          const node = el("div.s-hand-card", { "data-card": id }, cardFace(id, catalog));
          explain(node, cardInfo(catalog.get(id), id));
          const play = (targets.get(`card:${id}`) || []).find((l) => l.kind === "play_card");
          if (play) {
            // Dragging a card onto a space plays it there: the card, then that slot.
            node.draggable = true;
            node.addEventListener("dragstart", (e) => {
              hideInfo();
              e.dataTransfer.setData("text/plain", id);
              e.dataTransfer.effectAllowed = "move";
              dragging = play;
              root.classList.add("s-dragging");
            });
            node.addEventListener("dragend", () => {
              dragging = null;
              root.classList.remove("s-dragging");
            });
          }
          return clickable(node, `card:${id}`);
        });
        const looking = v.looking && v.looking.owner === me && Array.isArray(v.looking.cards) ? v.looking : null;
        const looked = looking
          ? looking.cards.map((item, i) => {
              const node = looking.kind === "kumi" ? el(`div.s-hand-kumi.k-${item}`, {}, el("span.s-kumi-letter.big", {}, item), el("span.s-kumi-name", {}, KUMI[item]?.name || item)) : el("div.s-hand-card", {}, cardFace(item, catalog));
              explain(node, looking.kind === "kumi" ? fmt(_("{name}: the Kumi you are looking at."), { name: KUMI[item]?.name || item }) : cardInfo(catalog.get(item), item));
              return clickable(node, `look:${i}`);
            })
          : [];
        // Each group's row scrolls sideways when the hand is wider than the table: a stop of
        // the Tab key, named by its heading, so the keyboard scrolls it too (the arrows).
        const group = (cls, heading, items) =>
          el(`div.s-hand-group${cls}`, {}, el("h2", {}, heading), el("div.s-hand-row", { tabindex: 0, role: "group", "aria-label": heading }, items));
        return el(
          "section.s-hands",
          {},
          looked.length ? group(".looking", looking.kind === "kumi" ? _("Kumi you look at") : _("Sashimono you look at"), looked) : null,
          group("", fmt(_("Your Kumi ({length})"), { length: kumi.length }), kumi.length ? kumi : el("span.s-none", {}, _("none"))),
          group(".cards", fmt(_("Your Sashimono ({length})"), { length: cards.length }), cards.length ? cards : el("span.s-none", {}, _("none"))),
        );
      };

      const kagemushaPanel = () => {
        const army = armyOf(k.army);
        const line = (k.kumi_line || []).map((stack, i) => {
          const node = el("div.s-cell.kage", { "data-cell": `k${i + 1}` }, kumiFace(stack, "kagemusha"), el("span.s-cell-name", { "aria-hidden": "true" }, `k${i + 1}`));
          if (!stack) node.classList.add("is-empty");
          explain(node, `k${i + 1}: ${kumiInfo(stack, "The Kagemusha's")}`);
          return clickable(node, `cell:enemy:k${i + 1}`, `kage:cell:k${i + 1}`);
        });
        const traps = (k.sashimono_line || []).map((c, i) => {
          const card = catalog.get(c.card);
          const node = el(`div.s-trap${c.bowed ? ".bowed" : ""}`, {}, el("span.s-slot-name", {}, card?.name || pretty(c.card)), c.bowed ? el("span.s-bowed-word", {}, "bowed") : null);
          explain(node, `${cardInfo(card, c.card)}\n${c.bowed ? _("The Kagemusha's trap: bowed, it scores at the start of the Kagemusha's turn.") : _("The Kagemusha's trap: you bow it by meeting its condition.")}`);
          if (changed.has(`kage:sas:${i}`)) node.classList.add("s-changed");
          return node;
        });
        const up = (t) => (k.kumi_line || []).filter((st) => st && st.face === "up" && st.types?.includes(t)).length;
        const plans = [];
        if (up("T")) plans.push(fmt(ngettext("{n} battle on your {line} (its Teppo-Gumi)", "{n} battles on your {line} (its Teppo-Gumi)", up("T")), { n: up("T"), line: LINE_WORDS[k.column_attacked] || k.column_attacked }));
        if (up("N")) plans.push(fmt(ngettext("{n} battle on your {line} (its Nagae-Gumi)", "{n} battles on your {line} (its Nagae-Gumi)", up("N")), { n: up("N"), line: LINE_WORDS[k.row_attacked] || k.row_attacked }));
        if (up("K")) plans.push(fmt(_("{up} more Kumi to its line (its Kiba-Tai)"), { up: up("K") }));
        return el(
          "section.s-side.theirs.second.kagemusha",
          {},
          el("div.s-side-head", {}, el("strong", {}, ARMY.kagemusha.mark, _(" The Kagemusha ("), army.name, ")"), el("span.s-vp", {}, fmt(_("{vp} VP"), { vp: k.vp })), el("span.s-counts", {}, fmt(_("Kumi deck {kumi_deck_count} · Sashimono deck {sashimono_deck_count}"), { kumi_deck_count: k.kumi_deck_count, sashimono_deck_count: k.sashimono_deck_count }))),
          el("p.s-army-line", {}, fmt(_("Its Army stands on space {at} ({atName}) of your Sonae and moves next to space {next} ({nextName})."), { at: k.army_position, atName: SLOTS[k.army_position - 1] || "?", next: k.next_position, nextName: SLOTS[k.next_position - 1] || "?" })),
          el("p.s-plan", {}, plans.length ? fmt(_("Its next turn: {join}; then it draws a Kumi and its Army moves on."), { join: plans.join("; ") }) : _("Its next turn: it draws a Kumi and its Army moves on.")),
          el("h2", {}, _("Kumi line")),
          el("div.s-kage-line", {}, line.length ? line : el("span.s-none", {}, "empty")),
          el("h2", {}, _("Sashimono line (traps)")),
          el("div.s-kage-line.traps", {}, traps.length ? traps : el("span.s-none", {}, "empty")),
          k.scored?.length ? el("div.s-scored", {}, el("span.s-label", {}, "Scored:"), k.scored.map((id) => el("span.s-chip", {}, catalog.get(id)?.name || pretty(id)))) : null,
          k.challenges?.length ? el("div.s-challenges", {}, el("h2", {}, _("Challenges in play")), el("ul", {}, k.challenges.map((c) => el("li", {}, capital(c))))) : null,
        );
      };

      // What is being decided, in words.
      const p = v.prompt;
      const mineToDecide = model.interactive && p && p.seat === me;
      const sentences = [];
      if (v.battle) {
        const b = v.battle;
        const name = (seat) => (seat === 2 ? _("The Kagemusha") : seat === me ? _("You") : armyOf(v.sides?.find((s) => s.seat === seat)?.army).name);
        const line = (l) => LINE_WORDS[l] || l;
        const defender = b.defender === me ? _("your") : b.defender === 2 ? _("the Kagemusha's") : fmt(_("{name}'s"), { name: name(b.defender) });
        const anted = Object.values(b.ante_counts || {}).reduce((a, n) => a + n, 0);
        const antes = anted ? fmt(_(" Kumi anted so far: {anted}."), { anted }) : "";
        sentences.push(el("p.s-battle-line", {}, fmt(b.attacker === me ? _("Battle: you attack with {line} against {defender} {target}{bonus}.") : _("Battle: {name} attacks with {line} against {defender} {target}{bonus}."), { name: name(b.attacker), line: b.attacker === 2 ? _("its Kumi line") : line(b.attack_line), defender, target: line(b.defence_line), bonus: b.bonus ? fmt(_(" (+{n} attack)"), { n: b.bonus }) : "" }) + antes));
      }
      if (v.played) {
        const card = catalog.get(v.played.card);
        sentences.push(el("p.s-played", {}, fmt(_("In play: {card} beside {line} ({slot}){used}."), { card: card?.name || pretty(v.played.card), line: LINE_WORDS[v.played.line] || v.played.line, slot: v.played.slot, used: v.played.used?.length ? fmt(ngettext("; {n} action used", "; {n} actions used", v.played.used.length), { n: v.played.used.length }) : "" })));
      }
      let promptText;
      let hint = "";
      if (mineToDecide) {
        const asked = askWords(p, true);
        promptText = focus ? fmt(_("{asked} Now pick one of the choices for {split}."), { asked, split: focus.split(":").pop() }) : asked;
        if (targets.size && !focus) hint = [...targets.keys()].some((t) => t.startsWith("card:")) ? _("Click a card in your hand.") : _("Click a highlighted card or space.");
      } else if (v.result) {
        promptText = _("The game is over.");
      } else if (p && p.seat === 2) {
        promptText = _("The Kagemusha is acting.");
      } else if (p) {
        const whose = armyOf(v.sides?.find((s) => s.seat === p.seat)?.army).name;
        promptText = fmt(_("{whose} is deciding: {askWords}"), { whose, askWords: askWords(p, false) });
      } else {
        promptText = "";
      }

      // Buttons: the choices that name nothing on the table, and those of the object clicked.
      const buttonFor = (l, primary) =>
        el(`button.action.s-choice${primary ? ".primary" : ""}`, { type: "button", "data-action": l.action, "data-kind": l.kind, "aria-label": choiceWords(l, catalog) || l.text || l.label, onclick: () => { focus = null; hideInfo(); model.send(l.action); } }, choiceWords(l, catalog) || l.label || l.action);

      const sides = v.sides || [];
      const ordered = [...sides].sort((a, b) => (a.seat === me ? -1 : b.seat === me ? 1 : a.seat - b.seat));
      const table = el(
        `div.s-table${solo ? ".solo" : ""}`,
        {},
        ordered.map(sidePanel),
        handStrip(),
        k ? kagemushaPanel() : null,
      );
      const choices = el("div.s-choices", { role: "group", "aria-label": _("Your choices") });
      if (focus) {
        for (const l of targets.get(focus) || []) choices.append(buttonFor(l, true));
        choices.append(el("button.secondary.s-cancel", { type: "button", onclick: () => { focus = null; draw(); } }, _("Cancel")));
      }
      for (const l of legal) {
        const t = targetOf(l);
        // A choice whose object is not drawn still gets a button: nothing needs typing.
        if (!t || !drawn.has(t)) {
          if (!focus || !t) choices.append(buttonFor(l, false));
        }
      }
      clear(root).append(
        el(`div.s-top${mineToDecide ? ".mine" : ""}`, {}, promptText ? el("div.prompt.s-prompt", { "data-question": p?.question || "" }, promptText, hint ? el("span.s-hint", {}, ` ${hint}`) : null) : null, sentences, choices.children.length ? choices : null),
        table,
        info,
      );
      for (const node of bestNodes(root, model.bestMove, model.bestSeat ?? null, me)) {
        node.classList.add("s-best");
        node.dataset.best = "true";
      }
    };

    return {
      update(m) {
        const key = m.legal.map((l) => l.action).join("|");
        if (pendingSlot) {
          // A card dropped on a space: now that its slot is asked, place it there; when that
          // slot is not one it may take, the player picks among those lit up.
          const slots = m.interactive ? m.legal.filter((l) => l.kind === "choose_slot") : [];
          const wanted = slots.find((l) => l.slot === pendingSlot.slot);
          if (wanted) setTimeout(() => m.send(wanted.action), 0);
          else if (!m.legal.some((l) => l.action === pendingSlot.play)) pendingSlot = null;
        }
        if (key !== lastKey) focus = null;
        lastKey = key;
        // The same position again (the socket repeats what a request already answered): keep
        // the page as it is, so that nothing under the pointer is replaced.
        const same = JSON.stringify([m.view, key, m.interactive, m.seat, m.labels, m.bestMove || null]);
        if (model && same === lastSame) {
          model = m;
          return;
        }
        lastSame = same;
        model = m;
        LABELS = m.labels || "kanji";
        const sig = signatures(m.view || {});
        if (lastSig) {
          const diff = new Set();
          for (const [k, s] of sig) if (lastSig.get(k) !== s) diff.add(k);
          for (const k of lastSig.keys()) if (!sig.has(k)) diff.add(k);
          if (diff.size) changed = diff;
        }
        lastSig = sig;
        draw();
      },
      destroy() {
        clearTimeout(pressTimer);
        clear(root);
      },
    };
  },
};
