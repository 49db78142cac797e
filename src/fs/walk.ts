// The workspace walker: a gitignore-aware, depth-first listing of a directory tree, read with some
// concurrency but yielded in a fixed order (entries sorted by name), never following symlinks.
import { readFile, type Dirent } from "node:fs";
import { fsPath, readdirExact } from "./byte-names.js";
import { join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

export type EntryType = "file" | "dir" | "symlink";

export interface WalkEntry {
  /** Relative to the walk root, with `/` separators and no trailing slash. */
  path: string;
  name: string;
  type: EntryType;
  /** 1 for the root's own children. */
  depth: number;
  /** True only with `yieldIgnored`: the entry is ignored (by .gitignore, or it is `.git`). */
  ignored: boolean;
}

export interface WalkOptions {
  /** Stops the walk: the iterator throws the signal's reason at its next step. */
  signal?: AbortSignal;
  /** Deepest level yielded (1 = only the root's children); default unlimited. */
  maxDepth?: number;
  /** Also yield ignored entries, marked `ignored` (their directories are still not descended). Default false. */
  yieldIgnored?: boolean;
  /**
   * An ancestor of the root (e.g. the workspace) whose .gitignore files, and .git/info/exclude,
   * also apply to the walk. Default: the root itself.
   */
  ignoreRoot?: string;
  /** Directories read at once. Default 16. */
  concurrency?: number;
}

/** The rules of one .gitignore (or info/exclude), anchored at `base` (relative to the ignore root). */
interface Level {
  ig: Ignore;
  /** Length of the `base/` prefix to strip from a key, 0 for the ignore root. */
  strip: number;
  text: string;
  /** Only the rules without a slash, matched against names alone; see `judge`. */
  byName: boolean;
  names?: Level;
}

interface DirNode {
  abs: string;
  /** Relative to the walk root ("" for the root); the prefix of yielded paths. */
  rel: string;
  /** Relative to the ignore root; what the rules are matched against. */
  key: string;
  depth: number;
  /** The levels that still apply inside this directory, shallowest first. */
  levels: Level[];
  listing?: Promise<Item[] | null>;
}

interface Item {
  entry: WalkEntry;
  child?: DirNode;
}

const DEFAULT_CONCURRENCY = 16;
/** Directories read ahead of the consumer at most; bounds memory and wasted work after an early stop. */
const READ_AHEAD = 256;

/** A directory's entries, names exact even when they are not UTF-8 (byte-names.ts). */
const readdirTyped = readdirExact;

function readText(path: string): Promise<string | null> {
  return new Promise((res) => readFile(fsPath(path), "utf8", (err, text) => res(err ? null : text)));
}

function matcher(text: string): Ignore {
  // Git matches case-sensitively unless core.ignorecase is set; `ignore` defaults the other way.
  return ignore({ ignorecase: false, allowRelativePaths: true }).add(text);
}

function newLevel(text: string, base: string): Level {
  return { ig: matcher(text), strip: base === "" ? 0 : base.length + 1, text, byName: false };
}

/** The level reduced to its slash-free rules (`*.md`, `build/`), which match by name alone. */
function namesOnly(level: Level): Level {
  if (!level.names) {
    const rules = level.text.split(/\r?\n/).filter(
      (line) =>
        !line
          .replace(/^!/, "")
          .replace(/\/+\s*$/, "")
          .includes("/"),
    );
    level.names = { ig: matcher(rules.join("\n")), strip: 0, text: "", byName: true };
  }
  return level.names;
}

/**
 * The verdict of the levels on an entry (`key` relative to the ignore root): the deepest level
 * with an opinion wins, as later rules win in git. For a directory, also the levels that apply
 * inside it.
 */
function judge(levels: Level[], key: string, name: string, isDir: boolean): { ignored: boolean; keep: Level[] } {
  let ignored = false;
  let decided = false;
  const results: boolean[] = [];
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i]!;
    const sub = (level.byName ? name : key.slice(level.strip)) + (isDir ? "/" : "");
    const r = level.ig.test(sub);
    results[i] = r.ignored;
    if (!decided && (r.ignored || r.unignored)) {
      ignored = r.ignored;
      decided = true;
      if (!isDir) break;
    }
  }
  // A directory entered although a level excludes it (a deeper file re-included it, or the walk
  // root was named): that level would report every path below as excluded too (the `ignore`
  // package checks parents), so below it only its by-name rules still apply, as in git.
  const keep =
    isDir && results.includes(true) ? levels.map((l, i) => (results[i] && !l.byName ? namesOnly(l) : l)) : levels;
  return { ignored, keep };
}

