// Results in words: "East wins on victory points, 3 to 1", never a raw code such as `vp`.
// ``nameOf(seat)`` gives a seat's name as the page shows it (the game's side and the
// player's name).


import { _, fmt } from "./i18n.js";

/** How a winner won, after "<winner> wins". */
const HOW = {
  vp: _("on victory points"),
  end_of_game: _("on victory points at the end of the game"),
  no_placement: _("on victory points (no tile could be placed)"),
  kagemusha_vp: _("on victory points"),
  kagemusha_deck: _("because a deck ran out"),
  marshal_captured: _("by capturing the Marshal"),
  shogun_captured: _("by capturing the Shogun"),
  invasion: _("by invasion"),
  mate: _("by mate: the Marshal cannot escape"),
  resignation: _("by resignation"),
  timeout: _("on time"),
  abandoned: _("because the opponent left the game"),
};

/** Endings without a winner. */
const NO_WINNER = {
  repetition: _("Drawn: the same position came four times"),
  agreement: _("Drawn by agreement"),
  length_limit: _("No winner: the game reached its length limit"),
};

/** Reasons whose scores are victory points (shown as "3 to 1"). */
const ON_POINTS = new Set(["vp", "end_of_game", "no_placement", "kagemusha_vp"]);

export function reasonInWords(reason) {
  return HOW[reason] || NO_WINNER[reason] || String(reason || "").replace(/_/g, " ");
}

function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return fmt(_("{slice} and {x}"), { slice: names.slice(0, -1).join(", "), x: names[names.length - 1] });
}

/** "3 to 1", or "5, 3 and 1", the winners' scores first. */
function scoreLine(result) {
  const scores = (result.scores || []).map((s) => Math.round(Number(s) * 10) / 10);
  if (scores.length < 2) return "";
  const winners = result.winners || [];
  const order = scores.map((_, i) => i).sort((a, b) => (winners.includes(b) - winners.includes(a)) || scores[b] - scores[a]);
  const parts = order.map((i) => String(scores[i]));
  return parts.length === 2 ? `${parts[0]} to ${parts[1]}` : joinNames(parts);
}

export function resultInWords(result, nameOf) {
  if (!result) return "";
  const reason = result.reason;
  const winners = result.winners || [];
  const points = ON_POINTS.has(reason) ? scoreLine(result) : "";
  if (!winners.length) {
    if (String(reason).startsWith("kagemusha")) return fmt(_("The Kagemusha wins {how}"), { how: reasonInWords(reason) }) + (points ? `, ${points}` : "");
    return NO_WINNER[reason] || fmt(_("No winner ({reasonInWords})"), { reasonInWords: reasonInWords(reason) });
  }
  const names = joinNames(winners.map((s) => nameOf(s)));
  const verb = winners.length > 1 ? "win" : "wins";
  return `${names} ${verb} ${reasonInWords(reason)}${points ? `, ${points}` : ""}`;
}
