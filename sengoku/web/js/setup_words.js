// The setup page's words for each game's options (data only): a human label, a one-line
// explanation, each value's name, and when the option applies (``when``: the other options'
// values it needs; an option that does not apply is hidden and not sent, so the game's
// default stands). An option the server adds and this file does not know is shown with its
// own name and the server's sentence, never hidden.

const YES_NO = { true: "Yes", false: "No" };
// The reading the rulebook itself gives, marked among a house rule's values.
const RULEBOOK = "as the rulebook reads";

export const SETUP_WORDS = {
  gungi: {
    mode: {
      label: "Ruleset",
      help: "How much of Gungi is in play: fixed setups with few pieces first, free setup with every piece later.",
      values: {
        intro: "Introductory — fixed setup, no special pieces",
        beginner: "Beginner — fixed setup with Archers",
        intermediate: "Intermediate — free setup, every piece, towers of 2",
        advanced: "Advanced — free setup, every piece, towers of 3",
      },
    },
    first_player: {
      label: "Who starts",
      help: "The side that places and moves first.",
      values: { white: "White", black: "Black", random: "Drawn at random" },
    },
    self_check: {
      label: "Leaving your Marshal open",
      help: "Whether a move may leave your own Marshal capturable (the rulebook forbids nothing).",
      values: { allowed: "Allowed — a blunder you may make", forbidden: "Forbidden — such moves are not offered" },
    },
    archer_blockers: {
      label: "What blocks an Archer",
      help: "Which squares must be no taller than the Archer for its diagonal jump.",
      values: { front_and_wing: "The front and the wing squares", front: "Only the front square", wing: "Only the wing square" },
    },
    betrayal: {
      label: "Betrayal",
      help: "Which enemy pieces a Captain's betrayal (寝返り) may turn.",
      values: { any_subset: "Any of them, as you choose", all_or_nothing: "All of them or none" },
    },
  },
  gunkimono: {
    players: { label: "Players", help: "How many generals take part (2 to 5)." },
    own_double_stronghold: {
      label: "Two of your strongholds in one formation",
      help: "Whether a stronghold may go in a formation that already holds one of yours (never an opponent's).",
      values: YES_NO,
    },
    empty_banner_stack: {
      label: "A marker at an empty banner stack",
      help: "What happens to an honor marker that reaches a banner stack with no banner left.",
      values: { remove: "It is removed", stay: "It stays on the last row" },
    },
    removed_marker_counts: {
      label: "Removed markers count for every row",
      help: "Whether a marker removed after claiming a banner counts as having reached every stronghold row.",
      values: YES_NO,
    },
    end_tile_replacement: {
      label: "Replace the end-of-game tile",
      help: "Whether whoever draws the end-of-game tile takes another, the row refilled past it.",
      values: YES_NO,
    },
    link_own_formations: {
      label: "Linking your own formations",
      help: "Whether a tile may join two formations the same player controls.",
      values: YES_NO,
    },
  },
  gunshi: {
    variant: {
      label: "Rules",
      help: "The basic game, or one of the rulebook's two advanced variants.",
      values: { basic: "Basic", inspiration: "The Gunshi's Inspiration (advanced 1)", custom: "Custom Deck Construction (advanced 2)" },
    },
    modification: {
      label: "Inspiration",
      help: "How the advanced cards of the Gunshi's Inspiration come into your deck.",
      when: { variant: ["inspiration"] },
      values: {
        1: "3 advanced cards at random, hidden",
        2: "3 advanced cards of your choice",
        3: "2 chosen and revealed; duplicates cancel; shared",
      },
    },
    custom_selection: {
      label: "Choosing the decks",
      help: "How the two players build their 7-card decks.",
      when: { variant: ["custom"] },
      values: {
        alternate: "Alternate picks after one Move each",
        alternate_all: "Alternate picks of all 7 cards (Blue first)",
        agreed: "One deck both players agree on",
        secret: "Each builds a deck in secret",
      },
    },
    move_up_for_selection: {
      label: "Move is up for selection",
      help: "Optional rule: nobody takes a Move first; the Move card is picked like the others.",
      when: { variant: ["custom"] },
      values: YES_NO,
    },
    agreed_deck: {
      label: "The agreed deck",
      help: "A rulebook example deck by name, or any 7 legal cards by code or name.",
      when: { variant: ["custom"], custom_selection: ["agreed"] },
    },
    sanryaku: {
      label: "Sanryaku promo cards",
      help: "Add Rapid Fire, Strategic Switch and Chain Trap to the advanced cards.",
      when: { variant: ["inspiration", "custom"] },
      values: YES_NO,
    },
    preset: {
      label: "Starting position",
      help: "A starter formation with the rulebook's card order, or an example deck.",
      values: {
        none: "None — set up your own formation",
        first_battle: "First battle",
        advanced_1: "Advanced setup 1",
        advanced_2: "Advanced setup 2",
        advanced_3: "Advanced setup 3",
        wave_after_wave: "Example deck: Wave after wave",
        fire_at_will: "Example deck: Fire at will",
        logistical_nightmare: "Example deck: Logistical nightmare",
        who_dares_wins: "Example deck: Who dares wins",
      },
    },
    time_control: {
      label: "Tournament clock",
      help: "The rulebook's tournament time: 20 minutes each, no byo-yomi.",
      values: { none: "No", tournament: "Yes — 20 minutes each" },
    },
    fence_diagonal: {
      label: "Building a Fence diagonally",
      help: "Which edges “diagonally left or right” means for Build Fence.",
      values: { neighbour_front: `The front edges of the side cells (${RULEBOOK})`, front_cell_sides: "The side edges of the cell in front" },
    },
    formation_fences: {
      label: "Fences in the formation",
      help: "Which edges may hold a Fence placed with your formation.",
      values: { touching_home: `Any inner edge touching your Home Territory (${RULEBOOK})`, inside_home: "Only edges between two Home Territory cells" },
    },
    invasion_zone: {
      label: "Invasion Zone",
      help: "Where a unit must reach to win by invasion.",
      values: { back_line: `The opponent's whole back line (${RULEBOOK})`, centre_three: "Its 3 centre cells" },
    },
    shoot_block: {
      label: "Fences against Shoot",
      help: "Which basic shots an enemy Fence blocks.",
      values: { head_on: `Straight forward shots only (${RULEBOOK})`, any_crossed: "Side shots across it too" },
    },
    shield_hit_breaks_fences: {
      label: "Breaking a Shield breaks Fences",
      help: "Whether an attacker that only removes a Shield destroys the enemy Fences around its cell.",
      values: { false: `No (${RULEBOOK})`, true: "Yes" },
    },
    shield_hit_facing: {
      label: "Facing after breaking a Shield",
      help: "Whether an attacker that only removes a Shield turns to face its attack.",
      values: { turn: "It turns", keep: "It keeps its facing" },
    },
    lightning_alone_resupply: {
      label: "Re-Supply from Lightning alone",
      help: "Logistics points gained when only the Lightning position holds a card.",
      values: { 0: `None (${RULEBOOK})`, 1: "One" },
    },
    logistics_cap: {
      label: "Logistics limit",
      help: "The most Military Logistics Points a player may hold; empty for no limit (the rulebook's).",
    },
  },
  sashimono: {
    mode: {
      label: "Opponent",
      help: "Another player, or the Kagemusha automaton in the solo game.",
      values: { duel: "Another player (duel)", solo: "The Kagemusha (solo)" },
    },
    vp: { label: "Victory points to win", help: "2 for a first game, 3 usual, 4 an epic challenge." },
    army: {
      label: "Your army",
      help: "The army you lead; the Kagemusha takes the other.",
      when: { mode: ["solo"] },
      values: { west: "West", east: "East" },
    },
    cards: {
      label: "Card set",
      help: "The cards in play: this site's own set, or one the operator installed.",
      values: { "": "This site's own cards", sengoku: "Sengoku (installed set)" },
    },
    challenge_corners: {
      label: "Challenge: corners",
      help: "When the Army rounds a corner the Kagemusha adds its top Sashimono to its line.",
      when: { mode: ["solo"] },
      values: YES_NO,
    },
    challenge_six_sashimono: {
      label: "Challenge: six Sashimono",
      help: "The Kagemusha holds 6 Sashimono; a 7th makes it score its first one.",
      when: { mode: ["solo"] },
      values: YES_NO,
    },
    challenge_abilities: {
      label: "Challenge: Kagemusha abilities",
      help: "The ongoing effects of the Kagemusha's Sashimono are not ignored.",
      when: { mode: ["solo"] },
      values: YES_NO,
    },
    challenge_discard_five: {
      label: "Challenge: discard five",
      help: "The top 5 of the Kagemusha's Kumi deck are discarded at setup.",
      when: { mode: ["solo"] },
      values: YES_NO,
    },
    challenge_fewer_kumi: {
      label: "Challenge: fewer Kumi",
      help: "You draw 1 fewer Kumi at the end of each of your turns.",
      when: { mode: ["solo"] },
      values: YES_NO,
    },
    challenge_train: {
      label: "Challenge: training",
      help: "At the check, extra matching Kumi train your rightmost legal Kumi instead of being discarded.",
      when: { mode: ["solo"] },
      values: YES_NO,
    },
  },
};

