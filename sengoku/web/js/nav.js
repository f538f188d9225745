// What every page shares: preferences, navigation, taking an open seat. Only exports: the
// router is registered by app.js's start(), so importing this module does nothing.

import { api, saveToken } from "./api.js";
import { toast } from "./ui.js";

export const prefs = {
  labels: "kanji",
};

/** Read the saved preferences (start() calls this once, before the first page). */
export function loadPrefs() {
  prefs.labels = localStorage.getItem("sengoku.labels") || "kanji";
}

let router = async () => {};

/** The function that draws the page for the current path (app.js's route). */
export function setRouter(fn) {
  router = fn;
}

export function navigate(path, replace = false) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  router();
}

export async function joinOpen(matchId) {
  const name = localStorage.getItem("sengoku.name") || null;
  try {
    const out = await api("POST", `/api/matches/${encodeURIComponent(matchId)}/join`, { body: { name } });
    saveToken(matchId, out.seat, out.token);
    navigate(`/play/${matchId}`);
  } catch (err) {
    toast(err.message, "error");
  }
}
