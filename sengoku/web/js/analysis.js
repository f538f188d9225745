// Post-game analysis on the replay page (docs/analysis.md, "On the server"): an Analyse
// button queues it (POST /api/matches/<id>/analysis), a progress bar follows its job, then
// a graph of the mover's winning chances after every move (click a bar: that move), the
// moves that lost the most, and each player's accuracy. The page (replay.js) draws the
// engine's preferred move on the board for the position on screen (``bestFor``).

import { api } from "./api.js";
import { el, svg, clear, toast } from "./ui.js";
import { _, fmt, ngettext } from "./i18n.js";

/** How often the page looks at a job in progress (ms). */
const POLL_MS = 1000;
/** The worst moves listed, most costly first. */
const WORST = 12;
const CLASS_WORDS = { blunder: _("Blunder"), mistake: _("Mistake"), inaccuracy: _("Inaccuracy") };

const pct = (x) => `${Math.round(100 * x)}%`;

export class AnalysisPanel {
  /** ``onPick(ply)``: show the position before move ``ply`` (its alternative on the board). */
  constructor({ matchId, renderer, seatTitle, onPick, onReady }) {
    this.id = matchId;
    this.renderer = renderer;
    this.seatTitle = seatTitle;
    this.onPick = onPick;
    this.onReady = onReady;
    this.state = null;
    this.timer = null;
    this.current = null;
    this.root = el("section.card.analysis", { id: "analysis", "aria-labelledby": "analysis-title" });
  }

  /** The analysis of move ``ply`` (1-based), once the analysis is done. */
  plyInfo(ply) {
    return this.state?.status === "done" ? this.state.result.plies[ply - 1] || null : null;
  }

  async start() {
    try {
      this.state = await api("GET", `/api/matches/${this.id}/analysis`);
    } catch (err) {
      // an imported record replayed without a match (or a match in play): no analysis
      this.state = { status: "unavailable", error: err.message };
    }
    this.render();
    this.follow();
  }

  destroy() {
    clearTimeout(this.timer);
    this.timer = null;
    this.gone = true;
  }

