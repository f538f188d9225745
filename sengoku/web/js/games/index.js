// Every game's renderer and its home-page text. A game without its own drawing yet falls
// back to the generic renderer: its view summarized and its legal actions as buttons.

import gungi from "./gungi.js";
import gunkimono from "./gunkimono.js";
import gunshi from "./gunshi.js";
import sashimono from "./sashimono.js";
import { makeGeneric } from "./generic.js";

export const RENDERERS = { gungi, gunshi, gunkimono, sashimono };

export function rendererFor(name) {
  return (
    RENDERERS[name] ||
    makeGeneric({ name, kanji: "", title: name.charAt(0).toUpperCase() + name.slice(1), tagline: "", howTo: [] })
  );
}
