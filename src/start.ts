// The program's first file (dist/cli.js). The bundle's code lives in dist/main.js and
// dist/chunks/ as scripts (scripts/as-scripts.mjs turns esbuild's ES module chunks into them), and
// this file runs them through node:vm with V8's code cache: a start then reads compiled code back
// instead of parsing and compiling ~500 KB of JavaScript again. Node 20 has no compile cache of its
// own for ES modules (`module.enableCompileCache()` came in Node 22), hence scripts.
//
// This file is built as CommonJS (dist/package.json says so): Node then starts without its ES
// module loader, ~12 ms of CPU less on every start, and the scripts never need it. `--version` and
// `--help` are answered before any script loads: the version is built into this file, the help
// text is dist/help.txt, which the build writes from the program's own --help.
//
// The cache of a script is written when the process exits, after it ran, so it holds the functions
// that run compiled as well as the top level. It lives beside the bundle (dist/.code-cache/) or,
// when that folder cannot be written, under ~/.nanohermes/cache/code/ (a folder per installed copy); a file is named by the hash
// of the script it was made from (and its time stamp), so a rebuilt bundle never meets an old cache. A cache V8 refuses
// (another Node version, a damaged file) is rewritten; one that cannot be read or written is
// skipped without a word. NANOHERMES_CODE_CACHE=off runs without it, =home keeps it in the home
// folder.
import {
  accessSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  closeSync,
  readdirSync,
  rmSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";
import { nanohermesHome } from "./config/paths.js";
import { VERSION } from "./version.js";

/** Written by the build: each script's hash (by its path in dist/), and those whose top level awaits. */
declare const __NANOHERMES_SCRIPTS__: { hashes: Record<string, string>; async: string[] };

interface Loaded {
  /** Read when asked for: a script replaces `module.exports` as its first step. */
  module: { exports: unknown };
  /** Settles when the script's top level has finished (at once for all but the awaiting ones). */
  ready: Promise<unknown>;
}

interface Report {
  dir: string | null;
  /** The scripts run, in order (paths in dist/). */
  scripts: string[];
  loaded: number;
  accepted: number;
  rejected: number;
  written: number;
}

// CommonJS: __filename is dist/cli.js (scripts/as-scripts.mjs builds this file with format "cjs").
const self = __filename;
const dist = dirname(self);
const nodeRequire = createRequire(self);
const { hashes } = __NANOHERMES_SCRIPTS__;
const loaded = new Map<string, Loaded>();
const report: Report = { dir: null, scripts: [], loaded: 0, accepted: 0, rejected: 0, written: 0 };
/** Scripts run without a usable cache, to be written at exit. */
const toWrite: { script: Script; file: string }[] = [];

function chooseCacheDir(): string | null {
  const choice = process.env.NANOHERMES_CODE_CACHE;
  if (choice === "off") return null;
  try {
    if (choice === "home") throw new Error("the home folder asked for");
    accessSync(dist, constants.W_OK);
    return join(dist, ".code-cache");
  } catch {
    // One folder per installed copy, so two copies do not clear each other's caches.
    let h = 0x811c9dc5;
    for (let i = 0; i < dist.length; i++) h = Math.imul(h ^ dist.charCodeAt(i), 0x01000193) >>> 0;
    return join(nanohermesHome(), "cache", "code", h.toString(16));
  }
}
const cacheDir = chooseCacheDir();
report.dir = cacheDir;

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Compiles the script at `path` with its code cache. Apart from load(), so the script's source and
 * cache buffer are garbage once compiled: load() stays on the stack while the script runs, and with
 * it everything the scripts it loads read, the whole start long.
 */
function compile(path: string, file: string): Script {
  const hash = hashes[path];
  if (hash === undefined)
    throw new Error(`nanohermes: ${path} is not part of this build (dist/ is incomplete: run npm run build)`);
  const fd = openSync(file, "r");
  let source: string;
  let mtime: number;
  try {
    source = readFileSync(fd, "utf8");
    mtime = Math.trunc(fstatSync(fd).mtimeMs);
  } finally {
    closeSync(fd);
  }
  // V8 checks a cache against the source's length only: the build's hash names the script, and
  // its time stamp a script changed by hand since.
  const cacheFile = cacheDir === null ? null : join(cacheDir, `${hash}-${mtime}.cache`);
  const cachedData = cacheFile === null ? undefined : readCache(cacheFile);
  // The file is the function to call (scripts/as-scripts.mjs writes it so): compiled as read.
  const script = new Script(source, { filename: file, cachedData });
  report.loaded++;
  report.scripts.push(path);
  if (cachedData !== undefined && !script.cachedDataRejected) report.accepted++;
  else if (cacheFile !== null) {
    if (cachedData !== undefined) report.rejected++;
    toWrite.push({ script, file: cacheFile });
  }
  return script;
}

/** Runs the script at `path` (relative to dist/) once and returns its exports. */
function load(path: string): Loaded {
  const known = loaded.get(path);
  if (known) return known;
  const file = join(dist, path);
  const script = compile(path, file);
  const module = { exports: {} as unknown };
  const entry: Loaded = { module, ready: Promise.resolve().then(() => module.exports) };
  loaded.set(path, entry);
  const here = dirname(path);
  const requireHere = (spec: string): unknown =>
    spec.startsWith("./") || spec.startsWith("../") ? load(join(here, spec)).module.exports : nodeRequire(spec);
  // A dynamic import of a script whose top level awaits waits for it (scripts/as-scripts.mjs).
  requireHere.ready = (spec: string): Promise<unknown> => load(join(here, spec)).ready;
  // The entry's import.meta.url is this file's, as it was when the entry was dist/cli.js itself.
  const url = pathToFileURL(path === "main.js" ? self : file).href;
  const result: unknown = script.runInThisContext()(module.exports, requireHere, module, file, dirname(file), url);
  if (result instanceof Promise) entry.ready = result.then(() => module.exports);
  return entry;
}

function writeCaches(): void {
  if (cacheDir === null || toWrite.length === 0) return;
  try {
    mkdirSync(cacheDir, { recursive: true });
    for (const { script, file } of toWrite) {
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, file);
      report.written++;
    }
    // Caches of other builds (an upgrade, a rebuild) go when this one writes its own.
    const current = new Set(Object.values(hashes));
    for (const name of readdirSync(cacheDir))
      if (name.endsWith(".cache") && !current.has(name.split("-")[0] ?? ""))
        rmSync(join(cacheDir, name), { force: true });
  } catch {
    // A read-only or full disk: the next start compiles again, as without a cache.
  }
}

process.once("exit", () => {
  writeCaches();
  const to = process.env.NANOHERMES_CODE_CACHE_REPORT;
  if (to) writeFileSync(resolve(to), JSON.stringify(report));
});

/** The answer to a lone `--version` or `--help` without the bundle; null to ask the program. */
function quickAnswer(args: string[]): string | null {
  if (args.length !== 1) return null;
  if (args[0] === "--version" || args[0] === "-v") return `${VERSION}\n`;
  if (args[0] !== "--help" && args[0] !== "-h") return null;
  try {
    return readFileSync(join(dist, "help.txt"), "utf8");
  } catch {
    return null; // not built (the build asks the program itself for it): the bundle answers
  }
}

const quick = quickAnswer(process.argv.slice(2));
if (quick !== null) process.stdout.write(quick);
else load("main.js");
