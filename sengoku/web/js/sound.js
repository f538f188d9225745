// Sound at the table: a move, a capture, your turn, low time. The files are made by
// tools/make_sounds.py (sengoku/web/sounds/CREDITS.txt). One switch (the "Sound" button)
// turns them all on or off; unset, sound is on when you play someone elsewhere and off in
// hot seat, where one device plays both sides and every turn would chime.

const KEY = "sengoku.sound";
const NAMES = ["move", "capture", "turn", "lowtime"];
/** Remaining seconds under which the low-time sound rings (once per turn). */
export const LOW_TIME = 10;

class Sounds {
  constructor() {
    this.cache = new Map();
    /** What was played (or would have been, had the switch been on): tests read it. */
    this.log = [];
  }

  /** "on", "off" or null (never set: the default applies). */
  get choice() {
    const v = localStorage.getItem(KEY);
    return v === "on" || v === "off" ? v : null;
  }

  enabled(table) {
    const c = this.choice;
    if (c) return c === "on";
    return !(table && table.page.held.length > 1);
  }

  set(on) {
    localStorage.setItem(KEY, on ? "on" : "off");
  }

  play(name, table) {
    if (!NAMES.includes(name)) return;
    const on = this.enabled(table);
    this.log.push({ name, on });
    document.documentElement.dataset.lastSound = `${name}:${on ? "on" : "off"}`;
    if (!on) return;
    let audio = this.cache.get(name);
    if (!audio) {
      audio = new Audio(`/sounds/${name}.wav`);
      audio.preload = "auto";
      this.cache.set(name, audio);
    }
    try {
      audio.currentTime = 0;
      // A browser may refuse sound before the first click: silence is the right answer.
      audio.play()?.catch?.(() => {});
    } catch (err) {
      // no audio device: nothing to do
    }
  }

  /** The sound of a game event, if any: a capture, else a move. */
  onEvent(ev, table) {
    if (!ev || typeof ev.action !== "string") return;
    const text = `${ev.type || ""} ${ev.action} ${ev.message || ""}`;
    this.play(/captur|取/iu.test(text) ? "capture" : "move", table);
  }
}

export const sounds = new Sounds();