/**
 * The options that change a reading of the rules (house rules): folded away under "House
 * rules" on the setup page, so the choices a first game needs are on screen with Start.
 */
export const HOUSE_RULES = {
  gungi: ["self_check", "archer_blockers", "betrayal"],
  gunshi: ["fence_diagonal", "formation_fences", "invasion_zone", "shoot_block", "shield_hit_breaks_fences", "shield_hit_facing", "lightning_alone_resupply", "logistics_cap"],
  gunkimono: ["own_double_stronghold", "empty_banner_stack", "removed_marker_counts", "end_tile_replacement", "link_own_formations"],
};

/**
 * Ready-made choices of options (buttons over the options), the one marked ``chosen`` (else
 * the first) chosen when the page opens: Gunshi's first game starts from the rulebook's first
 * battle, not a blank formation.
 * An option a preset does not name goes back to the game's default.
 */
export const SETUP_PRESETS = {
  gunshi: [
    { id: "first", label: "First game", help: "The rulebook's first battle: a starter formation and card order.", values: { variant: "basic", preset: "first_battle" } },
    { id: "standard", label: "Standard", help: "The basic game: set up your own formation.", values: { variant: "basic", preset: "none" } },
    { id: "tournament", label: "Tournament", help: "The basic game on the rulebook's tournament clock: 20 minutes each.", values: { variant: "basic", preset: "none", time_control: "tournament" } },
  ],
  sashimono: [
    { id: "first", label: "First game", help: "A duel to 2 victory points.", values: { mode: "duel", vp: 2 } },
    { id: "standard", label: "Standard", help: "A duel to 3 victory points.", values: { mode: "duel", vp: 3 }, chosen: true },
    { id: "tournament", label: "Epic", help: "A duel to 4 victory points.", values: { mode: "duel", vp: 4 } },
  ],
};

/** The words for option ``opt`` of ``game`` (the server's own when this file has none). */
export function optionWords(game, opt) {
  const words = SETUP_WORDS[game]?.[opt.name];
  return {
    label: words?.label || opt.name.replace(/_/g, " "),
    help: words?.help || opt.doc || "",
    when: words?.when || null,
    value: (v) => {
      const named = words?.values?.[String(v)];
      if (named) return named;
      if (v === true) return "Yes";
      if (v === false) return "No";
      return String(v).replace(/_/g, " ");
    },
  };
}

/** Whether an option applies, given the values chosen so far. */
export function applies(words, values) {
  if (!words.when) return true;
  return Object.entries(words.when).every(([name, allowed]) => !(name in values) || allowed.map(String).includes(String(values[name])));
}
