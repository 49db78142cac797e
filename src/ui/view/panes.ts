// Lines for the side panes: the task list and the results pane's lists (its tab bar: ../tabs/tab-bar.ts),
// and the styles the Markdown and diff renderers take from the theme.
import type { MarkdownStyles, SyntaxStyles } from "../render/markdown.js";
import type { DiffStyles } from "../render/diff.js";
import { padToWidth, truncateToWidth, visibleWidth, wrapLine } from "../render/wrap.js";
import type { TaskEntry } from "../state/store.js";
import type { Palette } from "../theme/palette.js";
import { formatTokens, statusGlyph, statusGlyphAscii, statusPaint } from "./chrome.js";

/** `ascii`: the terminal has no Unicode (LANG=C), so a task item's box is `[ ]` / `[x]`. */
export function markdownStyles(p: Palette, ascii = false): MarkdownStyles {
  return {
    heading: p.heading,
    heading1: p.heading1,
    taskBox: (checked) => (checked ? p.success(ascii ? "[x]" : "☑") : p.accent(ascii ? "[ ]" : "☐")),
    strong: (s) => p.title(s),
    em: p.reasoning,
    code: p.code,
    codeBlock: p.code,
    link: p.link,
    quote: p.quote,
    listBullet: p.accent,
    hr: p.dim,
    tableBorder: p.border,
    dim: p.dim,
    syntax: syntaxStyles(p),
  };
}

/** highlight.js token classes by theme token; a `diff` fence gets the diff colours. */
function syntaxStyles(p: Palette): SyntaxStyles {
  return {
    keyword: p.syntaxKeyword,
    built_in: p.syntaxType,
    type: p.syntaxType,
    literal: p.syntaxNumber,
    number: p.syntaxNumber,
    string: p.syntaxString,
    regexp: p.syntaxString,
    comment: p.syntaxComment,
    doctag: p.syntaxComment,
    meta: p.syntaxComment,
    title: p.syntaxFunction,
    function: p.syntaxFunction,
    class: p.syntaxType,
    attr: p.syntaxType,
    attribute: p.syntaxType,
    tag: p.syntaxFunction,
    name: p.syntaxFunction,
    "selector-tag": p.syntaxFunction,
    addition: p.diffAdd,
    deletion: p.diffDel,
    section: p.diffHunk,
  };
}

export function diffStyles(p: Palette): DiffStyles {
  return {
    add: p.diffAdd,
    del: p.diffDel,
    addWord: p.diffAddWord,
    delWord: p.diffDelWord,
    context: (s) => s,
    gutter: p.dim,
    hunkHeader: p.diffHunk,
    header: p.title,
    dim: p.dim,
  };
}

/** A window of `height` rows of `lines` that keeps `selected` visible. */
export function windowAround(lines: string[], selected: number, height: number): { lines: string[]; offset: number } {
  if (lines.length <= height) return { lines, offset: 0 };
  const offset = Math.max(0, Math.min(lines.length - height, selected - Math.floor(height / 2)));
  return { lines: lines.slice(offset, offset + height), offset };
}

export interface TaskListView {
  tasks: TaskEntry[];
  current: string | null;
  focused: boolean;
  index: number;
  filter: string;
  ascii: boolean;
  /** "3/7" per task id: the plan's progress. */
  progress?: Record<string, string>;
}

/** Columns a task's title keeps in the list before its plan progress and tokens are left out. */
const MIN_TITLE = 10;

export function taskListLines(p: Palette, v: TaskListView, width: number, height: number): string[] {
  const head =
    p.title(`Tasks ${v.tasks.length}`) +
    (v.filter ? p.dim(` /${v.filter}`) : "") +
    (v.focused ? p.dim("  ↵ open r rename p pin x del / filter") : "");
  const rows = v.tasks.map((t, i) => {
    const s = t.snapshot;
    const glyph = statusPaint(p, s.status)((v.ascii ? statusGlyphAscii : statusGlyph)[s.status]);
    const num = i < 9 ? p.dim(String(i + 1)) : " ";
    const pin = s.pinned ? p.accent("*") : " ";
    // The glyph already says "waiting"; the flag marks news you have not looked at yet.
    const flag = t.attention && s.status !== "waiting" ? p.statusWaiting("•") : " ";
    const plan = v.progress?.[t.id];
    const where = s.location === "remote" ? p.info("⇄") : "";
    // The title comes first: in a narrow list the plan's progress, then the tokens, give way so
    // it keeps MIN_TITLE columns (a 20-column list showed "summ…").
    let planText = plan ? ` ${plan}` : "";
    let tokenText = formatTokens(s.usage.prompt + s.usage.completion);
    // Glyph, number, pin and flag (4), the space before the tokens, and one column before the border.
    const room = () => width - 6 - tokenText.length - (where ? 1 : 0) - planText.length;
    const wanted = Math.min(MIN_TITLE, visibleWidth(s.title));
    if (room() < wanted) planText = "";
    if (room() < wanted) tokenText = "";
    const tokens = p.dim(tokenText);
    const titleRoom = Math.max(3, room() + (tokenText ? 0 : 1));
    const title =
      t.id === v.current ? p.title(truncateToWidth(s.title, titleRoom)) : truncateToWidth(s.title, titleRoom);
    const line = padToWidth(
      `${glyph}${num}${pin}${flag}${padToWidth(title, titleRoom)}${p.accent(planText)} ${where}${tokens}`,
      width,
    );
    return v.focused && i === v.index ? p.selection(line) : line;
  });
  if (rows.length === 0) rows.push(p.dim(v.filter ? "no task matches" : "no tasks"));
  const body = windowAround(rows, v.index, Math.max(1, height - 1)).lines;
  return [padToWidth(truncateToWidth(head, width), width), ...body];
}

export function listLines(
  p: Palette,
  items: string[],
  selected: number,
  focused: boolean,
  width: number,
  height: number,
  empty: string,
): string[] {
  // The empty-list note wraps: a 26-column side pane must not cut "no files changed by this …".
  if (items.length === 0)
    return wrapLine(empty, width, { words: true })
      .slice(0, Math.max(1, height))
      .map((l) => p.dim(l));
  const rows = items.map((item, i) => {
    const line = padToWidth(truncateToWidth(item, width), width);
    return focused && i === selected ? p.selection(line) : line;
  });
  return windowAround(rows, selected, height).lines;
}

/** An indented tree of sorted relative paths: each directory once, then its files below it. */
export function fileTree(paths: readonly string[]): string[] {
  const out: string[] = [];
  let open: string[] = [];
  for (const path of paths) {
    const parts = path.split("/");
    const dirs = parts.slice(0, -1);
    let same = 0;
    while (same < open.length && same < dirs.length && open[same] === dirs[same]) same++;
    for (let d = same; d < dirs.length; d++) out.push(`${"  ".repeat(d)}${dirs[d]}/`);
    open = dirs;
    out.push(`${"  ".repeat(dirs.length)}${parts[parts.length - 1]}`);
  }
  return out;
}
