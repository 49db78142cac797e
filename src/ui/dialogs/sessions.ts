// The /resume picker (also opened by a bare --resume): this workspace's sessions newest first, a
// search field (full-text across sessions, after a pause in typing), Tab for every workspace,
// Enter to open the session. Loading, searching and opening: controller/session-picker.ts.
import {
  isSearching,
  moveSelection,
  openSession,
  refreshPicker,
  selectedRow,
  closePicker,
  updatePicker,
} from "../controller/session-picker.js";
import type { DialogHost } from "../controller/host.js";
import type { SessionRow } from "../state/data-sources.js";
import { listStep } from "../input/list-nav.js";
import { padToWidth, truncateToWidth, visibleWidth, wrapLine } from "../render/wrap.js";
import { fitting, formatAge, markSnippet, shortPath, truncatePath } from "../view/row-text.js";
import { listTextWidth } from "../view/select-list.js";
import { isKey, type DialogSpec } from "./dialog.js";
import type { SessionsDialog } from "../state/dialogs.js";

const AGE_WIDTH = 9;

/** The search field changed: a new query from the first row (a search after a pause in typing). */
function searched(host: DialogHost, query: string): void {
  const d = host.ui.dialog;
  if (d?.kind !== "sessions" || d.query === query) return;
  const same = d.query.trim() === query.trim();
  updatePicker(host, (x) => ({ ...x, query, ...(same ? {} : { index: 0 }) }));
  if (!same) refreshPicker(host);
}

/** Enter in the search field: open the selected session. */
function opened(host: DialogHost): void {
  const d = host.ui.dialog;
  if (d?.kind !== "sessions") return;
  const row = selectedRow(d);
  if (row) openSession(host, d, row);
}

export const sessionsDialog: DialogSpec<SessionsDialog> = {
  wide: true,
  view(s, sv, d, width, height) {
    const p = sv.palette;
    const inner = Math.max(4, width - 2);
    const query = d.query.trim();
    const rows = d.rows ?? [];
    const where = d.all ? "every workspace" : "this workspace";
    const other = d.all ? "Tab: this one" : "Tab: all";
    let info: string;
    if (d.rows === null) info = p.dim("loading…");
    else if (d.error) info = p.error(`${query ? "search" : "listing"} failed: ${d.error}`);
    else if (isSearching(d) && query) info = p.dim(`searching ${where}…`);
    else if (query) info = p.dim(`${rows.length || "nothing"} found in ${where} · ${other}`);
    else info = p.dim(`${rows.length} session${rows.length === 1 ? "" : "s"} in ${where} · ${other}`);

    const body = height - 2;
    // The list takes what it needs; the preview sits right under it and gets the rest (3 rows or more).
    const minPreview = body >= 12 ? 3 : body >= 8 ? 2 : 1;
    const listRows = Math.max(1, Math.min(Math.max(1, rows.length), body - 3 - minPreview));
    const previewRows = Math.max(1, Math.min(8, body - 3 - listRows));
    const text = listTextWidth(inner);
    const titleOf = (row: SessionRow) => row.title.replace(/\s+/g, " ");
    // Searching everywhere, the workspace follows the titles in a column of its own.
    const pathRoom = d.all
      ? Math.min(Math.max(0, ...rows.map((r) => visibleWidth(shortPath(r.workspace)))), Math.floor(inner / 3))
      : 0;
    const titleRoom = Math.max(4, text - AGE_WIDTH - (pathRoom ? pathRoom + 2 : 0));
    const titleWidth = d.all
      ? Math.min(titleRoom, Math.max(0, ...rows.map((r) => visibleWidth(titleOf(r)))))
      : titleRoom;
    const now = s.clock;
    const items = rows.map((row) => {
      const age = padToWidth(formatAge(row.updatedAt, now), AGE_WIDTH);
      const title = truncateToWidth(titleOf(row), titleWidth);
      const path = d.all ? `  ${p.dim(truncatePath(shortPath(row.workspace), pathRoom))}` : "";
      return `${p.dim(age)}${d.all ? padToWidth(title, titleWidth) : title}${path}`;
    });
    const empty =
      d.rows === null ? "" : query ? "" : d.all ? "no sessions yet" : "no earlier sessions in this workspace";

    const selected = selectedRow(d);
    let preview: string[] = [];
    if (selected) {
      const cached = d.previews[selected.file];
      const shown = selected.snippet
        ? markSnippet(p, selected.snippet)
        : cached
          ? `${p.dim("last prompt:")} ${cached}`
          : cached === ""
            ? p.dim("no prompt in this session")
            : p.dim("…");
      preview = wrapLine(shown.replace(/\s*\n\s*/g, " "), inner, { words: true });
      if (preview.length > previewRows)
        preview = [
          ...preview.slice(0, previewRows - 1),
          truncateToWidth(preview.slice(previewRows - 1).join(" "), inner),
        ];
    }
    const esc = d.startup ? "new task" : "close";
    return {
      title: d.startup ? "Resume a session (Esc starts a new one)" : "Resume a session",
      body: [
        {
          kind: "field",
          field: {
            value: d.query,
            focused: true,
            placeholder: "type to search every message of past sessions",
            onChange: (query) => searched(sv.ctl, query),
            onSubmit: () => opened(sv.ctl),
          },
        },
        { kind: "lines", lines: [info] },
        { kind: "list", list: { items, selected: d.index, height: listRows, empty } },
        { kind: "lines", lines: [p.border("─".repeat(Math.min(inner, 40))), ...preview] },
      ],
      footer: fitting(
        [
          `type to search · ↑↓ · Enter open · Tab ${d.all ? "this workspace" : "every workspace"} · Esc ${esc}`,
          `↑↓ · Enter open · Tab ${d.all ? "this one" : "all"} · Esc ${esc}`,
        ],
        width,
      ),
    };
  },
  keys(host, d, event) {
    if (event.kind === "key") {
      const key = event.key;
      // Closing here, not by the dialog layer: a bare --resume starts a new task on the way out.
      if (isKey(key, "escape") || host.is("interrupt", key)) {
        closePicker(host, d);
        return true;
      }
      const step = listStep(key, { field: true });
      if (step) {
        moveSelection(host, d, step);
        return true;
      }
      if (host.is("pickerScope", key)) {
        updatePicker(host, (x) => ({ ...x, all: !x.all, index: 0 }));
        refreshPicker(host);
        return true;
      }
    }
    // Text, the cursor keys and Enter are the search field's (it answers through `searched`, `opened`).
    return host.fields.route(event);
  },
  // Its keys are in its footer; the status line says which session the selection is (--resume takes its id).
  hint(_s, sv, d) {
    const row = selectedRow(d);
    return sv.palette.dim(
      row
        ? `session ${row.sessionId} · ${row.file}`
        : "sessions: ~/.nanohermes/tasks.json (list) and sessions.db (search)",
    );
  },
};
