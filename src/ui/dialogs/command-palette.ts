// The command palette (Ctrl-P): every slash command, custom command and global action, filtered
// by what is typed; Enter runs the selected one.
import { actions, type Action } from "../../config/keybindings.js";
import type { DialogHost } from "../controller/host.js";
import { parseSlash, slashCommands } from "../controller/slash.js";
import { createEditor } from "../input/editor.js";
import { formatKeySpec } from "../input/keymap.js";
import { listStep, moveIndex } from "../input/list-nav.js";
import { padToWidth, truncateToWidth } from "../render/wrap.js";
import { listTextWidth } from "../view/select-list.js";
import { closeDialog, setDialog, type DialogSpec } from "./dialog.js";
import type { PaletteDialog } from "../state/dialogs.js";

export interface PaletteItem {
  label: string;
  hint: string;
  run(host: DialogHost): void;
}

/** Everything the palette offers: slash commands and the global actions, with their keys. */
export function paletteItems(host: DialogHost): PaletteItem[] {
  const items: PaletteItem[] = slashCommands.map((c) => ({
    label: c.name,
    hint: c.description,
    run: (x: DialogHost) => {
      const parsed = parseSlash(c.name);
      if (parsed && !("error" in parsed)) x.runSlash(parsed);
    },
  }));
  // A custom command goes into the input, where its arguments are typed.
  for (const c of host.customCommands()) {
    items.push({
      label: c.name,
      hint: `${c.argumentHint ? `${c.argumentHint} · ` : ""}${c.description}`,
      run: (x) => x.setUi((ui) => ({ ...ui, dialog: null, focus: "composer", composer: createEditor(`${c.name} `) })),
    });
  }
  const global: Action[] = [
    "newTask",
    "toggleTasks",
    "toggleResults",
    "cycleMode",
    "nextApproval",
    "browse",
    "nextTask",
    "externalEditor",
  ];
  for (const name of global) {
    const keys = host.keymap[name].map(formatKeySpec).join(", ");
    items.push({
      label: actions[name].doc,
      hint: keys,
      run: (x) => {
        x.setUi((ui) => ({ ...ui, dialog: null }));
        const spec = x.keymap[name][0];
        if (spec)
          x.handle({
            kind: "key",
            key: { name: spec.name, ctrl: spec.ctrl, alt: spec.alt, shift: spec.shift, sequence: "" },
          });
      },
    });
  }
  return items;
}

export function filterPalette(items: PaletteItem[], query: string): PaletteItem[] {
  const q = query.toLowerCase().trim();
  if (!q) return items;
  return items.filter((i) => `${i.label} ${i.hint}`.toLowerCase().includes(q));
}

/** The filter changed: the list from its first row. */
function typed(host: DialogHost, query: string): void {
  host.setUi((ui) => (ui.dialog?.kind === "palette" ? { ...ui, dialog: { ...ui.dialog, query, index: 0 } } : ui));
}

/** Enter in the filter: run the selected entry. */
function chosen(host: DialogHost): void {
  const d = host.ui.dialog;
  if (d?.kind !== "palette") return;
  const item = filterPalette(paletteItems(host), d.query)[d.index];
  closeDialog(host);
  item?.run(host);
}

export const paletteDialog: DialogSpec<PaletteDialog> = {
  view(_s, sv, d, width, height) {
    const p = sv.palette;
    const text = listTextWidth(width - 2);
    const items = filterPalette(paletteItems(sv.ctl), d.query).map((item) =>
      padToWidth(`${truncateToWidth(item.label, Math.max(8, text - 20))}  ${p.dim(item.hint)}`, text),
    );
    return {
      title: "Command palette",
      body: [
        {
          kind: "field",
          field: {
            value: d.query,
            focused: true,
            onChange: (query) => typed(sv.ctl, query),
            onSubmit: () => chosen(sv.ctl),
          },
        },
        { kind: "lines", lines: [""] },
        { kind: "list", list: { items, selected: d.index, height: Math.max(1, height - 4), empty: "nothing matches" } },
      ],
      footer: "type to filter · ↑↓ · Enter run · Esc close",
    };
  },
  keys(host, d, event) {
    if (event.kind === "key") {
      const step = listStep(event.key, { field: true });
      if (step) {
        const n = filterPalette(paletteItems(host), d.query).length;
        if (n) setDialog(host, { ...d, index: moveIndex(d.index, n, step, { wrap: true }) });
        return true;
      }
    }
    // Text, the cursor keys and Enter are the filter field's (it answers through `typed`, `chosen`).
    return host.fields.route(event);
  },
};
