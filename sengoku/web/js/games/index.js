// Every game's renderer and its home-page text. A game without its own drawing yet falls
// back to the generic renderer: its view summarized and its legal actions as buttons.

import gungi from "./gungi.js";
import gunkimono from "./gunkimono.js";
import { makeGeneric } from "./generic.js";

const gunshi = makeGeneric({
  name: "gunshi",
  kanji: "軍師",
  title: "Gunshi",
  tagline: "Tactics on a 7x7 field: units with facing, shields and fences, commanded by cards.",
  howTo: [
    "Each side fields units on a 7x7 field; a unit's facing decides what it can attack and where its shields protect it.",
    "Command cards, played from your Command Row, move and fight; the opponent sees only their backs.",
    "Pick one of the legal moves listed beside the field.",
  ],
});

const sashimono = makeGeneric({
  name: "sashimono",
  kanji: "指物",
  title: "Sashimono",
  tagline: "Two armies of banner cards in their Sonae: twelve slots, bowed cards, victory points.",
  seatCount: (options) => (options.mode === "solo" ? 1 : 2),
  howTo: [
    "Build your Sonae (battle formation) of twelve slots from the cards in your hand.",
    "Cards bow when used; victory points decide the battle. Solo play faces the Kagemusha.",
    "Pick one of the legal moves listed beside the cards.",
  ],
});

export const RENDERERS = { gungi, gunshi, gunkimono, sashimono };

export function rendererFor(name) {
  return (
    RENDERERS[name] ||
    makeGeneric({ name, kanji: "", title: name.charAt(0).toUpperCase() + name.slice(1), tagline: "", howTo: [] })
  );
}
