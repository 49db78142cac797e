// Lines of the /resume picker: the search field, what the list holds, one row per session (age,
// title, the workspace when searching everywhere) and a preview of the selected one (the search
// snippet with its matches marked, or the session's last prompt).
import type { Controller } from "../controller/controller.js";
import { isSearching, selectedRow } from "../controller/session-picker.js";
import type { SessionsDialog } from "../controller/ui-state.js";
import { editorText } from "../input/editor.js";
import { padToWidth, truncateToWidth, visibleWidth, wrapLine } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";
import { fieldLines, frame } from "./dialog-frame.js";
import { windowAround } from "./panes.js";

/** "now", "5m ago", "3h ago", "2d ago", then the date. */
export function formatAge(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return "";
  const s = Math.max(0, Math.floor((now - then) / 1000));
  if (s < 60) return "now";
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  if (s < 30 * 86_400) return `${Math.floor(s / 86_400)}d ago`;
  return iso.slice(0, 10);
}

/** `~/x` for paths under $HOME. */
export function shortPath(path: string): string {
  const home = process.env.HOME;
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** A search snippet with the matched words (in [ ]) painted as matches, brackets dropped. */
export function markSnippet(p: Palette, snippet: string): string {
  // Without colour (NO_COLOR) the brackets are the only mark: they stay.
  if (p.searchMatch("x") === "x") return snippet;
  return snippet.replace(/\[([^[\]\n]+)\]/g, (_m, word: string) => p.searchMatch(word));
}

const AGE_WIDTH = 9;

/** Keeps the end of a path (its last folders tell workspaces apart): "…/nh-demo/other". */
export function truncatePath(path: string, width: number): string {
  if (visibleWidth(path) <= width) return path;
  const chars = [...path];
  let out = "";
  for (let i = chars.length - 1; i >= 0 && visibleWidth(chars[i] + out) <= width - 1; i--) out = chars[i] + out;
  return `…${out}`;
}

/** The longest of `forms` that fits `width` (the last one otherwise). */
export function fitting(forms: string[], width: number): string {
  return forms.find((f) => visibleWidth(f) <= width) ?? forms.at(-1) ?? "";
}

export function pickerLines(ctl: Controller, p: Palette, d: SessionsDialog, width: number, height: number): string[] {
  const inner = Math.max(4, width - 2);
  const query = editorText(d.query).trim();
  const rows = d.rows ?? [];
  const now = ctl.deps.now();
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
  const titleOf = (row: (typeof rows)[number]) => row.title.replace(/\s+/g, " ");
  // Searching everywhere, the workspace follows the titles in a column of its own.
  const pathRoom = d.all
    ? Math.min(Math.max(0, ...rows.map((r) => visibleWidth(shortPath(r.workspace)))), Math.floor(inner / 3))
    : 0;
  const titleRoom = Math.max(4, inner - 2 - AGE_WIDTH - (pathRoom ? pathRoom + 2 : 0));
  const titleWidth = d.all ? Math.min(titleRoom, Math.max(0, ...rows.map((r) => visibleWidth(titleOf(r))))) : titleRoom;
  const list = rows.map((row, i) => {
    const age = padToWidth(formatAge(row.updatedAt, now), AGE_WIDTH);
    const title = truncateToWidth(titleOf(row), titleWidth);
    const path = d.all ? `  ${p.dim(truncatePath(shortPath(row.workspace), pathRoom))}` : "";
    const line = padToWidth(
      `${i === d.index ? "›" : " "} ${p.dim(age)}${d.all ? padToWidth(title, titleWidth) : title}${path}`,
      inner,
    );
    return i === d.index ? p.selectionStyle(line) : line;
  });
  const empty = d.rows === null ? "" : query ? "" : d.all ? "no sessions yet" : "no earlier sessions in this workspace";
  const shown = windowAround(list.length ? list : [p.dim(empty)], d.index, listRows).lines;

  const selected = selectedRow(d);
  let preview: string[] = [];
  if (selected) {
    const cached = d.previews[selected.file];
    const text = selected.snippet
      ? markSnippet(p, selected.snippet)
      : cached
        ? `${p.dim("last prompt:")} ${cached}`
        : cached === ""
          ? p.dim("no prompt in this session")
          : p.dim("…");
    preview = wrapLine(text.replace(/\s*\n\s*/g, " "), inner, { words: true });
    if (preview.length > previewRows)
      preview = [
        ...preview.slice(0, previewRows - 1),
        truncateToWidth(preview.slice(previewRows - 1).join(" "), inner),
      ];
  }
  const rule = p.border("─".repeat(Math.min(inner, 40)));
  const lines = [
    ...fieldLines(p, d.query, inner, { focused: true, placeholder: "type to search every message of past sessions" }),
    info,
    ...shown,
    rule,
    ...preview,
  ];
  const esc = d.startup ? "new task" : "close";
  const footer = fitting(
    [
      `type to search · ↑↓ · Enter open · Tab ${d.all ? "this workspace" : "every workspace"} · Esc ${esc}`,
      `↑↓ · Enter open · Tab ${d.all ? "this one" : "all"} · Esc ${esc}`,
    ],
    width,
  );
  return frame(
    p,
    d.startup ? "Resume a session (Esc starts a new one)" : "Resume a session",
    lines,
    width,
    height,
    footer,
  );
}
