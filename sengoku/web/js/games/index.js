// The games this server plays and their renderers. No game is named here: the list comes
// from /api/games, and each game's `renderer` field names the module in this folder that
// draws it (js/games/<renderer>.js), imported when first needed. A game without a drawing
// of its own (or whose module fails to load) gets the generic renderer: its view summarized
// and its legal actions as buttons.

import { api } from "../api.js";
import { makeGeneric } from "./generic.js";

/** A renderer's name: a module of this folder, never a path. */
const RENDERER_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

let catalog = null; // the promise of /api/games
const renderers = new Map(); // game name -> the promise of its renderer

/** /api/games (fetched once; a failed fetch is tried again next time). */
export function gameCatalog() {
  if (!catalog) {
    catalog = api("GET", "/api/games").catch((err) => {
      catalog = null;
      throw err;
    });
  }
  return catalog;
}

/** A renderer's own stylesheet (css/games/<renderer>.css), linked once when the renderer says
 * it has one (`stylesheet: true`), so each renderer keeps its look beside its code. */
function loadStyle(renderer) {
  const href = `/css/games/${renderer}.css`;
  if (document.querySelector(`link[data-renderer-style="${renderer}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  link.dataset.rendererStyle = renderer;
  document.head.append(link);
}

function generic(name, info) {
  const title = info?.title || name.charAt(0).toUpperCase() + name.slice(1);
  return makeGeneric({ name, kanji: "", title, tagline: "", howTo: [] });
}

async function load(name) {
  let info = null;
  try {
    info = (await gameCatalog()).games.find((g) => g.name === name) || null;
  } catch (err) {
    console.error(err);
  }
  const wanted = info?.renderer;
  if (typeof wanted === "string" && wanted !== "generic" && RENDERER_NAME.test(wanted)) {
    try {
      const mod = await import(`./${wanted}.js`);
      if (mod.default?.stylesheet) loadStyle(wanted);
      if (mod.default) return mod.default;
    } catch (err) {
      console.error(`the renderer ${wanted} of ${name} did not load`, err);
    }
  }
  return generic(name, info);
}

/** The renderer of game `name` (loaded once). */
export function rendererFor(name) {
  if (!renderers.has(name)) renderers.set(name, load(name));
  return renderers.get(name);
}
