// Any game without its own drawing yet: its view as a readable summary, and its legal
// actions as buttons (with a filter) — every decision can still be made by clicking. The
// buttons sit in the page's dock (see the layout contract in match.js); the page states the
// prompt.

import { el, clear, tooltip, choiceWords } from "../ui.js";
import { _, fmt } from "../i18n.js";

const HIDDEN_KEYS = new Set(["game", "seat", "viewer", "current_player"]);

/** A readable, never-too-wide summary of a view: labels above values, nested parts folded. */
function summarize(value, depth = 0) {
  if (value === null || value === undefined || value === "") return el("span.muted", {}, "—");
  if (Array.isArray(value)) {
    if (!value.length) return el("span.muted", {}, _("none"));
    if (value.every((v) => typeof v !== "object" || v === null)) {
      return el("span.summary-flat", {}, value.map((v) => (v === null ? "—" : String(v))).join(", "));
    }
    return el("ol.summary-list", {}, value.map((v) => el("li", {}, summarize(v, depth + 1))));
  }
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([k]) => depth > 0 || !HIDDEN_KEYS.has(k));
    return el(
      "div.summary",
      {},
      entries.map(([k, v]) => {
        const label = k.replace(/_/g, " ");
        const nested = v && typeof v === "object" && Object.keys(v).length > 3;
        if (nested) {
          return el("details.summary-item", { open: depth === 0 }, el("summary", {}, label), summarize(v, depth + 1));
        }
        return el("div.summary-item", {}, el("span.summary-key", {}, label), summarize(v, depth + 1));
      }),
    );
  }
  return el("span", {}, String(value));
}

export function actionPicker(model, { filterPlaceholder = _("Filter moves…"), describe = null } = {}) {
  const box = el("div.action-picker.actions");
  if (!model.interactive || !model.legal.length) return box;
  const list = el("div.action-list");
  const filter = el("input.action-filter", { type: "search", placeholder: filterPlaceholder, "aria-label": _("Filter the legal moves") });
  const fill = () => {
    clear(list);
    const q = filter.value.trim().toLowerCase();
    // Each choice is shown in the game's words (the server's description: label, sentence),
    // with its notation beside it for players who type moves; filtering matches any of them.
    // In the page's language where ``describe`` (a renderer's describeChoice) words them.
    const said = (l) => choiceWords(l, describe);
    const words = (l) => [said(l).label, said(l).text, l.label, l.action, l.short].filter(Boolean).join(" ").toLowerCase();
    const shown = model.legal.filter((l) => !q || words(l).includes(q));
    for (const l of shown.slice(0, 200)) {
      const notation = l.short || l.action;
      const { label, text } = said(l);
      list.append(
        tooltip(el(
          "button.action",
          { type: "button", "data-action": l.action, "aria-description": text || l.action, onclick: () => model.send(l.action) },
          label || notation,
          label && label !== notation ? el("span.action-notation", {}, notation) : null,
        ), text || l.action),
      );
    }
    if (shown.length > 200) list.append(el("span.muted", {}, fmt(_("…and {x} more: type to filter"), { x: shown.length - 200 })));
  };
  filter.addEventListener("input", fill);
  fill();
  box.append(el("div.picker-head", {}, el("strong", {}, fmt(_("{length} legal moves"), { length: model.legal.length })), model.legal.length > 12 ? filter : null), list);
  return box;
}

export function makeGeneric(meta) {
  return {
    seatName: (seat) => fmt(_("Seat {x}"), { x: seat + 1 }),
    seatIcon: () => null,
    defaultFlip: () => false,
    statusNote: () => "",
    ...meta,
    create(root, ctx) {
      root.classList.add("generic");
      // The choices go to the page's dock (always on screen); the view's summary stays in the
      // board area, where it scrolls. A page without a dock (the replay) gets both in root.
      const dock = ctx?.dock || null;
      const choices = el("div.generic-choices");
      const summary = el("div.view-summary.board-scroll");
      if (dock) {
        clear(dock).append(choices);
        root.append(summary);
      } else {
        root.append(choices, summary);
      }
      return {
        update(model) {
          clear(choices).append(actionPicker(model));
          clear(summary).append(summarize(model.view));
        },
        destroy() {
          clear(root);
          if (dock) clear(dock);
        },
      };
    },
  };
}
