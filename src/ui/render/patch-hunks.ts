// A file's hunks as git prints them (`@@ -a,b +c,d @@` blocks) read into the diff view's hunks, so
// /diff draws git's output with the same renderer as the Changes tab.
import type { DiffHunk, DiffLine } from "./diff.js";

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses unified-diff hunks; lines before the first header and unknown lines are skipped. */
export function parseHunks(text: string): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let hunk: DiffHunk | null = null;
  let oldNo = 0;
  let newNo = 0;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const raw of lines) {
    const head = HEADER.exec(raw);
    if (head) {
      const [oldStart, oldLines, newStart, newLines] = [head[1], head[2] ?? "1", head[3], head[4] ?? "1"].map(
        Number,
      ) as [number, number, number, number];
      hunk = { oldStart, oldLines, newStart, newLines, lines: [] };
      hunks.push(hunk);
      // An empty range names the line before it ("@@ -0,0 +1,2 @@"): numbering starts after it.
      oldNo = oldLines === 0 ? oldStart + 1 : oldStart;
      newNo = newLines === 0 ? newStart + 1 : newStart;
      continue;
    }
    if (!hunk) continue;
    const text = raw.slice(1).replace(/\r$/, "");
    let line: DiffLine | null = null;
    switch (raw[0]) {
      case "+":
        line = { kind: "add", text, newNo: newNo++ };
        break;
      case "-":
        line = { kind: "del", text, oldNo: oldNo++ };
        break;
      case " ":
        line = { kind: "context", text, oldNo: oldNo++, newNo: newNo++ };
        break;
      case "\\":
        line = { kind: "note", text: text.trim() };
        break;
    }
    if (line) hunk.lines.push(line);
  }
  return hunks;
}
