// Playing with the keyboard alone, for every renderer: what a renderer marks, this makes
// focusable and operable.
//
// A renderer marks each thing a player can pick (a square, a cell, an edge, a card, a tile)
// with `data-pick`, whose value names it for good ("sq:6-7", "card:12"), and gives it a label in words (`aria-label`, e.g. "6-7, your Spear on a
// Fortress, tier 2"); things on a grid also carry `data-row` and `data-col`. Then:
//   - each marked element is focusable and announced as a button; a grid is one Tab stop
//     (a roving tabindex), the arrows moving within it;
//   - Enter or Space picks it (the renderer's own click handler runs);
//   - the arrow keys move the focus to the nearest marked element in that direction on the
//     same grid (by row and column, as the player sees it: a flipped board flips its rows);
//   - a renderer that redraws after a pick loses the focused element: the focus goes back to
//     the element of the same `data-pick` name, so a player keeps their place;
//   - Escape sends the renderer a `pick-cancel` event (to drop a selection) and closes an
//     open dialog.
// The page's CSS shows the focus (:focus-visible) on every marked element.

const MARKED = "[data-pick]";

function prepare(node) {
  if (!node.hasAttribute("role")) node.setAttribute("role", "button");
  if (node.dataset.row === undefined && !node.hasAttribute("tabindex")) node.setAttribute("tabindex", "0");
}

/** One Tab stop per grid (a roving tabindex): the square last focused there, else the first
 * that offers a choice, else the first; the arrows move within the grid. */
function rove(root, focused) {
  const grids = new Map();
  for (const node of root.querySelectorAll(`${MARKED}[data-row]`)) {
    const grid = node.dataset.grid || "";
    if (!grids.has(grid)) grids.set(grid, []);
    grids.get(grid).push(node);
  }
  for (const nodes of grids.values()) {
    const stop =
      nodes.find((n) => n.dataset.pick === focused) ||
      nodes.find((n) => n.dataset.choice !== undefined || n.classList.contains("choice")) ||
      nodes[0];
    // Only a change is written: mark() runs on every mutation under the root.
    for (const n of nodes) {
      const want = n === stop ? "0" : "-1";
      if (n.getAttribute("tabindex") !== want) n.setAttribute("tabindex", want);
    }
  }
}

function onGrid(node) {
  const row = Number(node.dataset.row);
  const col = Number(node.dataset.col);
  return Number.isFinite(row) && Number.isFinite(col) && node.dataset.row !== undefined ? { row, col } : null;
}

/** The marked element nearest to `from` in direction (dr, dc), on the same grid. */
function neighbour(root, from, dr, dc) {
  const here = onGrid(from);
  if (!here) return null;
  const grid = from.dataset.grid || "";
  let best = null;
  let bestScore = Infinity;
  for (const node of root.querySelectorAll(MARKED)) {
    if (node === from || (node.dataset.grid || "") !== grid) continue;
    const there = onGrid(node);
    if (!there) continue;
    const along = (there.row - here.row) * dr + (there.col - here.col) * dc;
    if (along <= 0) continue;
    const across = Math.abs((there.row - here.row) * dc) + Math.abs((there.col - here.col) * dr);
    const score = along + 2 * across;
    if (score < bestScore) {
      best = node;
      bestScore = score;
    }
  }
  return best;
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function linkStyle(doc) {
  if (doc.querySelector("link[data-keyboard-style]")) return;
  const link = doc.createElement("link");
  link.rel = "stylesheet";
  link.href = "/css/keyboard.css";
  link.dataset.keyboardStyle = "";
  doc.head.append(link);
}

/** Make the marked elements under `root` keyboard-operable; returns a function that stops. */
export function enableKeyboard(root) {
  linkStyle(root.ownerDocument);
  let focused = null; // the data-pick name of the element last focused under root
  // Whether that focus came from the keyboard (Tab, the arrows) rather than a pointer: only
  // then do the arrows move it, and only then is it given back after a redraw.
  let byKeyboard = false;
  let pointer = false;
  let restoring = false;
  const mark = () => {
    root.querySelectorAll(MARKED).forEach(prepare);
    rove(root, focused);
    const active = root.ownerDocument.activeElement;
    if (focused && byKeyboard && (!active || active === root.ownerDocument.body || !active.isConnected)) {
      const again = [...root.querySelectorAll(MARKED)].find((n) => n.dataset.pick === focused);
      if (again) {
        restoring = true;
        again.focus({ preventScroll: true });
        restoring = false;
      }
    }
  };
  const onPointer = () => {
    pointer = true;
  };
  const onFocus = (event) => {
    const target = event.target instanceof Element ? event.target.closest(MARKED) : null;
    if (target) focused = target.dataset.pick;
    if (!restoring) byKeyboard = !pointer;
    pointer = false;
  };
  root.addEventListener("pointerdown", onPointer, true);
  root.addEventListener("focusin", onFocus);
  const observer = new MutationObserver(mark);
  observer.observe(root, { childList: true, subtree: true });
  mark();
  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target instanceof Element ? event.target.closest(MARKED) : null;
    if (event.key === "Escape") {
      const dialog = root.ownerDocument.querySelector("dialog[open]");
      if (dialog) dialog.close();
      root.dispatchEvent(new CustomEvent("pick-cancel", { bubbles: true }));
      return;
    }
    if (!target || !root.contains(target)) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      // SVG elements have no click(): a real event reaches the renderer's handlers alike.
      target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
      return;
    }
    const arrow = ARROWS[event.key];
    // Only a square focused from the keyboard moves with the arrows: after a mouse click the
    // arrows are the page's (browsing the moves).
    if (arrow && byKeyboard) {
      const next = neighbour(root, target, arrow[0], arrow[1]);
      if (next) {
        event.preventDefault();
        target.setAttribute("tabindex", "-1");
        next.setAttribute("tabindex", "0");
        next.focus();
      }
    }
  };
  root.addEventListener("keydown", onKey);
  return () => {
    observer.disconnect();
    root.removeEventListener("keydown", onKey);
    root.removeEventListener("focusin", onFocus);
    root.removeEventListener("pointerdown", onPointer, true);
  };
}
