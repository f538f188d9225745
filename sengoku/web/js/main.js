// The client's one entry module (index.html loads it): the only module that does something
// when imported. Every other module only exports. The language's catalog comes first
// (i18n.js): every page is drawn in it.

import { start } from "./app.js";
import { loadLanguage, preferredLanguage } from "./i18n.js";

await loadLanguage(preferredLanguage());
start();
