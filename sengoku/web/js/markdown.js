// A small Markdown renderer for the rules documents (docs/rules/*.md, shipped as
// sengoku/web/rules/*.md): headings, lists, tables, emphasis, code. Text only: every piece of
// text becomes a text node, never markup.

import { el } from "./ui.js";

/** One line: its **strong**, *emphasis* and `code` spans. */
function inline(text) {
  const out = el("span");
  const parts = text.split(/(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)/u);
  for (const part of parts) {
    if (/^\*\*.+\*\*$/u.test(part)) out.append(el("strong", {}, part.slice(2, -2)));
    else if (/^\*.+\*$/u.test(part)) out.append(el("em", {}, part.slice(1, -1)));
    else if (/^`.+`$/u.test(part)) out.append(el("code", {}, part.slice(1, -1)));
    else if (part) out.append(part);
  }
  return out;
}

export function renderMarkdown(text) {
  const box = el("div.markdown");
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const h = line.match(/^(#{1,4}) (.*)$/u);
    if (h) {
      box.append(el(`h${Math.min(h[1].length + 1, 4)}`, {}, inline(h[2])));
      i++;
    } else if (/^\s*[-*] /u.test(line)) {
      const list = el("ul");
      while (i < lines.length && /^\s*([-*] |\s{2,}\S)/u.test(lines[i])) {
        if (/^\s*[-*] /u.test(lines[i])) list.append(el("li", {}, inline(lines[i].replace(/^\s*[-*] /u, ""))));
        else list.lastChild?.append(" ", inline(lines[i].trim()));
        i++;
      }
      box.append(list);
    } else if (line.startsWith("|")) {
      const table = el("table");
      const rows = [];
      while (i < lines.length && lines[i].startsWith("|")) rows.push(lines[i++]);
      rows
        .filter((r) => !/^\|[\s:|-]+\|$/u.test(r))
        .forEach((r, n) => {
          // "\\|" is a pipe inside a cell (the rules write `a\\|b` for "a or b" in code)
          const cells = r
            .split(/(?<!\\)\|/u)
            .slice(1, -1)
            .map((c) => el(n ? "td" : "th", {}, inline(c.trim().replace(/\\\|/gu, "|"))));
          table.append(el("tr", {}, cells));
        });
      box.append(el("div.table-wrap", {}, table));
    } else if (line.trim() === "" || line.startsWith("```")) {
      i++;
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() !== "" && !/^(#|\||\s*[-*] )/u.test(lines[i])) para.push(lines[i++]);
      box.append(el("p", {}, inline(para.join(" "))));
    }
  }
  return box;
}