function entryType(d: Dirent): EntryType | null {
  if (d.isFile()) return "file";
  if (d.isDirectory()) return "dir";
  if (d.isSymbolicLink()) return "symlink";
  return null; // sockets, FIFOs, devices: reading one could block
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Contract: iterate with `for await`; `break` stops the walk (no further directories are read
 * after in-flight ones). Never throws for unreadable directories: they are counted in
 * `unreadable`. Throws only when the signal aborts.
 */
export class Walk implements AsyncIterable<WalkEntry> {
  /** Directories that could not be read (permissions, removed during the walk). */
  unreadable = 0;
  private readonly maxDepth: number;
  private readonly concurrency: number;
  private pending: DirNode[] = [];
  private active = 0;
  private buffered = 0;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly options: WalkOptions = {},
  ) {
    this.maxDepth = options.maxDepth ?? Infinity;
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<WalkEntry> {
    const signal = this.options.signal;
    signal?.throwIfAborted();
    try {
      const rootNode = await this.rootNode();
      if (this.maxDepth < 1) return;
      const stack: { items: Item[]; i: number }[] = [];
      const first = await this.take(rootNode);
      if (first) stack.push({ items: first, i: 0 });
      while (stack.length > 0) {
        signal?.throwIfAborted();
        const frame = stack[stack.length - 1]!;
        const item = frame.items[frame.i++];
        if (!item) {
          stack.pop();
          continue;
        }
        yield item.entry;
        if (item.child) {
          const items = await this.take(item.child);
          signal?.throwIfAborted();
          if (items) stack.push({ items, i: 0 });
        }
      }
    } finally {
      this.closed = true;
      this.pending = [];
    }
  }

  /** The root, with the rules of the ignore root and every directory down to the walk root. */
  private async rootNode(): Promise<DirNode> {
    const top = this.options.ignoreRoot ?? this.root;
    const rel = relative(top, this.root);
    const inside = rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep);
    const base = inside ? top : this.root;
    let levels: Level[] = [];
    const exclude = await readText(join(base, ".git", "info", "exclude"));
    if (exclude) levels.push(newLevel(exclude, ""));
    let key = "";
    let abs = base;
    for (const part of inside ? rel.split(sep) : []) {
      const own = await readText(join(abs, ".gitignore"));
      if (own) levels = [...levels, newLevel(own, key)];
      key = key ? `${key}/${part}` : part;
      abs = join(abs, part);
      // The walk root was asked for by name, so it is walked even when ignored; but a level that
      // ignores it would mark everything below it as ignored, so it stops applying.
      levels = judge(levels, key, part, true).keep;
    }
    return { abs: this.root, rel: "", key, depth: 0, levels };
  }

  /** The consumer needs `node` now: start it if read-ahead has not, and wait for it. */
  private take(node: DirNode): Promise<Item[] | null> {
    if (node.listing) this.buffered--;
    else node.listing = this.read(node);
    const listing = node.listing;
    this.pump();
    return listing.then((items) => {
      if (!items) this.unreadable++;
      return items;
    });
  }

  /** Starts reading queued directories, most recently found first (roughly the order they are needed). */
  private pump(): void {
    while (!this.closed && this.active < this.concurrency && this.buffered < READ_AHEAD) {
      const node = this.pending.pop();
      if (!node) return;
      if (node.listing) continue;
      this.buffered++;
      node.listing = this.read(node);
    }
  }

  private async read(node: DirNode): Promise<Item[] | null> {
    this.active++;
    let dirents: Dirent[];
    try {
      dirents = await readdirTyped(node.abs);
    } catch {
      return null;
    } finally {
      this.active--;
    }
    let levels = node.levels;
    if (dirents.some((d) => d.name === ".gitignore" && !d.isDirectory())) {
      const text = await readText(join(node.abs, ".gitignore"));
      if (text) levels = [...levels, newLevel(text, node.key)];
    }
    dirents.sort(byName);
    const items: Item[] = [];
    const depth = node.depth + 1;
    const yieldIgnored = this.options.yieldIgnored ?? false;
    for (const d of dirents) {
      const type = entryType(d);
      if (!type) continue;
      const name = d.name;
      const path = node.rel ? `${node.rel}/${name}` : name;
      const key = node.key ? `${node.key}/${name}` : name;
      let ignored = name === ".git";
      let keep = levels;
      if (!ignored && levels.length > 0) ({ ignored, keep } = judge(levels, key, name, type === "dir"));
      if (ignored && !yieldIgnored) continue;
      const entry: WalkEntry = { path, name, type, depth, ignored };
      if (type === "dir" && !ignored && depth < this.maxDepth) {
        const child: DirNode = { abs: join(node.abs, name), rel: path, key, depth, levels: keep };
        items.push({ entry, child });
      } else {
        items.push({ entry });
      }
    }
    // Queue subdirectories for read-ahead, last first so the first is popped first.
    for (let i = items.length - 1; i >= 0; i--) {
      const child = items[i]!.child;
      if (child) this.pending.push(child);
    }
    this.pump();
    return items;
  }
}

/** Walks `root` depth-first; see `Walk` for the contract. */
export function walk(root: string, options: WalkOptions = {}): Walk {
  return new Walk(root, options);
}
