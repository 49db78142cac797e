// File checkpoints for /rewind: the state each file had before the first turn that changed it
// (file tools report paths; commands are caught by a stat walk before and after), kept per session.
import { promises as fs } from "node:fs";
import { fsPath } from "../fs/byte-names.js";
import { dirname, join, resolve, sep } from "node:path";
import { log } from "../config/log.js";
import * as z from "../protocol/zod.js";
import { atomicWriteFile } from "../tools/fs-atomic.js";
import { systemErrorMeaning } from "../tools/errno.js";
import { withWalk } from "../tools/safe-fs.js";
import { readRegular, rmdirTarget, unlinkTarget, writeAtomic } from "../tools/safe-fs-ops.js";
import { BlobStore, errorCode, mapLimit } from "./checkpoint-blobs.js";
import {
  canonicalPath,
  diffSnapshot,
  takeSnapshot,
  type Bounds,
  type Cached,
  type Incremental,
  type Snapshot,
} from "./checkpoint-snapshot.js";
import { DirWatch } from "./dir-watch.js";

export { SKIPPED_DIRS } from "./checkpoint-snapshot.js";

export interface CheckpointOptions {
  /** Where checkpoints live, e.g. ~/.nanohermes/checkpoints/<sessionId>/ (created on first write, mode 700). */
  dir: string;
  /** The workspace root (and any extra writable roots) whose files are tracked; relative paths resolve against the first. */
  roots: string[];
  /**
   * Command snapshots keep content only for files up to this size; larger ones are tracked by stat
   * ("changed, content not kept"). Default 1 MB. Files a file tool names are kept up to maxTotalBytes.
   */
  maxFileBytes?: number;
  /** Files per snapshot walk, in walk order (name order, depth first); files past it are not tracked for commands. Default 20,000. */
  maxFiles?: number;
  /** Content read per snapshot (and per comparison after a command); files past it are tracked by stat. Default 64 MB. */
  maxTotalBytes?: number;
}

/** One file a turn changed. `before` is its state before the turn; `after`, its state at the turn's end (or now, for its last turn). */
export interface FileChange {
  /** Absolute, symlinks in the roots resolved. */
  path: string;
  /** "kept": content saved; "absent": the turn created it; "too-large": content not kept (size or read budget). */
  before: "absent" | "kept" | "too-large";
  after: "absent" | "present";
  turn: number;
  /** The tool that changed it first in the turn. */
  by: string;
}

export interface RewindResult {
  /** Files holding their pre-turn content again. */
  restored: string[];
  /** Files that did not exist before the turn and no longer do. */
  removed: string[];
  skipped: { path: string; why: string }[];
}

const Pre = z.discriminatedUnion("state", [
  /** `dirsFrom`: the topmost parent directory that did not exist either, removed again if empty. */
  z.object({ state: z.literal("absent"), dirsFrom: z.optional(z.string()) }),
  z.object({ state: z.literal("kept"), sha: z.string().check(z.regex(/^[0-9a-f]{64}$/)), mode: z.number() }),
  z.object({ state: z.literal("too-large"), why: z.string() }),
]);
type Pre = z.infer<typeof Pre>;

const RecordSchema = z.object({ path: z.string(), by: z.string(), pre: Pre });
type Rec = z.infer<typeof RecordSchema>;

/** manifest.json; blobs/<sha256> holds the content the `kept` records name. */
const ManifestSchema = z.object({
  version: z.literal(1),
  turns: z.array(z.object({ turn: z.number(), records: z.array(RecordSchema) })),
});