  async ask() {
    try {
      this.state = await api("POST", `/api/matches/${this.id}/analysis`, { body: { kind: "mover" } });
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    this.render();
    this.follow();
  }

  follow() {
    clearTimeout(this.timer);
    if (this.gone || !["queued", "running"].includes(this.state?.status)) return;
    this.timer = setTimeout(async () => {
      try {
        this.state = await api("GET", `/api/matches/${this.id}/analysis`);
      } catch (err) {
        // a passing network fault: look again at the next tick
      }
      if (this.gone) return;
      this.render();
      this.follow();
    }, POLL_MS);
  }

  /** Mark move ``ply`` (the one after the position on screen) in the graph. */
  mark(ply) {
    this.current = ply;
    for (const bar of this.root.querySelectorAll(".analysis-graph .bar")) {
      bar.classList.toggle("current", Number(bar.dataset.ply) === ply);
    }
  }

  render() {
    const s = this.state || { status: "none" };
    const title = el("h2", { id: "analysis-title" }, _("Analysis"));
    clear(this.root).append(title);
    if (s.status === "unavailable") {
      this.root.append(el("p", {}, fmt(_("No analysis: {error}"), { error: s.error })));
      return;
    }
    if (s.status === "none" || s.status === "failed") {
      this.root.append(
        s.status === "failed" ? el("p.error", {}, fmt(_("The analysis failed: {x}. You may try again."), { x: s.error || "unknown" })) : null,
        el("p", {}, _("The engine searches every move and says how much of the mover's winning chances it kept.")),
        el("button.primary", { type: "button", id: "analyse", onclick: () => this.ask() }, _("Analyse")),
      );
      return;
    }
    if (s.status !== "done") {
      const { done, total } = s.progress;
      this.root.append(
        el("p", { id: "analysis-status", role: "status" }, s.status === "queued" ? _("Queued: waiting for a worker…") : fmt(_("Analysing: move {done} of {total}…"), { done, total })),
        el("progress", { id: "analysis-progress", max: Math.max(total, 1), value: done }),
      );
      return;
    }
    this.root.append(...this.done(s.result));
    this.onReady?.();
  }

  done(result) {
    const t = result.thresholds;
    const note =
      result.information === "hindsight"
        ? _("Hindsight: every hidden card and piece was visible to the engine (not what the players knew).")
        : _("Each move is judged from what its player could see then: in games with hidden cards or pieces, the engine sees only what the mover saw.");
    return [
      el("p.analysis-note", { id: "analysis-information" }, note),
      this.graph(result),
      el("p.analysis-note", {}, _("Bars: the mover's winning chances after each move (click one to go there); the dashed line is 50%.")),
      el("h3", {}, _("Accuracy")),
      el(
        "ul.accuracy",
        { id: "analysis-accuracy" },
        result.players.map((p) =>
          el(
            "li",
            { "data-seat": p.seat },
            el("strong", {}, this.seatTitle(p.seat)),
            p.accuracy === null ? _(": no move searched") : `: ${p.accuracy.toFixed(1)}%`,
            " · " +
              [
                fmt(ngettext("{n} inaccuracy", "{n} inaccuracies", p.inaccuracies), { n: p.inaccuracies }),
                fmt(ngettext("{n} mistake", "{n} mistakes", p.mistakes), { n: p.mistakes }),
                fmt(ngettext("{n} blunder", "{n} blunders", p.blunders), { n: p.blunders }),
              ].join(", "),
          ),
        ),
      ),
      el("h3", {}, _("Moves that lost the most")),
      el("p.analysis-note", {}, fmt(_("An inaccuracy loses {pct} or more of the mover's winning chances, a mistake {pct2}, a blunder {pct3}."), { pct: pct(t.inaccuracy), pct2: pct(t.mistake), pct3: pct(t.blunder) })),
      this.worst(result),
    ];
  }

  graph(result) {
    const plies = result.plies;
    const W = 600;
    const H = 160;
    const bw = W / Math.max(plies.length, 1);
    const g = svg("svg", { viewBox: `0 0 ${W} ${H + 12}`, class: "analysis-graph", id: "analysis-graph", role: "group", "aria-label": _("The mover's winning chances after each move") });
    g.append(svg("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "half" }));
    plies.forEach((p, i) => {
      const chance = p.after ?? p.before;
      const h = chance === null ? 2 : Math.max(2, chance * H);
      const words = chance === null ? "forced" : pct(chance);
      const bar = svg(
        "rect",
        {
          x: i * bw + bw * 0.1,
          y: H - h,
          width: Math.max(bw * 0.8, 1),
          height: h,
          class: `bar seat-${p.seat}${this.current === p.ply ? " current" : ""}`,
          "data-ply": p.ply,
          tabindex: "0",
          role: "button",
          "aria-label": fmt(_("Move {ply}, {seat}: {played}, winning chances {chances}"), { ply: p.ply, seat: this.seatTitle(p.seat), played: p.played, chances: words }) + (p.classification ? `, ${p.classification}` : ""),
          onclick: () => this.onPick(p.ply),
          onkeydown: (e) => {
            if (e.key === "Enter" || e.key === " ") {
              e.preventDefault();
              this.onPick(p.ply);
            }
          },
        },
        svg("title", {}, `${p.ply}. ${p.played}: ${words}`),
      );
      g.append(bar);
      if (p.classification) {
        g.append(svg("rect", { x: i * bw, y: H + 4, width: Math.max(bw, 2), height: 8, class: `mark-${p.classification}` }));
      }
    });
    return g;
  }

  worst(result) {
    const costly = result.plies.filter((p) => p.classification).sort((a, b) => b.drop - a.drop || a.ply - b.ply).slice(0, WORST);
    if (!costly.length) return el("p", { id: "analysis-worst" }, _("No inaccuracy, mistake or blunder."));
    return el(
      "ol.worst",
      { id: "analysis-worst" },
      costly.map((p) =>
        el(
          "li",
          {},
          el(
            "button.secondary",
            { type: "button", "data-ply": p.ply, "data-class": p.classification, onclick: () => this.onPick(p.ply) },
            el("span", { class: `class-${p.classification}` }, CLASS_WORDS[p.classification]),
            " " + fmt(_("{ply}. {seat} played {played} ({before} → {after}); better: {best}"), { ply: p.ply, seat: this.seatTitle(p.seat), played: p.played, before: pct(p.before), after: pct(p.after), best: p.best }),
          ),
        ),
      ),
    );
  }
}
