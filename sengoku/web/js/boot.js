// How the client starts (main.js calls start()): the language's catalog first (i18n.js),
// then the app. app.js and every module it imports are loaded after the catalog, so their
// tables of words (a piece's name, an option's label) are made in that language. The
// header's language switch saves a new choice and loads the page again.

import { loadLanguage, preferredLanguage } from "./i18n.js";

export async function start() {
  await loadLanguage(preferredLanguage());
  const app = await import("./app.js");
  app.start();
}