export class Checkpoints {
  private readonly dir: string;
  private readonly bounds: Bounds;
  private readonly blobs: BlobStore;
  private roots: string[] = [];
  /** The checkpoint folder, resolved, in case it lies inside a root: never walked. */
  private ownDir = new Set<string>();
  private byTurn = new Map<number, Map<string, Rec>>();
  private snap: Snapshot | null = null;
  /** The last walk and the directory watches that let the next walk reuse it. */
  private readonly inc: Incremental = { prev: null, watch: new DirWatch() };
  /** Commands of `turn` between beforeCommand and afterCommand: overlapping ones share the first one's snapshot. */
  private running: { turn: number; count: number } | null = null;
  private loaded: Promise<void> | null = null;
  private dirReady = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: CheckpointOptions) {
    this.dir = resolve(opts.dir);
    this.bounds = {
      maxFileBytes: opts.maxFileBytes ?? 1024 * 1024,
      maxFiles: opts.maxFiles ?? 20_000,
      maxTotalBytes: opts.maxTotalBytes ?? 64 * 1024 * 1024,
    };
    this.blobs = new BlobStore(join(this.dir, "blobs"));
  }

  /**
   * Contract: never rejects. Returns why the files' before-images could not be kept (the store
   * could not be written: a full disk, no permission), or null: a caller that goes on anyway
   * makes a change /rewind cannot undo. A file that cannot be read is logged and passed over (the
   * tool meets the same error).
   */
  beforeWrite(turn: number, paths: string[], by: string): Promise<string | null> {
    return this.serial("beforeWrite", "the checkpoint store failed", async () => {
      let added = false;
      for (const p of paths) {
        let pre: Pre | null;
        let path: string | null;
        try {
          path = await this.canonical(p);
          if (path === null || this.byTurn.get(turn)?.has(path)) continue;
          pre = await this.capture(path);
        } catch (error) {
          if (!(error instanceof StoreError)) {
            log("warn", `checkpoints: could not record ${p} before ${by}`, error);
            continue;
          }
          return `its content could not be kept in ${this.dir} (${systemErrorMeaning(error.cause) ?? describe(error.cause)})`;
        }
        if (pre) added = this.add(turn, { path, by, pre }) || added;
      }
      try {
        if (added) await this.save();
      } catch (error) {
        return `the checkpoint record could not be written in ${this.dir} (${systemErrorMeaning(error) ?? describe(error)})`;
      }
      return null;
    });
  }

  /**
   * Optional: takes the first snapshot ahead of time (e.g. at session start, not awaited), so the
   * first command waits for a stat walk rather than for the whole workspace to be read. Never rejects.
   */
  prepare(): Promise<void> {
    return this.serial("prepare", undefined, async () => {
      if (this.running) return;
      await this.ensureDir();
      this.snap = await takeSnapshot(this.roots, this.ownDir, this.bounds, this.snap, this.blobs, this.inc);
    });
  }

  /** Whether the last walk saw every file (null before the first); past `maxFiles` it stops. */
  coverage(): Promise<{ complete: boolean; maxFiles: number } | null> {
    return Promise.resolve(this.snap ? { complete: this.snap.complete, maxFiles: this.bounds.maxFiles } : null);
  }

  /** Contract: never rejects. Call afterCommand in a `finally`; calls may overlap within a turn. */
  beforeCommand(turn: number): Promise<void> {
    return this.serial("beforeCommand", undefined, async () => {
      if (this.running?.turn === turn && this.running.count > 0) {
        this.running.count++;
        return;
      }
      this.running = null;
      await this.ensureDir();
      this.snap = await takeSnapshot(this.roots, this.ownDir, this.bounds, this.snap, this.blobs, this.inc);
      this.running = { turn, count: 1 };
    });
  }

  /** Contract: never rejects. Returns this command's changes, `before` being the state just before the command. */
  afterCommand(turn: number, by: string): Promise<FileChange[]> {
    return this.serial("afterCommand", [], async () => {
      const run = this.running;
      if (run && run.turn === turn && --run.count <= 0) this.running = null;
      const snap = this.snap;
      if (!run || run.turn !== turn || !snap) {
        log("warn", `checkpoints: afterCommand(${turn}) without a beforeCommand snapshot; not recorded`);
        return [];
      }
      const found = (await diffSnapshot(snap, this.roots, this.ownDir, this.bounds, this.inc)).map((c) => ({
        path: c.path,
        present: c.present,
        pre: c.before ? preOf(c.before) : ({ state: "absent", dirsFrom: c.dirsFrom } satisfies Pre),
      }));
      let added = false;
      for (const f of found) added = this.add(turn, { path: f.path, by, pre: f.pre }) || added;
      if (added) await this.save();
      return found.map((f) => ({
        path: f.path,
        before: f.pre.state,
        after: f.present ? "present" : "absent",
        turn,
        by,
      }));
    });
  }

  turns(): Promise<{ turn: number; changes: FileChange[] }[]> {
    return this.serial("turns", [], async () => {
      const out: { turn: number; changes: FileChange[] }[] = [];
      for (const turn of this.sortedTurns()) {
        const changes: FileChange[] = [];
        for (const rec of this.byTurn.get(turn)?.values() ?? []) {
          const next = this.earliest(turn + 1, rec.path);
          const present = next ? next.pre.state !== "absent" : await exists(rec.path);
          changes.push({
            path: rec.path,
            before: rec.pre.state,
            after: present ? "present" : "absent",
            turn,
            by: rec.by,
          });
        }
        out.push({ turn, changes });
      }
      return out;
    });
  }

  contentBefore(turn: number, path: string): Promise<Buffer | null | undefined> {
    return this.serial("contentBefore", undefined, async () => {
      const canon = await this.canonical(path);
      const rec = canon === null ? undefined : this.earliest(turn, canon);
      if (!rec || rec.pre.state === "too-large") return undefined;
      if (rec.pre.state === "absent") return null;
      return (await this.blobs.get(rec.pre.sha)) ?? undefined;
    });
  }

  /** Contract: never rejects; a file that cannot be put back is listed in `skipped` and the others still are. */
  rewind(turn: number): Promise<RewindResult> {
    const empty: RewindResult = { restored: [], removed: [], skipped: [] };
    return this.serial("rewind", empty, async () => {
      const targets = new Map<string, Rec>();
      for (const t of this.sortedTurns().reverse()) {
        if (t < turn) break;
        for (const [path, rec] of this.byTurn.get(t) ?? []) targets.set(path, rec);
      }
      return this.restore([...targets.values()]);
    });
  }

  revertFile(turn: number, path: string): Promise<"restored" | "removed" | { skipped: string }> {
    return this.serial("revertFile", { skipped: "checkpoints unavailable (see the log)" }, async () => {
      const canon = await this.canonical(path);
      const rec = canon === null ? undefined : this.earliest(turn, canon);
      if (!rec) return { skipped: `no checkpoint of this file from turn ${turn} on` };
      const result = await this.restore([rec]);
      if (result.restored.length > 0) return "restored";
      if (result.removed.length > 0) return "removed";
      return { skipped: result.skipped[0]?.why ?? "not restored" };
    });
  }

  /** Forgets turns >= `turn` and deletes content no longer referenced (the snapshot's kept). */
  forget(turn: number): Promise<void> {
    return this.serial("forget", undefined, async () => {
      const before = this.byTurn.size;
      for (const t of [...this.byTurn.keys()]) if (t >= turn) this.byTurn.delete(t);
      if (this.byTurn.size === before) return;
      await this.save();
      await this.blobs.prune(this.inUse());
    });
  }

  /**
   * Not part of the engine's loop: drops the command snapshot and the content only it kept (a copy
   * of the workspace, up to maxTotalBytes), e.g. when the session ends; kept while a command runs.
   * The next beforeCommand reads the workspace again. Returns the number of blobs deleted.
   */
  prune(): Promise<number> {
    return this.serial("prune", 0, async () => {
      if (!this.running) this.snap = null;
      return this.blobs.prune(this.inUse());
    });
  }

  // --- internals ---

  /** Runs `fn` after every earlier call (one manifest writer, consistent snapshots); failures become `fallback`. */
  private serial<T>(what: string, fallback: T, fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      await (this.loaded ??= this.load());
      return fn();
    });
    this.queue = next.catch(() => {});
    return next.catch((error: unknown) => {
      log("warn", `checkpoints: ${what} failed`, error);
      return fallback;
    });
  }

  private async load(): Promise<void> {
    const roots: string[] = [];
    for (const r of this.opts.roots) roots.push(await canonicalPath(resolve(r)).catch(() => resolve(r)));
    // A root inside another is walked once, as part of the outer one.
    this.roots = [...new Set(roots)].filter((r) => !roots.some((o) => o !== r && r.startsWith(o + sep)));
    this.ownDir = new Set([this.dir, await canonicalPath(this.dir).catch(() => this.dir)]);
    const file = join(this.dir, "manifest.json");
    let text: string;
    try {
      text = await fs.readFile(file, "utf8");
    } catch (error) {
      if (errorCode(error) !== "ENOENT") log("warn", `checkpoints: cannot read ${file}`, error);
      return;
    }
    let parsed: z.infer<typeof ManifestSchema> | null = null;
    try {
      const result = ManifestSchema.safeParse(JSON.parse(text));
      if (result.success) parsed = result.data;
    } catch {
      parsed = null;
    }
    if (!parsed) {
      const aside = `${file}.corrupt-${Date.now()}`;
      log("warn", `checkpoints: ${file} is not a checkpoint manifest; moved to ${aside}`);
      await fs.rename(file, aside).catch(() => {});
      return;
    }
    for (const { turn, records } of parsed.turns) {
      const map = this.byTurn.get(turn) ?? new Map<string, Rec>();
      for (const rec of records) if (!map.has(rec.path)) map.set(rec.path, rec);
      this.byTurn.set(turn, map);
    }
  }

  private async save(): Promise<void> {
    await this.ensureDir();
    const turns = this.sortedTurns().map((turn) => ({ turn, records: [...(this.byTurn.get(turn)?.values() ?? [])] }));
    await atomicWriteFile(join(this.dir, "manifest.json"), `${JSON.stringify({ version: 1, turns })}\n`, 0o600);
  }

  private async ensureDir(): Promise<void> {
    if (this.dirReady) return;
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await fs.mkdir(join(this.dir, "blobs"), { recursive: true, mode: 0o700 });
    this.dirReady = true;
  }

  /** Adds a record unless the turn has one for the path (the first one is the pre-turn state). */
  private add(turn: number, rec: Rec): boolean {
    let map = this.byTurn.get(turn);
    if (!map) this.byTurn.set(turn, (map = new Map()));
    if (map.has(rec.path)) return false;
    map.set(rec.path, rec);
    return true;
  }

  private sortedTurns(): number[] {
    return [...this.byTurn.keys()].sort((a, b) => a - b);
  }

  /** The record holding `path`'s state before `turn`: the earliest at or after it. */
  private earliest(turn: number, path: string): Rec | undefined {
    for (const t of this.sortedTurns()) {
      if (t < turn) continue;
      const rec = this.byTurn.get(t)?.get(path);
      if (rec) return rec;
    }
    return undefined;
  }

  /** The blobs the manifest or the snapshot names. */
  private inUse(): Set<string> {
    const keep = new Set<string>();
    for (const map of this.byTurn.values())
      for (const rec of map.values()) if (rec.pre.state === "kept") keep.add(rec.pre.sha);
    for (const f of this.snap?.files.values() ?? []) if (f.sha) keep.add(f.sha);
    return keep;
  }

  private inRoots(path: string): boolean {
    return this.roots.some((r) => path.startsWith(r + sep));
  }

  /** The tracked form of a path (absolute, symlinks resolved), or null when it is outside the roots. */
  private async canonical(p: string): Promise<string | null> {
    const path = await canonicalPath(resolve(this.roots[0] ?? process.cwd(), p));
    if (this.inRoots(path)) return path;
    log("debug", `checkpoints: ${p} is outside the tracked roots; not recorded`);
    return null;
  }

  /** A file's current state as a record's pre-state; null for what is not a file (a directory, a dangling link). */
  private async capture(path: string): Promise<Pre | null> {
    let st;
    try {
      st = await fs.lstat(fsPath(path));
    } catch (error) {
      if (errorCode(error) !== "ENOENT" && errorCode(error) !== "ENOTDIR") throw error;
      let top: string | undefined;
      for (let d = dirname(path); this.inRoots(d) && !(await exists(d)); d = dirname(d)) top = d;
      return top === undefined ? { state: "absent" } : { state: "absent", dirsFrom: top };
    }
    if (!st.isFile()) return null;
    // Read through the no-follow walk: what a rewind may write back is only what was at this path.
    const max = this.bounds.maxTotalBytes;
    const read = await withWalk(path, { followFinal: false }, (w) =>
      w.real === path ? readRegular(w, path, max, "too-large") : null,
    ).catch((error: unknown) => {
      if (error instanceof Error && error.message === "too-large") return "too-large" as const;
      throw error;
    });
    if (read === null) return null;
    if (read === "too-large") return { state: "too-large", why: `larger than ${max} bytes; content not kept` };
    const sha = await this.blobs.put(read.data, true).catch((error: unknown) => {
      throw new StoreError(error);
    });
    return { state: "kept", sha, mode: read.mode };
  }

  /** Puts files back: removals first (a path may have turned from a file into a directory or back), then writes. */
  /**
   * All or nothing (issue 26.7): a file whose place changed shape since (a parent is now a link or
   * a file, the file a directory) cannot be put back, so nothing is, and each path says why; the
   * workspace is never left half as it was before the turn. Permanent skips (outside the roots,
   * content not kept) do not call the rewind off. A change between this check and the restore is
   * still refused path by path below.
   */
  private async blockers(recs: Rec[]): Promise<{ path: string; why: string }[]> {
    const blocked: { path: string; why: string }[] = [];
    for (const { path, pre } of recs) {
      if (!this.inRoots(path) || pre.state === "too-large") continue;
      const why = await withWalk(path, { followFinal: false }, (w) => {
        if (w.real !== path) return "a parent directory is now a symlink; not touched";
        const parent = w.blockedParent();
        if (parent) return pre.state === "kept" ? `${parent} is a file now; not touched` : null;
        if (w.lstat()?.isDirectory())
          return pre.state === "kept" ? "is a directory now; not overwritten" : "is a directory now; not removed";
        return null;
      }).catch((error: unknown) => `cannot reach it: ${describe(error)}`);
      if (why !== null) blocked.push({ path, why });
    }
    return blocked;
  }

  private async restore(recs: Rec[]): Promise<RewindResult> {
    const result: RewindResult = { restored: [], removed: [], skipped: [] };
    const skip = (path: string, why: string) => result.skipped.push({ path, why });
    const blocked = await this.blockers(recs);
    if (blocked.length > 0) {
      const stop = new Set(blocked.map((b) => b.path));
      const off = `not touched: the rewind was called off because ${blocked[0]!.path} cannot be put back`;
      for (const { path, pre } of recs) {
        if (stop.has(path)) continue;
        skip(path, !this.inRoots(path) ? "outside the tracked roots" : pre.state === "too-large" ? pre.why : off);
      }
      result.skipped.push(...blocked);
      result.skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return result;
    }
    const writes: Rec[] = [];
    const dirs = new Set<string>();
    for (const rec of recs) {
      const { path, pre } = rec;
      if (!this.inRoots(path)) skip(path, "outside the tracked roots");
      else if (pre.state === "too-large") skip(path, pre.why);
      else if (pre.state === "kept") writes.push(rec);
      else {
        try {
          const gone = await withWalk(path, { followFinal: false }, (w) => {
            if (w.real !== path) return "a parent directory is now a symlink; not touched";
            const st = w.lstat();
            if (st?.isDirectory()) return "is a directory now; not removed";
            if (st) unlinkTarget(w);
            return null;
          });
          if (gone !== null) skip(path, gone);
          else {
            result.removed.push(path);
            const top = pre.dirsFrom;
            if (top)
              for (let d = dirname(path); this.inRoots(d) && (d === top || d.startsWith(top + sep)); d = dirname(d))
                dirs.add(d);
          }
        } catch (error) {
          skip(path, `cannot remove: ${describe(error)}`);
        }
      }
    }
    // Directories the turn created, deepest first; ones still holding files stay.
    for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
      await withWalk(d, { followFinal: false }, (w) => w.real === d && rmdirTarget(w)).catch(() => false);
    }
    await mapLimit(writes, 8, async ({ path, pre }) => {
      if (pre.state !== "kept") return;
      try {
        const data = await this.blobs.get(pre.sha);
        if (!data) return skip(path, "checkpoint content missing or corrupt");
        // Read, compare and write through one no-follow walk: a parent swapped for a link cannot
        // lead the restore out of the roots (safe-fs.ts).
        const why = await withWalk(path, { followFinal: false }, async (w) => {
          if (w.real !== path) return "a parent directory is now a symlink; not touched";
          const st = w.lstat();
          if (st?.isDirectory()) return "is a directory now; not overwritten";
          const current = st?.isFile() ? await readRegular(w, path, data.length).catch(() => null) : null;
          if (current && current.mode === pre.mode && current.data.equals(data)) return null;
          w.makeParents();
          await writeAtomic(w, data, path, pre.mode);
          return null;
        });
        if (why !== null) return skip(path, why);
        result.restored.push(path);
      } catch (error) {
        skip(path, `cannot write: ${describe(error)}`);
      }
    });
    result.restored.sort();
    result.removed.sort();
    return result;
  }
}

function preOf(old: Cached): Pre {
  return old.sha
    ? { state: "kept", sha: old.sha, mode: old.mode }
    : { state: "too-large", why: old.why ?? "content not kept" };
}

async function exists(path: string): Promise<boolean> {
  return fs.lstat(fsPath(path)).then(
    () => true,
    () => false,
  );
}

function describe(error: unknown): string {
  return errorCode(error) ?? (error instanceof Error ? error.message : String(error));
}

/** Writing to the checkpoint store failed (not reading the file it was to keep). */
class StoreError extends Error {
  constructor(cause: unknown) {
    super("checkpoint store write failed", { cause });
  }
}
