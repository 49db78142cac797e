// Which directories changed since the last checkpoint walk, told by the kernel (inotify, through one
// fs.watch per directory): the next walk lists and stats only those and reuses the rest, so a command
// in a big workspace no longer pays two full stat walks. Any doubt (a watch that cannot be set, an
// error, every Nth walk) means a full walk.
import { watch, type FSWatcher } from "node:fs";
import { fsPath } from "../fs/byte-names.js";

/** A full walk every this many walks anyway: writes that inotify does not see (another hard link, mmap). */
const FULL_WALK_EVERY = 20;
/** Directories watched at most; a bigger tree gets full walks. */
const MAX_WATCHED = 20_000;

export class DirWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private dirty = new Set<string>();
  private healthy = true;
  private walks = 0;

  /**
   * Contract: call at the start of a walk. Returns whether the previous walk's listings may be
   * reused for directories `isDirty` does not name; it lets the kernel's pending events in first.
   */
  async begin(): Promise<boolean> {
    // Events of writes that happened before now (a command that just exited) are read by the event loop's poll.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setImmediate(resolve));
    this.walks++;
    return this.healthy && this.watchers.size > 0 && this.walks % FULL_WALK_EVERY !== 0;
  }

  /** Whether `dir` may have changed since it was last listed (events arriving during a walk count too). */
  isDirty(dir: string): boolean {
    return !this.healthy || this.dirty.has(dir) || !this.watchers.has(dir);
  }

  /** Called just before `dir` is listed: watched from now on, and clean until its next event. */
  willList(dir: string): void {
    this.watch(dir);
    this.dirty.delete(dir);
  }

  private watch(dir: string): void {
    if (!this.healthy || this.watchers.has(dir)) return;
    if (this.watchers.size >= MAX_WATCHED) return this.fail();
    try {
      const w = watch(fsPath(dir), { persistent: false }, () => this.dirty.add(dir));
      w.on("error", () => this.fail());
      this.watchers.set(dir, w);
    } catch {
      this.fail();
    }
  }

  /** Contract: call after a walk with the directories it entered: the others are no longer watched. */
  end(seen: ReadonlySet<string>): void {
    for (const [dir, w] of this.watchers) {
      if (seen.has(dir)) continue;
      w.close();
      this.watchers.delete(dir);
      this.dirty.delete(dir);
    }
  }

  close(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.dirty.clear();
  }

  private fail(): void {
    this.healthy = false;
    this.close();
  }
}
