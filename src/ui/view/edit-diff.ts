// The change an edit made, drawn in its card: edit_file's old and new text as a diff at the line
// the tool reported, apply_patch's patch coloured per file. Collapsed to a few lines; the whole of
// it when the card is expanded. Built from the call's own arguments, so a resumed card has it too.
import { diffLines, renderDiff, type DiffHunk, type DiffStyles } from "../render/diff.js";
import { truncateToWidth, wrapLine } from "../render/wrap.js";

/** Lines of an edit's change shown under a collapsed card. */
export const COLLAPSED_DIFF_LINES = 6;

/** The change of a finished edit call, as lines no wider than `width`; null when it has none to show. */
export function editDiffLines(
  name: string,
  args: unknown,
  display: string,
  width: number,
  styles: DiffStyles,
): string[] | null {
  if (typeof args !== "object" || args === null) return null;
  const a = args as Record<string, unknown>;
  if (
    name === "edit_file" &&
    typeof a.old_string === "string" &&
    typeof a.new_string === "string" &&
    a.old_string !== ""
  ) {
    const offset = Number(/at line (\d+)/.exec(display)?.[1] ?? 1) - 1;
    // Pieces of a file, not whole files: no "no newline at end of file" note.
    const hunks = diffLines(`${a.old_string}\n`, `${a.new_string}\n`).map((h) => shiftHunk(h, offset));
    if (hunks.length === 0) return null;
    // The card's head names the file; the diff's own header line would repeat it.
    return renderDiff(hunks, { width, styles, path: typeof a.path === "string" ? a.path : "" }).lines.slice(1);
  }
  if (name === "apply_patch" && typeof a.patch === "string") return patchLines(a.patch, width, styles);
  return null;
}

function shiftHunk(h: DiffHunk, by: number): DiffHunk {
  if (by <= 0) return h;
  return {
    ...h,
    oldStart: h.oldStart + by,
    newStart: h.newStart + by,
    lines: h.lines.map((l) => ({
      ...l,
      ...(l.oldNo !== undefined ? { oldNo: l.oldNo + by } : {}),
      ...(l.newNo !== undefined ? { newNo: l.newNo + by } : {}),
    })),
  };
}

const FILE_HEADER = /^\*\*\* (Update|Add|Delete) File: (.*)$|^\*\*\* Move to: (.*)$|^diff --git |^(---|\+\+\+) /;

/** A patch (Codex format or unified diff) coloured line by line: files, hunks, added and removed lines. */
export function patchLines(patch: string, width: number, styles: DiffStyles): string[] {
  const out: string[] = [];
  for (const raw of patch.replace(/\r\n/g, "\n").split("\n")) {
    if (raw === "*** Begin Patch" || raw === "*** End Patch" || raw === "") continue;
    const header = FILE_HEADER.exec(raw);
    if (header) {
      const text = header[1]
        ? `${header[1].toLowerCase()} ${header[2]}`
        : header[3] !== undefined
          ? `  moved to ${header[3]}`
          : raw;
      out.push(truncateToWidth(styles.header(text), width));
      continue;
    }
    const paint = raw.startsWith("@@")
      ? styles.hunkHeader
      : raw.startsWith("+")
        ? styles.add
        : raw.startsWith("-")
          ? styles.del
          : raw.startsWith("***")
            ? styles.dim
            : styles.context;
    for (const piece of wrapLine(paint(raw), width, { indent: 2, tokens: true })) out.push(piece);
  }
  return out;
}
