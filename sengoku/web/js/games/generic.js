// Any game without its own drawing yet: its view as a readable summary, and its legal
// actions as buttons (with a filter) — every decision can still be made by clicking.

import { el, clear } from "../ui.js";

function summarize(value, depth = 0) {
  if (value === null || value === undefined) return el("span.muted", {}, "—");
  if (Array.isArray(value)) {
    if (!value.length) return el("span.muted", {}, "none");
    if (value.every((v) => typeof v !== "object" || v === null)) {
      return el("span", {}, value.join(", "));
    }
    if (depth > 2) return el("span.muted", {}, `${value.length} items`);
    return el("ol.summary-list", {}, value.map((v) => el("li", {}, summarize(v, depth + 1))));
  }
  if (typeof value === "object") {
    if (depth > 2) return el("span.muted", {}, "…");
    return el(
      "dl.summary",
      {},
      Object.entries(value).flatMap(([k, v]) => [el("dt", {}, k.replace(/_/g, " ")), el("dd", {}, summarize(v, depth + 1))]),
    );
  }
  return el("span", {}, String(value));
}

export function actionPicker(model, { filterPlaceholder = "Filter moves…" } = {}) {
  const box = el("div.action-picker");
  if (!model.interactive || !model.legal.length) return box;
  const list = el("div.action-list");
  const filter = el("input.action-filter", { type: "search", placeholder: filterPlaceholder, "aria-label": "Filter the legal moves" });
  const fill = () => {
    clear(list);
    const q = filter.value.trim().toLowerCase();
    const shown = model.legal.filter((l) => !q || l.action.toLowerCase().includes(q) || (l.short || "").toLowerCase().includes(q));
    for (const l of shown.slice(0, 200)) {
      list.append(
        el("button.action", { type: "button", "data-action": l.action, title: l.action, onclick: () => model.send(l.action) }, l.short || l.action),
      );
    }
    if (shown.length > 200) list.append(el("span.muted", {}, `…and ${shown.length - 200} more: type to filter`));
  };
  filter.addEventListener("input", fill);
  fill();
  box.append(el("div.picker-head", {}, el("strong", {}, `${model.legal.length} legal moves`), model.legal.length > 12 ? filter : null), list);
  return box;
}

export function makeGeneric(meta) {
  return {
    seatName: (seat) => `Seat ${seat + 1}`,
    seatIcon: () => null,
    defaultFlip: () => false,
    statusNote: () => "",
    ...meta,
    create(root, ctx) {
      root.classList.add("generic");
      return {
        update(model) {
          clear(root);
          root.append(actionPicker(model), el("div.view-summary", {}, summarize(model.view)));
        },
        destroy() {
          clear(root);
        },
      };
    },
  };
}
