// grep and glob through ripgrep when it is on the PATH: the same rules as the built-in search
// (.gitignore everywhere, hidden files but not .git, no files over 8 MB, sorted by path), several
// times faster on big trees. A pattern ripgrep cannot parse (lookaround, backreferences) falls back.
import { spawn } from "node:child_process";
import { nameFromBytes } from "../fs/byte-names.js";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

let cached: string | null | undefined;

/** The rg binary, or null (not installed, or NANOHERMES_NO_RG set: the tests compare both paths). */
export function findRg(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.NANOHERMES_NO_RG) return null;
  if (cached !== undefined) return cached;
  cached = null;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "rg");
    try {
      accessSync(candidate, constants.X_OK);
      cached = candidate;
      break;
    } catch {
      // not here
    }
  }
  return cached;
}

const COMMON = ["--no-config", "--hidden", "--no-require-git", "--glob", "!.git", "--no-messages", "--crlf"];
// Only a search skips big files (and the caller counts them, as the built-in path does): with
// --files the same flag would hide them from glob.
const SEARCH = ["--max-filesize", "8M"];
const SORTED = ["--sort", "path"];

/** Matches collected unsorted (ripgrep then searches with every core) before falling back to its
 *  single-threaded sorted mode, which can stop at the first `limit`. */
const UNSORTED_CAP = 20_000;

/** The built-in walker's order: directory entries by name (code units), depth first. */
export function compareTreePaths(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}

export interface RgMatch {
  /** Relative to the search root, with / separators. */
  path: string;
  line: number;
  text: string;
}

type RgOutcome<T> = { ok: true; items: T[]; capped: boolean } | { ok: false; reason: string };

/** Runs rg, hands each stdout line to `take` until it returns false (enough), then stops rg. */
function runRg<T>(
  rg: string,
  args: string[],
  cwd: string,
  signal: AbortSignal,
  parse: (line: string) => T | null,
  limit: number,
  /** What ends one item: a line, or NUL for file names (`--null`: a name may hold a newline). */
  end = "\n",
  /** Each line is a file name (decoded exactly, as with NUL). */
  names = false,
): Promise<RgOutcome<T>> {
  return new Promise((resolve) => {
    const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const items: T[] = [];
    let capped = false;
    let stderr = "";
    const stop = () => child.kill("SIGKILL");
    const onAbort = () => stop();
    signal.addEventListener("abort", onAbort, { once: true });
    // Bytes until an item ends: a file name is given exactly (byte-names.ts), even when not UTF-8.
    let pending: Buffer = Buffer.alloc(0);
    const endByte = end.charCodeAt(0);
    const decode = end === "\0" || names ? nameFromBytes : (b: Buffer) => b.toString("utf8");
    child.stdout.on("data", (chunk: Buffer) => {
      if (capped) return;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let from = 0;
      let nl: number;
      while ((nl = pending.indexOf(endByte, from)) !== -1) {
        const line = decode(pending.subarray(from, nl));
        from = nl + 1;
        const item = parse(line);
        if (item === null) continue;
        if (items.length >= limit) {
          capped = true;
          stop();
          return;
        }
        items.push(item);
      }
      pending = pending.subarray(from);
    });
    child.stderr.on("data", (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString();
    });
    child.on("error", (error) => resolve({ ok: false, reason: error.message }));
    child.on("close", (code) => {
      signal.removeEventListener("abort", onAbort);
      // rg: 0 found, 1 nothing found, 2 an error (a bad regex among them).
      if (capped || code === 0 || code === 1) resolve({ ok: true, items, capped });
      else resolve({ ok: false, reason: stderr.trim().split("\n")[0] || `rg exited ${code}` });
    });
  });
}

interface RgJson {
  type: string;
  data?: { path?: { text?: string; bytes?: string }; lines?: { text?: string; bytes?: string }; line_number?: number };
}

/** Matching lines, in path order, at most `limit` (+ whether more exist). */
export async function rgGrep(
  rg: string,
  o: {
    root: string;
    target: string;
    pattern: string;
    ignoreCase: boolean;
    glob: string | undefined;
    signal: AbortSignal;
    limit: number;
  },
): Promise<RgOutcome<RgMatch>> {
  const all = await rgGrepOnce(rg, o, false, UNSORTED_CAP);
  if (!all.ok || !all.capped) {
    if (!all.ok) return all;
    const items = all.items.sort((a, b) => compareTreePaths(a.path, b.path) || a.line - b.line);
    return { ok: true, items: items.slice(0, o.limit), capped: items.length > o.limit };
  }
  // Very many matches: let ripgrep sort and stop at the first `limit`.
  return rgGrepOnce(rg, o, true, o.limit);
}

function rgGrepOnce(
  rg: string,
  o: {
    root: string;
    target: string;
    pattern: string;
    ignoreCase: boolean;
    glob: string | undefined;
    signal: AbortSignal;
  },
  sorted: boolean,
  limit: number,
): Promise<RgOutcome<RgMatch>> {
  // --encoding utf-8 decodes invalid bytes to U+FFFD, as the built-in path does, so `.` matches them.
  const args = [
    ...COMMON,
    ...SEARCH,
    ...(sorted ? SORTED : []),
    "--json",
    "--encoding",
    "utf-8",
    ...(o.ignoreCase ? ["--ignore-case"] : []),
    ...(o.glob !== undefined ? ["--glob", o.glob] : []),
    "--regexp",
    o.pattern,
    "--",
    o.target,
  ];
  const parse = (line: string): RgMatch | null => {
    if (!line.startsWith('{"type":"match"')) return null;
    const event = JSON.parse(line) as RgJson;
    // A path that is not UTF-8 comes as base64 bytes: kept exact (byte-names.ts).
    const raw = event.data?.path;
    const path = raw?.text ?? (raw?.bytes !== undefined ? nameFromBytes(Buffer.from(raw.bytes, "base64")) : undefined);
    // Lines that are not valid UTF-8 come as base64 bytes; decode them the way the built-in path does.
    const lines = event.data?.lines;
    const text =
      lines?.text ?? (lines?.bytes !== undefined ? Buffer.from(lines.bytes, "base64").toString("utf8") : undefined);
    if (path === undefined || text === undefined || event.data?.line_number === undefined) return null;
    return {
      path: path.startsWith("./") ? path.slice(2) : path,
      line: event.data.line_number,
      text: text.replace(/\r?\n$/, ""),
    };
  };
  return runRg(rg, args, o.root, o.signal, parse, limit);
}

/** Every file a search of `root` would consider (the glob applied, big and binary files included), unsorted. */
export function rgCandidates(
  rg: string,
  o: { root: string; glob: string | undefined; signal: AbortSignal },
): Promise<RgOutcome<string>> {
  const args = [...COMMON, "--files", ...(o.glob !== undefined ? ["--glob", o.glob] : []), "."];
  return runRg(
    rg,
    args,
    o.root,
    o.signal,
    (line) => (line ? (line.startsWith("./") ? line.slice(2) : line) : null),
    Number.POSITIVE_INFINITY,
    "\n",
    true,
  );
}

/** Files matching a glob, in path order, at most `limit`. */
export function rgFiles(
  rg: string,
  o: { root: string; glob: string; signal: AbortSignal; limit: number },
): Promise<RgOutcome<string>> {
  const args = [...COMMON, ...SORTED, "--files", "--null", "--glob", o.glob, "."];
  return runRg(
    rg,
    args,
    o.root,
    o.signal,
    (line) => (line ? (line.startsWith("./") ? line.slice(2) : line) : null),
    o.limit,
    "\0",
  );
}
