// grep: search file contents with a JavaScript regex, line by line, gitignore honoured; binary and
// very large files skipped; the first matches in path order, capped.
import { close, closeSync, fstatSync, open, openSync, read, readSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import * as z from "../protocol/zod.js";
import { binaryKind } from "./binary.js";
import { findRg, rgCandidates, rgGrep } from "./ripgrep.js";
import { defineTool, ToolError } from "./define.js";
import { compileGlob } from "./glob.js";
import { walk } from "../fs/walk.js";
import { fsPath } from "../fs/byte-names.js";
import { showPath } from "./path-escape.js";
import { joinShown, resolveWalkRoot } from "./walk-root.js";

export const MAX_MATCHES = 200;
export const MAX_GREP_FILE_BYTES = 8 * 1024 * 1024;
const MAX_LINE_CHARS = 300;
/** Most source files fit in one read of this size, which saves an fstat per file. */
const HEAD_BYTES = 64 * 1024;
/**
 * Files are read synchronously, in slices of this many milliseconds between which the event loop
 * runs (a stop, other tasks, the screen): on a big tree this is twice as fast as a thread-pool
 * round trip per file.
 */
const SLICE_MS = 10;

const openP = promisify(open);
const readP = promisify(read);

export interface LineRegex {
  /** Finds candidate lines in a whole file (flags g and m). */
  scan: RegExp;
  /** Confirms one line, so a match never spans lines. */
  line: RegExp;
}

/** Compiles the model's pattern; a leading `(?i)` (ripgrep style) becomes the i flag. */
export function compilePattern(pattern: string, ignoreCase = false): LineRegex {
  let source = pattern;
  let flags = ignoreCase ? "i" : "";
  // Inline flags at the start only; m and s change nothing when matching one line at a time.
  const inline = /^\(\?([ims]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    if (inline[1]!.includes("i") && !flags.includes("i")) flags += "i";
  }
  const build = (mode: string): LineRegex => ({
    scan: new RegExp(source, `${flags}${mode}gm`),
    line: new RegExp(source, `${flags}${mode}`),
  });
  try {
    // Unicode mode for \p{...} and whole code points.
    return build("u");
  } catch {
    // Loose escapes such as \- or \_ (fine in ripgrep) are errors only in unicode mode.
  }
  try {
    return build("");
  } catch (error) {
    const hint = /\(\?[a-zA-Z]/.test(source)
      ? " (inline flags are not supported except a leading (?i); use ignore_case)"
      : "";
    throw new ToolError(
      `invalid regex: ${(error as Error).message}${hint}. The pattern is a JavaScript regex; escape ( [ { . * + ? with a backslash to match them literally.`,
    );
  }
}

export interface LineMatch {
  /** 1-based. */
  line: number;
  text: string;
}

/** A long line cut to MAX_LINE_CHARS, keeping the match in view. */
function clipLine(line: string, at: number, length: number): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const start = at + length <= MAX_LINE_CHARS ? 0 : Math.max(0, Math.min(at - 40, line.length - MAX_LINE_CHARS));
  const end = start + MAX_LINE_CHARS;
  return `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
}

/**
 * Contract: the lines of `text` (split on \n, a trailing \r dropped) that `re.line` matches, in
 * order, at most `limit`. The whole-file scan only finds candidates quickly; each is confirmed
 * on its own line, and scanning resumes at the next line so no matching line is skipped.
 */
export function searchText(text: string, re: LineRegex, limit: number): LineMatch[] {
  const out: LineMatch[] = [];
  if (text.length === 0) return out;
  // A final newline ends the last line; it does not start an empty one.
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  const scan = re.scan;
  scan.lastIndex = 0;
  let lineNo = 1;
  let lineStart = 0;
  while (out.length < limit) {
    const m = scan.exec(text);
    if (!m || m.index > end) break;
    let nl = text.indexOf("\n", lineStart);
    while (nl !== -1 && nl < m.index) {
      lineNo++;
      lineStart = nl + 1;
      nl = text.indexOf("\n", lineStart);
    }
    const lineEnd = nl === -1 ? text.length : nl;
    let line = text.slice(lineStart, lineEnd);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    const hit = re.line.exec(line);
    if (hit) out.push({ line: lineNo, text: clipLine(line, hit.index, hit[0].length) });
    if (lineEnd >= text.length) break;
    lineNo++;
    lineStart = lineEnd + 1;
    scan.lastIndex = lineStart;
  }
  return out;
}

type FileRead = { bytes: Buffer } | { skip: "large" };

/** "[skipped 2 binary files, 1 file over 8 MB]", or null when nothing was skipped. */
function skippedNote(t: { binary: number; large: number; unreadable: number }): string | null {
  const parts = [
    t.binary ? plural(t.binary, "binary file") : "",
    t.large ? `${plural(t.large, "file")} over 8 MB` : "",
    t.unreadable ? plural(t.unreadable, "unreadable path") : "",
  ].filter(Boolean);
  return parts.length ? `[skipped ${parts.join(", ")}]` : null;
}

/** What a ripgrep search skipped, by the built-in path's rules: files over 8 MB and binary heads. */
async function rgSkipped(
  rg: string,
  root: string,
  glob: string | undefined,
  signal: AbortSignal,
): Promise<string | null> {
  const listed = await rgCandidates(rg, { root, glob, signal });
  if (!listed.ok) return null;
  const tally = { binary: 0, large: 0, unreadable: 0 };
  const head = Buffer.allocUnsafe(8192);
  let sliceStart = performance.now();
  for (const path of listed.items) {
    try {
      const fd = openSync(fsPath(join(root, path)), "r");
      try {
        if (fstatSync(fd).size > MAX_GREP_FILE_BYTES) tally.large++;
        else if (binaryKind(head.subarray(0, readSync(fd, head, 0, head.length, 0)))) tally.binary++;
      } finally {
        closeSync(fd);
      }
    } catch {
      tally.unreadable++;
    }
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      signal.throwIfAborted();
      sliceStart = performance.now();
    }
  }
  return skippedNote(tally);
}

async function isBinaryFile(path: string): Promise<boolean> {
  const fd = await openP(fsPath(path), "r");
  try {
    const head = Buffer.alloc(8192);
    const { bytesRead } = await readP(fd, head, 0, head.length, 0);
    return binaryKind(head.subarray(0, bytesRead)) !== null;
  } catch {
    return false;
  } finally {
    close(fd, () => {});
  }
}

/** The file's bytes, or "large" past MAX_GREP_FILE_BYTES; `scratch` (HEAD_BYTES long) is reused. */
function readCapped(path: string, scratch: Buffer): FileRead {
  const fd = openSync(fsPath(path), "r");
  try {
    const bytesRead = readSync(fd, scratch, 0, HEAD_BYTES, 0);
    if (bytesRead < HEAD_BYTES) return { bytes: scratch.subarray(0, bytesRead) };
    const { size } = fstatSync(fd);
    if (size > MAX_GREP_FILE_BYTES) return { skip: "large" };
    const whole = Buffer.allocUnsafe(Math.max(size, HEAD_BYTES));
    scratch.copy(whole, 0, 0, HEAD_BYTES);
    let filled = HEAD_BYTES;
    while (filled < whole.length) {
      const n = readSync(fd, whole, filled, whole.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return { bytes: whole.subarray(0, filled) };
  } finally {
    closeSync(fd);
  }
}

interface FileResult {
  order: number;
  shown: string;
  matches: LineMatch[];
}

interface Tally {
  matches: number;
  binary: number;
  large: number;
  unreadable: number;
}

const params = z.object({
  pattern: z
    .string()
    .check(z.describe("JavaScript regular expression, matched against each line. A leading (?i) ignores case.")),
  path: z
    .optional(z.string())
    .check(z.describe("File or directory to search, relative to the workspace or absolute (default: the workspace).")),
  glob: z
    .optional(z.string())
    .check(
      z.describe(
        'Only search files matching this glob, e.g. "*.ts" (file name at any depth) or "src/**/*.{ts,tsx}" (path from the search directory).',
      ),
    ),
  ignore_case: z.optional(z.boolean()).check(z.describe("Match case-insensitively (default false).")),
});

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? "" : "s"}`;
}

export const grepTool = defineTool({
  name: "grep",
  kind: "read",
  description:
    "Search file contents with a regular expression (JavaScript syntax, matched line by line). " +
    "Returns `path:line:text` lines (paths relative to the workspace), sorted by path then line, " +
    `at most ${MAX_MATCHES} matches; long lines are cut to ${MAX_LINE_CHARS} characters around the match. ` +
    "Searches the workspace, or the given file or directory. Files ignored by .gitignore, the .git directory, " +
    "binary files, files over 8 MB and symlinks are skipped. Use `glob` to restrict the file types and " +
    "ignore_case (or a leading (?i)) for case-insensitive search. Escape regex characters to match them literally, " +
    "e.g. `foo\\(` for `foo(`.",
  params,
  truncate: "head",
  moreHint: "Narrow the pattern, path or glob.",
  summarize: (a) => {
    const extra = [a.glob, a.ignore_case ? "ignore case" : undefined].filter(Boolean).join(", ");
    return `${JSON.stringify(a.pattern)}${a.path ? ` in ${a.path}` : ""}${extra ? ` (${extra})` : ""}`;
  },
  async run(args, ctx) {
    const re = compilePattern(args.pattern, args.ignore_case);
    const filter = args.glob !== undefined ? compileGlob(args.glob) : null;
    const root = await resolveWalkRoot(ctx.workspace, args.path);
    const rg = root.isDir ? findRg() : null;
    if (rg) {
      const out = await rgGrep(rg, {
        root: root.abs,
        target: ".",
        pattern: args.pattern,
        ignoreCase: args.ignore_case === true,
        glob: args.glob,
        signal: ctx.signal,
        limit: MAX_MATCHES,
      });
      ctx.signal.throwIfAborted();
      // A pattern ripgrep cannot parse (lookaround, backreferences) is searched by the built-in path.
      if (out.ok) {
        // ripgrep may report lines of a file before it sees the NUL that makes it binary; the
        // built-in path skips such files whole, and so does this one.
        const binary = new Map<string, boolean>();
        for (const m of out.items)
          if (!binary.has(m.path)) binary.set(m.path, await isBinaryFile(join(root.abs, m.path)));
        out.items = out.items.filter((m) => !binary.get(m.path));
        const lines = out.items.map(
          (m) =>
            `${showPath(joinShown(root.shown, m.path))}:${m.line}:${searchText(m.text, re, 1)[0]?.text ?? m.text.slice(0, MAX_LINE_CHARS)}`,
        );
        const files = new Set(out.items.map((m) => m.path)).size;
        const body = lines.length === 0 ? "no matches" : lines.join("\n");
        const notes = out.capped ? [`[${MAX_MATCHES} matches shown; narrow the pattern or path]`] : [];
        // ripgrep skips binary and big files silently: they are counted here as the built-in path counts them.
        const skipped = out.capped ? null : await rgSkipped(rg, root.abs, args.glob, ctx.signal);
        if (skipped) notes.push(skipped);
        const display =
          lines.length === 0
            ? "no matches"
            : `${lines.length}${out.capped ? "+" : ""} ${lines.length === 1 ? "match" : "matches"} in ${plural(files, "file")}`;
        return { forModel: [body, ...notes].join("\n"), display };
      }
    }
    const tally: Tally = { matches: 0, binary: 0, large: 0, unreadable: 0 };
    const results: FileResult[] = [];
    const scratch = Buffer.allocUnsafe(HEAD_BYTES);

    const searchFile = (abs: string, shown: string, order: number): void => {
      try {
        const got = readCapped(abs, scratch);
        if ("skip" in got) {
          tally.large++;
          return;
        }
        if (binaryKind(got.bytes.subarray(0, 8192))) {
          tally.binary++;
          return;
        }
        let text = got.bytes.toString("utf8");
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        // One more than the cap, so the caller can tell the cap was hit.
        const matches = searchText(text, re, MAX_MATCHES + 1);
        if (matches.length > 0) {
          results.push({ order, shown, matches });
          tally.matches += matches.length;
        }
      } catch {
        tally.unreadable++;
      }
    };

    let walkUnreadable = 0;
    if (!root.isDir) {
      searchFile(root.abs, root.shown, 0);
    } else {
      const walker = walk(root.abs, { signal: ctx.signal, ignoreRoot: ctx.workspace });
      let order = 0;
      let sliceStart = performance.now();
      for await (const entry of walker) {
        if (entry.type !== "file" || (filter && !filter(entry.path))) continue;
        // Files are searched in path order, so once past the cap every later file would sort after
        // the matches already found: stop.
        if (tally.matches > MAX_MATCHES) break;
        searchFile(join(root.abs, entry.path), showPath(joinShown(root.shown, entry.path)), order++);
        if (performance.now() - sliceStart > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          ctx.signal.throwIfAborted();
          sliceStart = performance.now();
        }
      }
      walkUnreadable = walker.unreadable;
    }
    ctx.signal.throwIfAborted();

    results.sort((a, b) => a.order - b.order);
    const lines: string[] = [];
    let files = 0;
    for (const file of results) {
      if (lines.length >= MAX_MATCHES) break;
      files++;
      for (const m of file.matches.slice(0, MAX_MATCHES - lines.length))
        lines.push(`${file.shown}:${m.line}:${m.text}`);
    }
    const capped = tally.matches > MAX_MATCHES;

    const notes: string[] = [];
    if (capped) notes.push(`[${MAX_MATCHES} matches shown; narrow the pattern or path]`);
    const skipped = skippedNote({ ...tally, unreadable: tally.unreadable + walkUnreadable });
    if (skipped) notes.push(skipped);

    const body = lines.length === 0 ? "no matches" : lines.join("\n");
    const display =
      lines.length === 0
        ? "no matches"
        : `${lines.length}${capped ? "+" : ""} ${lines.length === 1 ? "match" : "matches"} in ${plural(files, "file")}`;
    return { forModel: [body, ...notes].join("\n"), display };
  },
});
