// Lines of the results pane's Diff tab (/diff): a summary, the changed files, and the selected
// file's diff drawn like the Changes tab's (token-boundary wraps, hunk jumps); or one file's diff
// over the whole tab once opened. Pure: /diff read it (../../controller/worktree-diff.ts).
import type { WorktreeFile } from "../../../agent/workspace-view.js";
import type { Look } from "../../theme/look.js";
import type { ResultsMeasure } from "../../view/measures.js";
import type { WorktreeView } from "../../state/ui-state.js";
import { renderDiff, type RenderedDiff } from "../../render/diff.js";
import { parseHunks } from "../../render/patch-hunks.js";
import { padToWidth, truncateToWidth, visibleWidth, wrapLine } from "../../render/wrap.js";
import type { Palette } from "../../theme/palette.js";
import { diffStyles, listLines } from "../../view/panes.js";
import { truncatePath } from "../../view/row-text.js";

const marks: Record<WorktreeFile["status"], string> = {
  modified: "M",
  added: "A",
  deleted: "D",
  untracked: "?",
  type: "T",
};
const statusWords: Partial<Record<WorktreeFile["status"], string>> = {
  added: "new file",
  deleted: "deleted",
  untracked: "untracked",
  type: "type changed",
};

/** Rendered diffs by file, for the width and palette they were drawn at. */
const cache = new WeakMap<WorktreeFile, { width: number; palette: Palette; diff: RenderedDiff }>();

/** One file's diff, or its name and why it is not shown (binary, over a cap). */
export function fileDiff(p: Palette, f: WorktreeFile, width: number): RenderedDiff {
  const hit = cache.get(f);
  if (hit && hit.width === width && hit.palette === p) return hit.diff;
  let diff: RenderedDiff;
  const hunks = f.patch === null ? [] : parseHunks(f.patch);
  if (hunks.length > 0) {
    diff = renderDiff(hunks, { width, styles: diffStyles(p), path: f.path });
    const status = statusWords[f.status];
    // renderDiff reads every file as modified: name what else it is in the header.
    if (status) diff.lines[0] = truncateToWidth(`${p.title(f.path)} ${p.dim(`(${status})`)} ${counts(p, f)}`, width);
  } else {
    const note = f.note ?? (f.binary ? "binary" : "no change in its text");
    diff = {
      lines: [truncateToWidth(p.title(f.path), width), ...wrapLine(p.dim(note), width, { words: true })],
      hunkStarts: [],
    };
  }
  cache.set(f, { width, palette: p, diff });
  return diff;
}

function counts(p: Palette, f: WorktreeFile): string {
  if (f.binary) return p.dim("binary");
  return `${p.diffAdd(`+${f.added}`)} ${p.diffDel(`-${f.removed}`)}`;
}

/** A file's row: status mark, path (cut from the left), counts at the right edge. */
function fileRow(p: Palette, f: WorktreeFile, width: number): string {
  const right = counts(p, f);
  const room = Math.max(4, width - 3 - visibleWidth(right));
  const left = `${marks[f.status]} ${truncatePath(f.path, room)}`;
  return `${left}${" ".repeat(Math.max(1, width - visibleWidth(left) - visibleWidth(right)))}${right}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The summary line, and the caps' notes. */
function headLines(p: Palette, v: WorktreeView, files: WorktreeFile[], notes: string[], width: number): string[] {
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  const head = `${plural(files.length, "file")} ${p.diffAdd(`+${added}`)} ${p.diffDel(`-${removed}`)}${v.loading ? p.dim(" · reading…") : ""}`;
  return [truncateToWidth(head, width), ...notes.flatMap((n) => wrapLine(p.warning(n), width, { words: true }))];
}

/** What the Diff tab reads: the working tree's diff as /diff read it, and where it is in it. */
export interface DiffModel {
  worktreeDiff: WorktreeView | null;
}

/** The Diff tab's body (`height` rows) and what the controller moves through in it. */
export function diffLines(
  m: DiffModel,
  sv: Look,
  inner: number,
  height: number,
  focused: boolean,
): { body: string[]; measure: ResultsMeasure } {
  const { palette: p, ascii } = sv;
  const v = m.worktreeDiff;
  const say = (text: string) => ({
    body: wrapLine(p.dim(text), inner, { words: true }).slice(0, Math.max(1, height)),
    measure: { count: 0, hunks: 0 },
  });
  if (!v) return say("/diff shows the working tree's changes here");
  if (!v.result) return say("reading the working tree's changes…");
  if (!v.result.ok) return say(v.result.error);
  const { files, notes } = v.result;
  if (files.length === 0)
    return say(
      `no changes: the working tree matches ${v.result.base === "HEAD" ? "HEAD" : "the index"} and there are no untracked files${v.loading ? " (reading…)" : ""}`,
    );
  const index = Math.min(v.index, files.length - 1);
  const file = files[index]!;
  const width = Math.max(1, inner);
  const diff = fileDiff(p, file, width);
  const measureOf = (room: number) => ({
    count: files.length,
    hunks: diff.hunkStarts.length,
    lines: diff.lines.length,
    height: room,
    hunkStarts: diff.hunkStarts,
  });
  if (v.open) {
    const room = Math.max(1, height);
    const offset = Math.max(0, Math.min(Math.max(0, diff.lines.length - room), v.offset));
    return { body: diff.lines.slice(offset, offset + room), measure: measureOf(room) };
  }
  // The list gets a third of the tab (at least two rows), the selected file's diff the rest.
  const head = headLines(p, v, files, notes, inner).slice(0, Math.max(1, Math.floor(height / 4)));
  const listRows = Math.max(2, Math.min(files.length, Math.floor((height - head.length) / 3)));
  const list = listLines(
    p,
    files.map((f) => fileRow(p, f, inner)),
    index,
    focused,
    inner,
    listRows,
    "",
  );
  const rule = p.dim((ascii ? "-" : "─").repeat(inner));
  const room = Math.max(0, height - head.length - list.length - 1);
  const body = [...head, ...list.map((l) => padToWidth(l, inner)), rule, ...diff.lines.slice(0, room)];
  return { body: body.slice(0, Math.max(0, height)), measure: measureOf(room) };
}
