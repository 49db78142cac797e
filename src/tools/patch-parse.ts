// Parsing apply_patch input (the Codex "*** Begin Patch" format and plain unified diffs) into typed
// file operations. Pure: no I/O. Errors are ToolErrors naming the patch line and what was expected.
import { ToolError } from "./define.js";

/** One change inside a file. It is located by its content; line numbers are only a tie-breaker. */
export interface Hunk {
  /** A line the change comes after (Codex `@@ def foo():`, or the function name git prints after `@@`). */
  anchor?: string;
  /** Anchors that lead to `anchor`, outermost first (`@@ class A` then `@@ def f():`). */
  outerAnchors?: string[];
  /**
   * The anchors were written as `@@ line` (Codex): each must occur in the file, or the patch fails.
   * Unset for the function name git prints after `@@ -1,2 +1,2 @@`, which git truncates: a hint.
   */
  anchorRequired?: boolean;
  /** Context and removed lines, in file order. Empty for a pure insertion. */
  oldLines: string[];
  /** Context and added lines, in file order. */
  newLines: string[];
  /** 1-based old-file line a unified diff gives (`@@ -l,n`); for a pure insertion, the line to insert after. */
  hintLine?: number;
  /** The hunk sits at the end of the file (`*** End of File`, or a `\ No newline` marker). */
  endOfFile?: boolean;
  /** Whether the new file ends with a newline; set only when a unified diff says so. */
  finalNewline?: boolean;
}

/** What a patch does to one file. */
export type FileOp =
  | { type: "add"; path: string; content: string }
  | { type: "delete"; path: string }
  | { type: "update"; path: string; moveTo?: string; hunks: Hunk[] };

const FILE_HEADER = /^\*\*\* (Add|Delete|Update) File:\s*(.*?)\s*$/;
const MOVE_TO = /^\*\*\* Move to:\s*(.*?)\s*$/;
const UNIFIED_HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;
const FENCE = /^\s*(```|~~~)/;
const HEREDOC = /<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1\s*$/;

function fail(index: number, message: string): never {
  throw new ToolError(`invalid patch, line ${index + 1}: ${message}`);
}

function show(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 77)}...` : line);
}

/** Contract: returns at least one operation or throws a ToolError the model can act on. */
export function parsePatch(text: string): FileOp[] {
  const lines = text.split(/\r?\n/);
  let [start, end] = unwrap(lines);
  if (start >= end) throw new ToolError("invalid patch: it is empty");
  // A patch indented as a whole (pasted inside a list or a quote) is read as if it were not.
  const indent = /^[ \t]+/.exec(lines[start]!)?.[0];
  if (indent && lines.slice(start, end).every((l) => l.trim() === "" || l.startsWith(indent))) {
    for (let i = start; i < end; i++) lines[i] = lines[i]!.slice(indent.length);
  }
  const begin = lines.findIndex((l, i) => i >= start && i < end && l.trim() === "*** Begin Patch");
  let ops: FileOp[];
  if (begin >= 0) {
    // A missing "*** End Patch" is tolerated: the text arrives whole (the calls of a reply cut at the
    // output limit are not run), so its end is the patch's end, and each file section is delimited by
    // its own headers. Without "*** Begin Patch" nothing says the text is a Codex patch at all.
    ops = parseCodex(lines, begin + 1, end);
  } else {
    const first = lines.findIndex(
      (l, i) => i >= start && i < end && (l.startsWith("diff --git ") || isFilePair(lines, i)),
    );
    const header = lines.findIndex((l, i) => i >= start && i < end && FILE_HEADER.test(l.trim()));
    if (header >= 0 && (first < 0 || header < first)) {
      fail(
        header,
        `missing "*** Begin Patch": a Codex patch starts with that line, before its first "*** ... File:" header`,
      );
    }
    if (first < 0) {
      const hunkAt = lines.findIndex((l, i) => i >= start && i < end && l.startsWith("@@"));
      if (hunkAt >= 0)
        fail(
          hunkAt,
          'a hunk needs a file header before it: "--- a/path" and "+++ b/path" lines, or use "*** Update File: path"',
        );
      fail(
        start,
        `expected "*** Begin Patch" (Codex patch format) or a unified diff ("--- a/path", "+++ b/path", "@@ ... @@"), got ${show(lines[start] ?? "")}`,
      );
    }
    start = first;
    ops = parseUnified(lines, start, end);
  }
  if (ops.length === 0) fail(start, "the patch changes no files");
  return ops;
}

