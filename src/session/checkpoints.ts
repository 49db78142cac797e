// File checkpoints for /rewind: the state each file had before the first turn that changed it
// (file tools report paths; commands are caught by a stat walk before and after), kept per session.
// This is the store's front: when to capture, one operation at a time. The records and their file
// are checkpoint-manifest.ts, putting files back checkpoint-restore.ts, the command snapshots
// checkpoint-snapshot.ts, the content checkpoint-blobs.ts.
import { promises as fs } from "node:fs";
import { fsPath } from "../fs/byte-names.js";
import { dirname, join, resolve, sep } from "node:path";
import { log } from "../config/log.js";
import { systemErrorMeaning } from "../tools/errno.js";
import { withWalk } from "../tools/safe-fs.js";
import { readRegular } from "../tools/safe-fs-ops.js";
import { BlobStore, describeError, errorCode } from "./checkpoint-blobs.js";
import { preOf, type Pre, type Rec, TurnRecords } from "./checkpoint-manifest.js";
import { restoreRecords, type RewindResult } from "./checkpoint-restore.js";
import {
  canonicalPath,
  diffSnapshot,
  takeSnapshot,
  type Bounds,
  type Incremental,
  type Snapshot,
} from "./checkpoint-snapshot.js";
import { DirWatch } from "./dir-watch.js";

export type { RewindResult } from "./checkpoint-restore.js";

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

export class Checkpoints {
  private readonly dir: string;
  private readonly bounds: Bounds;
  private readonly blobs: BlobStore;
  private roots: string[] = [];
  /** The checkpoint folder, resolved, in case it lies inside a root: never walked. */
  private ownDir = new Set<string>();
  private readonly records = new TurnRecords();
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
          if (path === null || this.records.has(turn, path)) continue;
          pre = await this.capture(path);
        } catch (error) {
          if (!(error instanceof StoreError)) {
            log("warn", `checkpoints: could not record ${p} before ${by}`, error);
            continue;
          }
          return `its content could not be kept in ${this.dir} (${systemErrorMeaning(error.cause) ?? describeError(error.cause)})`;
        }
        if (pre) added = this.records.add(turn, { path, by, pre }) || added;
      }
      try {
        if (added) await this.save();
      } catch (error) {
        return `the checkpoint record could not be written in ${this.dir} (${systemErrorMeaning(error) ?? describeError(error)})`;
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
      for (const f of found) added = this.records.add(turn, { path: f.path, by, pre: f.pre }) || added;
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
      for (const turn of this.records.sortedTurns()) {
        const changes: FileChange[] = [];
        for (const rec of this.records.of(turn)) {
          const next = this.records.earliest(turn + 1, rec.path);
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
      const rec = canon === null ? undefined : this.records.earliest(turn, canon);
      if (!rec || rec.pre.state === "too-large") return undefined;
      if (rec.pre.state === "absent") return null;
      return (await this.blobs.get(rec.pre.sha)) ?? undefined;
    });
  }

  /** Contract: never rejects; a file that cannot be put back is listed in `skipped` and the others still are. */
  rewind(turn: number): Promise<RewindResult> {
    const empty: RewindResult = { restored: [], removed: [], skipped: [] };
    return this.serial("rewind", empty, async () => this.restore(this.records.since(turn)));
  }

  revertFile(turn: number, path: string): Promise<"restored" | "removed" | { skipped: string }> {
    return this.serial("revertFile", { skipped: "checkpoints unavailable (see the log)" }, async () => {
      const canon = await this.canonical(path);
      const rec = canon === null ? undefined : this.records.earliest(turn, canon);
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
      if (!this.records.forgetFrom(turn)) return;
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
    await this.records.load(this.dir);
  }

  private async save(): Promise<void> {
    await this.ensureDir();
    await this.records.save(this.dir);
  }

  private async ensureDir(): Promise<void> {
    if (this.dirReady) return;
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await fs.mkdir(join(this.dir, "blobs"), { recursive: true, mode: 0o700 });
    this.dirReady = true;
  }

  /** The blobs the manifest or the snapshot names. */
  private inUse(): Set<string> {
    const keep = this.records.keptShas(new Set<string>());
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

  /** Puts the records' files back (checkpoint-restore.ts), inside the roots only. */
  private restore(recs: Rec[]): Promise<RewindResult> {
    return restoreRecords(recs, { inRoots: (path) => this.inRoots(path), blobs: this.blobs });
  }
}

async function exists(path: string): Promise<boolean> {
  return fs.lstat(fsPath(path)).then(
    () => true,
    () => false,
  );
}

/** Writing to the checkpoint store failed (not reading the file it was to keep). */
class StoreError extends Error {
  constructor(cause: unknown) {
    super("checkpoint store write failed", { cause });
  }
}
