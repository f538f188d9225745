// The setup page's words for each game's options (data only): a human label, a one-line
// explanation, each value's name, and when the option applies (``when``: the other options'
// values it needs; an option that does not apply is hidden and not sent, so the game's
// default stands). An option the server adds and this file does not know is shown with its
// own name and the server's sentence, never hidden.


import { _, fmt } from "./i18n.js";

const YES_NO = { true: _("Yes"), false: _("No") };
// The reading the rulebook itself gives, marked among a house rule's values.
const RULEBOOK = _("as the rulebook reads");

export const SETUP_WORDS = {
  gungi: {
    mode: {
      label: _("Ruleset"),
      help: _("How much of Gungi is in play: fixed setups with few pieces first, free setup with every piece later."),
      values: {
        intro: _("Introductory — fixed setup, no special pieces"),
        beginner: _("Beginner — fixed setup with Archers"),
        intermediate: _("Intermediate — free setup, every piece, towers of 2"),
        advanced: _("Advanced — free setup, every piece, towers of 3"),
      },
    },
    first_player: {
      label: _("Who starts"),
      help: _("The side that places and moves first."),
      values: { white: _("White"), black: _("Black"), random: _("Drawn at random") },
    },
    self_check: {
      label: _("Leaving your Marshal open"),
      help: _("Whether a move may leave your own Marshal capturable (the rulebook forbids nothing)."),
      values: { allowed: _("Allowed — a blunder you may make"), forbidden: _("Forbidden — such moves are not offered") },
    },
    archer_blockers: {
      label: _("What blocks an Archer"),
      help: _("Which squares must be no taller than the Archer for its diagonal jump."),
      values: { front_and_wing: _("The front and the wing squares"), front: _("Only the front square"), wing: _("Only the wing square") },
    },
    betrayal: {
      label: _("Betrayal"),
      help: _("Which enemy pieces a Captain's betrayal (寝返り) may turn."),
      values: { any_subset: _("Any of them, as you choose"), all_or_nothing: _("All of them or none") },
    },
  },
  gunkimono: {
    players: { label: _("Players"), help: _("How many generals take part (2 to 5).") },
    own_double_stronghold: {
      label: _("Two of your strongholds in one formation"),
      help: _("Whether a stronghold may go in a formation that already holds one of yours (never an opponent's)."),
      values: YES_NO,
    },
    empty_banner_stack: {
      label: _("A marker at an empty banner stack"),
      help: _("What happens to an honor marker that reaches a banner stack with no banner left."),
      values: { remove: _("It is removed"), stay: _("It stays on the last row") },
    },
    removed_marker_counts: {
      label: _("Removed markers count for every row"),
      help: _("Whether a marker removed after claiming a banner counts as having reached every stronghold row."),
      values: YES_NO,
    },
    end_tile_replacement: {
      label: _("Replace the end-of-game tile"),
      help: _("Whether whoever draws the end-of-game tile takes another, the row refilled past it."),
      values: YES_NO,
    },
    link_own_formations: {
      label: _("Linking your own formations"),
      help: _("Whether a tile may join two formations the same player controls."),
      values: YES_NO,
    },
  },
  gunshi: {
    variant: {
      label: _("Rules"),
      help: _("The basic game, or one of the rulebook's two advanced variants."),
      values: { basic: _("Basic"), inspiration: _("The Gunshi's Inspiration (advanced 1)"), custom: _("Custom Deck Construction (advanced 2)") },
    },
    modification: {
      label: _("Inspiration"),
      help: _("How the advanced cards of the Gunshi's Inspiration come into your deck."),
      when: { variant: ["inspiration"] },
      values: {
        1: _("3 advanced cards at random, hidden"),
        2: _("3 advanced cards of your choice"),
        3: _("2 chosen and revealed; duplicates cancel; shared"),
      },
    },
    custom_selection: {
      label: _("Choosing the decks"),
      help: _("How the two players build their 7-card decks."),
      when: { variant: ["custom"] },
      values: {
        alternate: _("Alternate picks after one Move each"),
        alternate_all: _("Alternate picks of all 7 cards (Blue first)"),
        agreed: _("One deck both players agree on"),
        secret: _("Each builds a deck in secret"),
      },
    },
    move_up_for_selection: {
      label: _("Move is up for selection"),
      help: _("Optional rule: nobody takes a Move first; the Move card is picked like the others."),
      when: { variant: ["custom"] },
      values: YES_NO,
    },
    agreed_deck: {
      label: _("The agreed deck"),
      help: _("A rulebook example deck by name, or any 7 legal cards by code or name."),
      when: { variant: ["custom"], custom_selection: ["agreed"] },
    },
    sanryaku: {
      label: _("Sanryaku promo cards"),
      help: _("Add Rapid Fire, Strategic Switch and Chain Trap to the advanced cards."),
      when: { variant: ["inspiration", "custom"] },
      values: YES_NO,
    },
    preset: {
      label: _("Starting position"),
      help: _("A starter formation with the rulebook's card order, or an example deck."),
      values: {
        none: _("None — set up your own formation"),
        first_battle: _("First battle"),
        advanced_1: _("Advanced setup 1"),
        advanced_2: _("Advanced setup 2"),
        advanced_3: _("Advanced setup 3"),
        wave_after_wave: _("Example deck: Wave after wave"),
        fire_at_will: _("Example deck: Fire at will"),
        logistical_nightmare: _("Example deck: Logistical nightmare"),
        who_dares_wins: _("Example deck: Who dares wins"),
      },
    },
    time_control: {
      label: _("Tournament clock"),
      help: _("The rulebook's tournament time: 20 minutes each, no byo-yomi."),
      values: { none: _("No"), tournament: _("Yes — 20 minutes each") },
    },
    fence_diagonal: {
      label: _("Building a Fence diagonally"),
      help: _("Which edges “diagonally left or right” means for Build Fence."),
      values: { neighbour_front: fmt(_("The front edges of the side cells ({RULEBOOK})"), { RULEBOOK }), front_cell_sides: _("The side edges of the cell in front") },
    },
    formation_fences: {
      label: _("Fences in the formation"),
      help: _("Which edges may hold a Fence placed with your formation."),
      values: { touching_home: fmt(_("Any inner edge touching your Home Territory ({RULEBOOK})"), { RULEBOOK }), inside_home: _("Only edges between two Home Territory cells") },
    },
    invasion_zone: {
      label: _("Invasion Zone"),
      help: _("Where a unit must reach to win by invasion."),
      values: { back_line: fmt(_("The opponent's whole back line ({RULEBOOK})"), { RULEBOOK }), centre_three: _("Its 3 centre cells") },
    },
    shoot_block: {
      label: _("Fences against Shoot"),
      help: _("Which basic shots an enemy Fence blocks."),
      values: { head_on: fmt(_("Straight forward shots only ({RULEBOOK})"), { RULEBOOK }), any_crossed: _("Side shots across it too") },
    },
    shield_hit_breaks_fences: {
      label: _("Breaking a Shield breaks Fences"),
      help: _("Whether an attacker that only removes a Shield destroys the enemy Fences around its cell."),
      values: { false: fmt(_("No ({x})"), { x: RULEBOOK }), true: _("Yes") },
    },
    shield_hit_facing: {
      label: _("Facing after breaking a Shield"),
      help: _("Whether an attacker that only removes a Shield turns to face its attack."),
      values: { turn: _("It turns"), keep: _("It keeps its facing") },
    },
    lightning_alone_resupply: {
      label: _("Re-Supply from Lightning alone"),
      help: _("Logistics points gained when only the Lightning position holds a card."),
      values: { 0: fmt(_("None ({RULEBOOK})"), { RULEBOOK }), 1: _("One") },
    },
    logistics_cap: {
      label: _("Logistics limit"),
      help: _("The most Military Logistics Points a player may hold; empty for no limit (the rulebook's)."),
    },
  },
  sashimono: {
    mode: {
      label: _("Opponent"),
      help: _("Another player, or the Kagemusha automaton in the solo game."),
      values: { duel: _("Another player (duel)"), solo: _("The Kagemusha (solo)") },
    },
    vp: { label: _("Victory points to win"), help: _("2 for a first game, 3 usual, 4 an epic challenge.") },
    army: {
      label: _("Your army"),
      help: _("The army you lead; the Kagemusha takes the other."),
      when: { mode: ["solo"] },
      values: { west: _("West"), east: _("East") },
    },
    cards: {
      label: _("Card set"),
      help: _("The cards in play: this site's own set, or one the operator installed."),
      values: { "": _("This site's own cards"), sengoku: _("Sengoku (installed set)") },
    },
    challenge_corners: {
      label: _("Challenge: corners"),
      help: _("When the Army rounds a corner the Kagemusha adds its top Sashimono to its line."),
      when: { mode: ["solo"] },
      values: YES_NO,
    },
    challenge_six_sashimono: {
      label: _("Challenge: six Sashimono"),
      help: _("The Kagemusha holds 6 Sashimono; a 7th makes it score its first one."),
      when: { mode: ["solo"] },
      values: YES_NO,
    },
    challenge_abilities: {
      label: _("Challenge: Kagemusha abilities"),
      help: _("The ongoing effects of the Kagemusha's Sashimono are not ignored."),
      when: { mode: ["solo"] },
      values: YES_NO,
    },
    challenge_discard_five: {
      label: _("Challenge: discard five"),
      help: _("The top 5 of the Kagemusha's Kumi deck are discarded at setup."),
      when: { mode: ["solo"] },
      values: YES_NO,
    },
    challenge_fewer_kumi: {
      label: _("Challenge: fewer Kumi"),
      help: _("You draw 1 fewer Kumi at the end of each of your turns."),
      when: { mode: ["solo"] },
      values: YES_NO,
    },
    challenge_train: {
      label: _("Challenge: training"),
      help: _("At the check, extra matching Kumi train your rightmost legal Kumi instead of being discarded."),
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
    { id: "first", label: _("First game"), help: _("The rulebook's first battle: a starter formation and card order."), values: { variant: "basic", preset: "first_battle" } },
    { id: "standard", label: _("Standard"), help: _("The basic game: set up your own formation."), values: { variant: "basic", preset: "none" } },
    { id: "tournament", label: _("Tournament"), help: _("The basic game on the rulebook's tournament clock: 20 minutes each."), values: { variant: "basic", preset: "none", time_control: "tournament" } },
  ],
  sashimono: [
    { id: "first", label: _("First game"), help: _("A duel to 2 victory points."), values: { mode: "duel", vp: 2 } },
    { id: "standard", label: _("Standard"), help: _("A duel to 3 victory points."), values: { mode: "duel", vp: 3 }, chosen: true },
    { id: "tournament", label: _("Epic"), help: _("A duel to 4 victory points."), values: { mode: "duel", vp: 4 } },
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
      if (v === true) return _("Yes");
      if (v === false) return _("No");
      return String(v).replace(/_/g, " ");
    },
  };
}

/** Whether an option applies, given the values chosen so far. */
export function applies(words, values) {
  if (!words.when) return true;
  return Object.entries(words.when).every(([name, allowed]) => !(name in values) || allowed.map(String).includes(String(values[name])));
}