/** Strips blank edges and what models wrap patches in: ``` fences and `apply_patch <<'EOF'` heredocs. */
function unwrap(lines: string[]): [number, number] {
  let start = 0;
  let end = lines.length;
  for (;;) {
    while (start < end && lines[start]!.trim() === "") start++;
    while (end > start && lines[end - 1]!.trim() === "") end--;
    if (start >= end) return [start, end];
    const first = lines[start]!;
    // trimEnd only: a unified context line " ```" must not pass for a closing fence.
    const last = lines[end - 1]!.trimEnd();
    const heredoc = HEREDOC.exec(first);
    if (FENCE.test(first)) {
      start++;
      if (/^(```|~~~)$/.test(last)) end--;
    } else if (/^(```|~~~)$/.test(last)) {
      end--;
    } else if (heredoc && !first.startsWith("*** ") && !first.startsWith("+")) {
      start++;
      if (last === heredoc[2]) end--;
    } else {
      return [start, end];
    }
  }
}

function isFilePair(lines: string[], i: number): boolean {
  return (lines[i] ?? "").startsWith("--- ") && (lines[i + 1] ?? "").startsWith("+++ ");
}

// ---- Codex format ----

function parseCodex(lines: string[], i: number, end: number): FileOp[] {
  const ops: FileOp[] = [];
  while (i < end) {
    const line = lines[i]!.trimEnd();
    if (line.trim() === "*** End Patch") {
      // Several patches pasted one after another are read as one; anything else after the end is ignored.
      let next = i + 1;
      while (next < end && lines[next]!.trim() === "") next++;
      if (next >= end || lines[next]!.trim() !== "*** Begin Patch") break;
      i = next + 1;
      continue;
    }
    if (line.trim() === "") {
      i++;
      continue;
    }
    // Leading spaces before a header between files are read as Codex reads them: `  *** Update File: x`
    // (inside an Update File's hunks such a line is context: see endsHunks).
    const header = FILE_HEADER.exec(line.trim());
    if (!header) {
      fail(
        i,
        `expected "*** Add File: <path>", "*** Update File: <path>", "*** Delete File: <path>" or "*** End Patch", got ${show(line)}`,
      );
    }
    const path = header[2]!;
    if (path === "") fail(i, `"*** ${header[1]} File:" needs a path after the colon`);
    const at = i++;
    if (header[1] === "Delete") {
      ops.push({ type: "delete", path });
    } else if (header[1] === "Add") {
      const body: string[] = [];
      let looseBlanks = 0;
      for (; i < end && !isCodexBoundary(lines[i]!); i++) {
        const l = lines[i]!;
        if (l.startsWith("+")) {
          body.push(l.slice(1));
          looseBlanks = 0;
        } else if (l.trim() === "") {
          // A blank line that lost its "+"; kept only if more content follows it.
          body.push("");
          looseBlanks++;
        } else {
          fail(i, `every line of "*** Add File: ${path}" must start with "+", got ${show(l)}`);
        }
      }
      body.length -= looseBlanks;
      ops.push({ type: "add", path, content: body.length ? `${body.join("\n")}\n` : "" });
    } else {
      const move = i < end ? MOVE_TO.exec(lines[i]!.trim()) : null;
      let moveTo: string | undefined;
      if (move) {
        if (move[1] === "") fail(i, '"*** Move to:" needs a path after the colon');
        moveTo = move[1];
        i++;
      }
      const parsed = parseCodexHunks(lines, i, end, path);
      i = parsed.next;
      if (parsed.hunks.length === 0 && moveTo === undefined) {
        fail(
          at,
          `"*** Update File: ${path}" has no changes; add a hunk of " " (context), "-" (remove) and "+" (add) lines`,
        );
      }
      ops.push({ type: "update", path, ...(moveTo !== undefined ? { moveTo } : {}), hunks: parsed.hunks });
    }
  }
  return ops;
}

function isCodexBoundary(line: string): boolean {
  return FILE_HEADER.test(line.trim()) || line.trim() === "*** End Patch";
}

/**
 * Inside an Update File's hunks a line led by a space is context whatever follows, as in Codex: a
 * file may contain " *** Update File: x" itself. So only a header or "*** End Patch" not led by a
 * space ends the hunks, or a space-led "*** End Patch" that is the patch's last line.
 */
function endsHunks(lines: string[], i: number, end: number): boolean {
  const line = lines[i]!;
  if (!line.startsWith(" ")) return isCodexBoundary(line);
  return line.trim() === "*** End Patch" && lines.slice(i + 1, end).every((l) => l.trim() === "");
}

interface HunkDraft {
  hunk: Hunk;
  at: number;
  /** Trailing blank lines that lost their leading space: likely separators, dropped at the end. */
  looseBlanks: number;
}

function parseCodexHunks(lines: string[], i: number, end: number, path: string): { hunks: Hunk[]; next: number } {
  const hunks: Hunk[] = [];
  let draft: HunkDraft | null = null;
  const finish = (): void => {
    if (!draft) return;
    const { hunk, looseBlanks } = draft;
    hunk.oldLines.length -= looseBlanks;
    hunk.newLines.length -= looseBlanks;
    if (hunk.oldLines.length === 0 && hunk.newLines.length === 0) {
      fail(draft.at, `a hunk of "${path}" has no lines; follow "@@" with " ", "-" and "+" lines`);
    }
    hunks.push(hunk);
    draft = null;
  };
  for (; i < end && !endsHunks(lines, i, end); i++) {
    const line = lines[i]!;
    if (line.startsWith("@@")) {
      const { anchor, hintLine } = hunkHeader(line, i);
      const loose = hintLine === undefined && anchor !== undefined;
      if (draft && draft.hunk.oldLines.length === 0 && draft.hunk.newLines.length === 0) {
        if (loose) draft.hunk.anchorRequired = true;
        // Consecutive "@@" lines narrow the search step by step: class, then method.
        const prev = draft.hunk.anchor;
        if (prev !== undefined) draft.hunk.outerAnchors = [...(draft.hunk.outerAnchors ?? []), prev];
        if (anchor !== undefined) draft.hunk.anchor = anchor;
        continue;
      }
      finish();
      const hunk: Hunk = { oldLines: [], newLines: [] };
      if (anchor !== undefined) hunk.anchor = anchor;
      if (loose) hunk.anchorRequired = true;
      if (hintLine !== undefined) hunk.hintLine = hintLine;
      draft = { hunk, at: i, looseBlanks: 0 };
      continue;
    }
    // Between hunks (after "*** End of File", say) a blank line separates; it is not context.
    if (!draft && line.trim() === "") continue;
    if (line.trimEnd() === "*** End of File") {
      if (!draft) fail(i, `"*** End of File" must follow the lines of a hunk`);
      draft.hunk.endOfFile = true;
      finish();
      continue;
    }
    const d: HunkDraft = draft ?? { hunk: { oldLines: [], newLines: [] }, at: i, looseBlanks: 0 };
    draft = d;
    const mark = line[0];
    if (mark === " " || mark === "-" || mark === "+") {
      if (mark !== "+") d.hunk.oldLines.push(line.slice(1));
      if (mark !== "-") d.hunk.newLines.push(line.slice(1));
      d.looseBlanks = 0;
    } else if (line.trim() === "") {
      d.hunk.oldLines.push(line);
      d.hunk.newLines.push(line);
      d.looseBlanks++;
    } else {
      fail(
        i,
        `in the changes to "${path}", every line must start with " " (context), "-" (remove) or "+" (add), or be "@@ ...", "*** End of File" or a "*** ... File:" header; got ${show(line)}. Add a leading space to unchanged lines.`,
      );
    }
  }
  finish();
  return { hunks, next: i };
}

interface HunkHeader {
  anchor?: string;
  hintLine?: number;
  oldCount?: number;
  newCount?: number;
}

/** `@@ -12,5 +12,6 @@ anchor` (also seen inside Codex patches), or the loose `@@` / `@@ anchor`. */
function hunkHeader(line: string, i: number): HunkHeader {
  if (line.startsWith("@@@")) fail(i, "combined (merge) diffs are not supported");
  const m = UNIFIED_HUNK.exec(line);
  const anchor = (m ? m[5]! : line.slice(2).replace(/@@\s*$/, "")).trim();
  if (!m && /^-\d/.test(anchor)) fail(i, `expected a hunk header like "@@ -12,5 +12,6 @@", got ${show(line)}`);
  const numbers = m ? { hintLine: Number(m[1]), oldCount: Number(m[2] ?? 1), newCount: Number(m[4] ?? 1) } : {};
  return { ...(anchor ? { anchor } : {}), ...numbers };
}

// ---- Unified diffs ----

interface UnifiedFile {
  oldPath?: string;
  newPath?: string;
  newFile: boolean;
  deleted: boolean;
  git: boolean;
  at: number;
}

function parseUnified(lines: string[], i: number, end: number): FileOp[] {
  const ops: FileOp[] = [];
  let seenFile = false;
  while (i < end) {
    const line = lines[i]!;
    if (line === "-- " && seenFile) break; // git format-patch signature: the diff is over
    if (!line.startsWith("diff --git ") && !isFilePair(lines, i)) {
      if (line.startsWith("@@")) fail(i, 'a hunk needs a file header before it: "--- a/path" and "+++ b/path"');
      if (seenFile && /^[-+]/.test(line)) {
        fail(i, `a "${line[0]}" line outside any hunk; start the hunk with "@@ -<line>,<count> +<line>,<count> @@"`);
      }
      i++; // commit messages, "Index:" lines, diffstats: not part of any file
      continue;
    }
    seenFile = true;
    const file: UnifiedFile = { newFile: false, deleted: false, git: line.startsWith("diff --git "), at: i };
    if (file.git) {
      const paths = gitHeaderPaths(line.slice("diff --git ".length));
      if (paths) [file.oldPath, file.newPath] = paths;
      for (
        i++;
        i < end && !isFilePair(lines, i) && !lines[i]!.startsWith("diff --git ") && !lines[i]!.startsWith("@@");
        i++
      ) {
        const meta = lines[i]!;
        if (meta.startsWith("new file mode")) file.newFile = true;
        else if (meta.startsWith("deleted file mode")) file.deleted = true;
        else if (meta.startsWith("rename from ")) file.oldPath = unquote(meta.slice(12));
        else if (meta.startsWith("rename to ")) file.newPath = unquote(meta.slice(10));
        else if (meta.startsWith("copy from ") || meta.startsWith("copy to "))
          fail(i, "copies are not supported; add the new file with its full content instead");
        else if (meta.startsWith("Binary files ") || meta.startsWith("GIT binary patch"))
          fail(i, "binary patches are not supported");
        else if (!/^(index |similarity index |dissimilarity index |old mode |new mode )/.test(meta)) break;
      }
    }
    if (isFilePair(lines, i)) {
      const oldName = diffPath(lines[i]!.slice(4));
      const newName = diffPath(lines[i + 1]!.slice(4));
      // Strip git's a/ and b/ prefixes; in a plain diff only when both sides (or /dev/null) agree on them.
      const prefixed =
        file.git ||
        ((oldName === null || oldName.startsWith("a/")) &&
          (newName === null || newName.startsWith("b/")) &&
          (oldName ?? newName) !== null);
      const strip = (name: string, prefix: string): string =>
        prefixed && name.startsWith(prefix) ? name.slice(2) : name;
      if (oldName === null) file.newFile = true;
      else file.oldPath = strip(oldName, "a/");
      if (newName === null) file.deleted = true;
      else file.newPath = strip(newName, "b/");
      i += 2;
    }
    const hunks: Hunk[] = [];
    while (i < end && lines[i]!.startsWith("@@")) {
      const parsed = parseUnifiedHunk(lines, i, end);
      hunks.push(parsed.hunk);
      i = parsed.next;
    }
    const op = unifiedOp(file, hunks);
    if (op) ops.push(op);
  }
  return ops;
}

function unifiedOp(file: UnifiedFile, hunks: Hunk[]): FileOp | null {
  const path = file.newFile ? file.newPath : file.oldPath;
  if (path === undefined || path === "")
    fail(file.at, 'could not read the file name; expected "--- a/path" and "+++ b/path" lines');
  if (file.newFile && file.deleted) fail(file.at, `"${path}" is both added and deleted`);
  if (file.newFile) {
    if (hunks.some((h) => h.oldLines.length > 0))
      fail(file.at, `"${path}" is a new file (/dev/null), so its hunks may only have "+" lines`);
    const body = hunks.flatMap((h) => h.newLines);
    const noEol = hunks.some((h) => h.finalNewline === false);
    return { type: "add", path, content: body.length ? body.join("\n") + (noEol ? "" : "\n") : "" };
  }
  if (file.deleted) return { type: "delete", path };
  const moveTo = file.newPath !== undefined && file.newPath !== path ? file.newPath : undefined;
  if (hunks.length === 0 && moveTo === undefined) return null; // mode-only change: nothing to write
  return { type: "update", path, ...(moveTo !== undefined ? { moveTo } : {}), hunks };
}

function parseUnifiedHunk(lines: string[], i: number, end: number): { hunk: Hunk; next: number } {
  const header = lines[i]!;
  const { oldCount, newCount, ...where } = hunkHeader(header, i);
  const hunk: Hunk = { ...where, oldLines: [], newLines: [] };
  // Counts guide where the hunk ends, but models often miscount, so lines after them that still
  // look like hunk lines are taken too.
  let oldLeft = oldCount ?? Infinity;
  let newLeft = newCount ?? Infinity;
  let last: "ctx" | "old" | "new" | null = null;
  let oldNoEol = false;
  let newNoEol = false;
  for (i++; i < end; i++) {
    const line = lines[i]!;
    if (line.startsWith("@@") || line.startsWith("diff --git ") || isFilePair(lines, i)) break;
    if (line === "-- " && !(oldLeft > 0)) break; // format-patch signature, unless the counts say it is a removed "- "
    const mark = line[0];
    if (mark === "\\") {
      if (last === null) fail(i, `"\\ No newline at end of file" must follow a hunk line`);
      if (last !== "new") oldNoEol = true;
      if (last !== "old") newNoEol = true;
      continue;
    }
    let kind: "ctx" | "old" | "new";
    if (mark === " ") kind = "ctx";
    else if (mark === "-") kind = "old";
    else if (mark === "+") kind = "new";
    else if (line.trim() === "" && ((oldLeft > 0 && newLeft > 0) || continuesHunk(lines, i + 1, end))) kind = "ctx";
    else break;
    // A blank line that lost its leading space is context in full.
    const text = mark === " " || mark === "-" || mark === "+" ? line.slice(1) : line;
    if (kind !== "new") {
      hunk.oldLines.push(text);
      oldLeft--;
    }
    if (kind !== "old") {
      hunk.newLines.push(text);
      newLeft--;
    }
    last = kind;
  }
  if (hunk.oldLines.length === 0 && hunk.newLines.length === 0) fail(i - 1, `the hunk ${show(header)} has no lines`);
  if (oldNoEol || newNoEol) {
    hunk.endOfFile = true;
    hunk.finalNewline = !newNoEol;
  }
  return { hunk, next: i };
}

/** After blank lines, does the hunk go on (a " ", "-" or "+" line that is not the next file header)? */
function continuesHunk(lines: string[], i: number, end: number): boolean {
  while (i < end && lines[i]!.trim() === "") i++;
  const line = lines[i];
  return line !== undefined && i < end && /^[ +\-\\]/.test(line) && !isFilePair(lines, i) && line !== "-- ";
}

/** A `---`/`+++` name: null for /dev/null; git's "quoted" form decoded; a trailing tab and timestamp cut. */
function diffPath(raw: string): string | null {
  const name = raw.startsWith('"') ? unquote(raw) : raw.split("\t")[0]!.trimEnd();
  return name === "/dev/null" ? null : name;
}

/** Paths from `diff --git a/x b/y`; unambiguous when both names are equal or quoted. */
function gitHeaderPaths(rest: string): [string, string] | null {
  if (rest.includes('"')) {
    const m = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
    return m ? [unquote(m[1]!).replace(/^a\//, ""), unquote(m[2]!).replace(/^b\//, "")] : null;
  }
  const half = (rest.length - 1) / 2;
  const a = rest.slice(0, half);
  const b = rest.slice(half + 1);
  return a.startsWith("a/") && b.startsWith("b/") && a.slice(2) === b.slice(2) ? [a.slice(2), b.slice(2)] : null;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v" };

/** Decodes git's C-style quoting ("a/caf\303\251.txt"), whose octal escapes are UTF-8 bytes. */
function unquote(raw: string): string {
  const m = /^"((?:[^"\\]|\\.)*)"/.exec(raw.trim());
  if (!m) return raw.trim();
  const bytes = m[1]!.replace(/\\([0-7]{3}|.)/g, (_, e: string) =>
    e.length === 3 ? String.fromCharCode(parseInt(e, 8)) : (ESCAPES[e] ?? e),
  );
  // Characters beyond one byte were not written by git (it escapes them): keep such a name as it is.
  return /^[\x00-\xff]*$/.test(bytes) ? Buffer.from(bytes, "latin1").toString("utf8") : bytes;
}
