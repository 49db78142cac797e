// The /memory dialog: long-term memories newest first, a filter (/, BM25 after a pause in typing)
// and edits: Enter the text (in an input dialog), k the kind, d delete (asks), n add. Reading and
// changing the store: controller/memory-dialog.ts.
import {
  changeMemory,
  closeMemory,
  FILTER_DEBOUNCE_MS,
  newKind,
  reloadMemory,
  selectedEntry,
  updateMemory,
} from "../controller/memory-dialog.js";
import type { InputEvent } from "../input/keys.js";
import { listStep, moveIndex } from "../input/list-nav.js";
import { padToWidth, truncateToWidth, wrapLine } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";
import { fitting, formatAge, shortPath } from "../view/row-text.js";
import { listTextWidth } from "../view/select-list.js";
import type { DialogHost } from "../controller/host.js";
import { isKey, setDialog, type DialogSpec } from "./dialog.js";
import type { MemoryDialog } from "../state/dialogs.js";

const KIND_WIDTH = 11;

function kindPaint(p: Palette, kind: string): (s: string) => string {
  const paints: Record<string, (s: string) => string> = {
    lesson: p.accent,
    preference: p.info,
    correction: p.warning,
    fact: p.success,
  };
  return paints[kind] ?? p.dim;
}

/** The list takes the keys again (Esc, ↓, Backspace in an empty filter, Enter in the field). */
function leaveFilter(host: DialogHost): void {
  host.fields.drop();
  updateMemory(host, (x) => ({ ...x, filtering: false }));
}

function filterKey(host: DialogHost, d: MemoryDialog, event: InputEvent): boolean {
  if (
    event.kind === "key" &&
    (isKey(event.key, "escape") ||
      isKey(event.key, "down") ||
      (isKey(event.key, "backspace") && d.query === "" && !host.fields.pending))
  ) {
    leaveFilter(host);
    return true;
  }
  // Text, the cursor keys and Enter are the filter field's (it answers through `filtered`).
  return host.fields.route(event);
}

/** The filter field changed: the list again from its first row, after a pause in typing. */
function filtered(host: DialogHost, query: string): void {
  const d = host.ui.dialog;
  if (d?.kind !== "memory" || d.query === query) return;
  updateMemory(host, (x) => ({ ...x, query, index: 0 }));
  reloadMemory(host, { delay: FILTER_DEBOUNCE_MS });
}

function listKey(host: DialogHost, d: MemoryDialog, event: InputEvent): boolean {
  if (event.kind !== "key" || !host.memory.enabled) return false;
  const key = event.key;
  const step = listStep(key);
  if (step) {
    const n = d.entries?.length ?? 0;
    if (n > 0) updateMemory(host, (x) => ({ ...x, index: moveIndex(x.index, n, step) }));
    return true;
  }
  const entry = selectedEntry(d);
  const back = d;
  switch (host.action(key, ["memoryFilter", "memoryEdit", "memoryKind", "memoryDelete", "memoryNew"])) {
    case "memoryFilter":
      updateMemory(host, (x) => ({ ...x, filtering: true }));
      return true;
    case "memoryEdit":
      if (entry)
        setDialog(host, {
          kind: "input",
          purpose: "memoryEdit",
          title: `Edit this ${entry.kind}`,
          value: entry.text,
          target: entry.id,
          index: 0,
          back,
        });
      return true;
    case "memoryKind": {
      if (!entry) return true;
      const kinds = host.memory.kinds;
      const next = kinds[(kinds.indexOf(entry.kind) + 1) % kinds.length] ?? entry.kind;
      changeMemory(host, host.memory.update(entry.id, { kind: next }), `now a ${next}`);
      return true;
    }
    case "memoryDelete":
      if (entry) {
        const text = entry.text.length > 60 ? `${entry.text.slice(0, 59)}…` : entry.text;
        setDialog(host, {
          kind: "confirm",
          title: `Delete this ${entry.kind}: "${text}"? (y/n)`,
          action: "forgetMemory",
          target: entry.id,
          back,
        });
      }
      return true;
    case "memoryNew":
      setDialog(host, {
        kind: "input",
        purpose: "memoryNew",
        title: `New memory (saved as a ${newKind(host)}; then k in the list changes its kind)`,
        value: "",
        index: 0,
        back,
      });
      return true;
    default:
      return false;
  }
}

export const memoryDialog: DialogSpec<MemoryDialog> = {
  wide: true,
  view(s, sv, d, width, height) {
    const p = sv.palette;
    const inner = Math.max(4, width - 2);
    if (!sv.ctl.memory.enabled) {
      const body = [
        "memory is off (--no-memory)",
        "",
        "Long-term memory lives in ~/.nanohermes/memory.json. Run without --no-memory (and without NANOHERMES_NO_MEMORY=1) to read and edit it here.",
      ];
      return {
        title: "Long-term memory",
        body: [{ kind: "lines", lines: body.flatMap((l) => wrapLine(l, inner, { words: true })) }],
        footer: "Esc close",
      };
    }
    const query = d.query.trim();
    const entries = d.entries ?? [];
    const now = s.clock;
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
    const text = listTextWidth(inner);
    const items = entries.map(
      (e) =>
        `${kindPaint(p, e.kind)(padToWidth(e.kind, KIND_WIDTH))}${truncateToWidth(e.text.replace(/\s+/g, " "), Math.max(4, text - KIND_WIDTH))}`,
    );
    const empty =
      d.entries === null ? "" : query ? "" : "no memories yet: n adds one (the agent saves them with memory_save)";

    const entry = selectedEntry(d);
    let detail: string[] = [];
    if (entry) {
      let lines = wrapLine(entry.text, inner, { words: true });
      if (lines.length > previewRows)
        lines = [...lines.slice(0, previewRows - 1), truncateToWidth(lines.slice(previewRows - 1).join(" "), inner)];
      const edited = entry.updatedAt !== entry.createdAt ? ` · changed ${formatAge(entry.updatedAt, now)}` : "";
      const from = entry.workspace ? ` · from ${shortPath(entry.workspace)}` : "";
      detail = [
        ...lines,
        p.dim(truncateToWidth(`${entry.kind} · saved ${formatAge(entry.createdAt, now)}${edited}${from}`, inner)),
      ];
    }
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
    return {
      title: "Long-term memory",
      body: [
        {
          kind: "field",
          field: {
            value: d.query,
            focused: d.filtering,
            placeholder: d.filtering ? "type to filter (BM25)" : "/ to filter",
            onChange: (query) => filtered(sv.ctl, query),
            onSubmit: () => leaveFilter(sv.ctl),
          },
        },
        { kind: "lines", lines: [info] },
        // While the filter has the keys the selection keeps its style, not its mark.
        { kind: "list", list: { items, selected: d.index, height: listRows, empty, focused: !d.filtering } },
        { kind: "lines", lines: [p.border("─".repeat(Math.min(inner, 40))), ...detail] },
      ],
      footer,
    };
  },
  keys(host, d, event) {
    if (event.kind === "key" && (host.is("interrupt", event.key) || (!d.filtering && isKey(event.key, "escape")))) {
      closeMemory(host);
      return true;
    }
    return d.filtering ? filterKey(host, d, event) : listKey(host, d, event);
  },
  hint: (_s, sv) =>
    sv.palette.dim(
      "~/.nanohermes/memory.json · one file for every workspace; the agent reads the best matches each turn",
    ),
};
