// Lines of the /memory dialog: the filter field, one row per entry (kind, text), and the selected
// entry in full with when it was saved and from where.
import type { Controller } from "../controller/controller.js";
import { selectedEntry } from "../controller/memory-dialog.js";
import type { MemoryDialog } from "../controller/ui-state.js";
import { editorText } from "../input/editor.js";
import { padToWidth, truncateToWidth, wrapLine } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";
import { fieldLines, frame } from "./dialog-frame.js";
import { windowAround } from "./panes.js";
import { fitting, formatAge, shortPath } from "./picker-view.js";

const KIND_WIDTH = 11;

function kindPaint(p: Palette, kind: string): (s: string) => string {
  return (
    (
      { lesson: p.accent, preference: p.info, correction: p.warning, fact: p.success } as Record<
        string,
        (s: string) => string
      >
    )[kind] ?? p.dim
  );
}

export function memoryLines(ctl: Controller, p: Palette, d: MemoryDialog, width: number, height: number): string[] {
  const inner = Math.max(4, width - 2);
  if (!ctl.deps.memory.enabled) {
    const body = [
      "memory is off (--no-memory)",
      "",
      "Long-term memory lives in ~/.nanohermes/memory.json. Run without --no-memory (and without NANOHERMES_NO_MEMORY=1) to read and edit it here.",
    ];
    return frame(
      p,
      "Long-term memory",
      body.flatMap((l) => wrapLine(l, inner, { words: true })),
      width,
      height,
      "Esc close",
    );
  }
  const query = editorText(d.query).trim();
  const entries = d.entries ?? [];
  const now = ctl.deps.now();
  let info: string;
  if (d.entries === null) info = p.dim("loading…");
  else if (d.error) info = p.error(`memory: ${d.error}`);
  else if (query)
    info = p.dim(
      entries.length === 0
        ? `nothing matches "${query}"`
        : `${entries.length} match${entries.length === 1 ? "" : "es, best first,"} for "${query}"`,
    );
  else info = p.dim(`${entries.length} memor${entries.length === 1 ? "y" : "ies"}, newest first`);

  const body = height - 2;
  // The list takes what it needs; the selected entry in full sits right under it.
  const minPreview = body >= 14 ? 4 : body >= 9 ? 2 : 1;
  const listRows = Math.max(1, Math.min(Math.max(1, entries.length), body - 4 - minPreview));
  const previewRows = Math.max(1, Math.min(12, body - 4 - listRows));
  const rows = entries.map((e, i) => {
    const mark = i === d.index && !d.filtering ? "›" : " ";
    const line = padToWidth(
      `${mark} ${kindPaint(p, e.kind)(padToWidth(e.kind, KIND_WIDTH))}${truncateToWidth(e.text.replace(/\s+/g, " "), Math.max(4, inner - 2 - KIND_WIDTH))}`,
      inner,
    );
    // The row draws its own "›" unless the filter has the focus; then the selection marks it.
    return i === d.index ? (mark === " " ? p.selection(line) : p.selectionStyle(line)) : line;
  });
  const empty =
    d.entries === null ? "" : query ? "" : "no memories yet: n adds one (the agent saves them with memory_save)";
  const shown = windowAround(rows.length ? rows : [p.dim(empty)], d.index, listRows).lines;

  const entry = selectedEntry(d);
  let detail: string[] = [];
  if (entry) {
    let text = wrapLine(entry.text, inner, { words: true });
    if (text.length > previewRows)
      text = [...text.slice(0, previewRows - 1), truncateToWidth(text.slice(previewRows - 1).join(" "), inner)];
    const edited = entry.updatedAt !== entry.createdAt ? ` · changed ${formatAge(entry.updatedAt, now)}` : "";
    const from = entry.workspace ? ` · from ${shortPath(entry.workspace)}` : "";
    detail = [
      ...text,
      p.dim(truncateToWidth(`${entry.kind} · saved ${formatAge(entry.createdAt, now)}${edited}${from}`, inner)),
    ];
  }
  const field = fieldLines(p, d.query, inner, {
    focused: d.filtering,
    placeholder: d.filtering ? "type to filter (BM25)" : "/ to filter",
  });
  const lines = [...field, info, ...shown, p.border("─".repeat(Math.min(inner, 40))), ...detail];
  const footer = d.filtering
    ? fitting(
        ["type to filter · Enter or ↓ back to the list · Esc stop filtering", "Enter or ↓ back to the list"],
        width,
      )
    : fitting(
        [
          "↑↓ · Enter edit · k kind · d delete · n new · / filter · Esc close",
          "Enter edit · k kind · d del · n new · / filter",
        ],
        width,
      );
  return frame(p, "Long-term memory", lines, width, height, footer);
}
