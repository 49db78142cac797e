// The checkpoint records: for each turn, the state each file it changed had before it (the first
// record of a path in a turn wins), kept in manifest.json beside the blobs, read and written whole.
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { log } from "../config/log.js";
import * as z from "../protocol/zod.js";
import { atomicWriteFile } from "../tools/fs-atomic.js";
import { errorCode } from "./checkpoint-blobs.js";
import type { Cached } from "./checkpoint-snapshot.js";

export const Pre = z.discriminatedUnion("state", [
  /** `dirsFrom`: the topmost parent directory that did not exist either, removed again if empty. */
  z.object({ state: z.literal("absent"), dirsFrom: z.optional(z.string()) }),
  z.object({ state: z.literal("kept"), sha: z.string().check(z.regex(/^[0-9a-f]{64}$/)), mode: z.number() }),
  z.object({ state: z.literal("too-large"), why: z.string() }),
]);
export type Pre = z.infer<typeof Pre>;

const RecordSchema = z.object({ path: z.string(), by: z.string(), pre: Pre });
export type Rec = z.infer<typeof RecordSchema>;

/** manifest.json; blobs/<sha256> holds the content the `kept` records name. */
const ManifestSchema = z.object({
  version: z.literal(1),
  turns: z.array(z.object({ turn: z.number(), records: z.array(RecordSchema) })),
});

/** A snapshot's entry for a file as a record's pre-state. */
export function preOf(old: Cached): Pre {
  return old.sha
    ? { state: "kept", sha: old.sha, mode: old.mode }
    : { state: "too-large", why: old.why ?? "content not kept" };
}

/** The records of every turn, by turn and path. Contract: no I/O but `load` and `save`. */
export class TurnRecords {
  private byTurn = new Map<number, Map<string, Rec>>();

  /** Whether `turn` has a record for `path` already. */
  has(turn: number, path: string): boolean {
    return this.byTurn.get(turn)?.has(path) ?? false;
  }

  /** Adds a record unless the turn has one for the path (the first one is the pre-turn state). */
  add(turn: number, rec: Rec): boolean {
    let map = this.byTurn.get(turn);
    if (!map) this.byTurn.set(turn, (map = new Map()));
    if (map.has(rec.path)) return false;
    map.set(rec.path, rec);
    return true;
  }

  sortedTurns(): number[] {
    return [...this.byTurn.keys()].sort((a, b) => a - b);
  }

  /** The records of one turn, in the order they were made. */
  of(turn: number): Iterable<Rec> {
    return this.byTurn.get(turn)?.values() ?? [];
  }

  /** The record holding `path`'s state before `turn`: the earliest at or after it. */
  earliest(turn: number, path: string): Rec | undefined {
    for (const t of this.sortedTurns()) {
      if (t < turn) continue;
      const rec = this.byTurn.get(t)?.get(path);
      if (rec) return rec;
    }
    return undefined;
  }

  /** What a rewind to `turn` puts back: for each path changed from `turn` on, its earliest record. */
  since(turn: number): Rec[] {
    const targets = new Map<string, Rec>();
    for (const t of this.sortedTurns().reverse()) {
      if (t < turn) break;
      for (const [path, rec] of this.byTurn.get(t) ?? []) targets.set(path, rec);
    }
    return [...targets.values()];
  }

  /** Forgets turns >= `turn`; false when there were none. */
  forgetFrom(turn: number): boolean {
    const before = this.byTurn.size;
    for (const t of [...this.byTurn.keys()]) if (t >= turn) this.byTurn.delete(t);
    return this.byTurn.size !== before;
  }

  /** Adds the blobs the records name to `keep`. */
  keptShas(keep: Set<string>): Set<string> {
    for (const map of this.byTurn.values())
      for (const rec of map.values()) if (rec.pre.state === "kept") keep.add(rec.pre.sha);
    return keep;
  }

  /**
   * Adds the records of `dir`/manifest.json. A missing one is no records; one that is not a
   * manifest is moved aside (logged), so the next save does not build on it.
   */
  async load(dir: string): Promise<void> {
    const file = join(dir, "manifest.json");
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

  /** Writes every record to `dir`/manifest.json (atomically, mode 600); `dir` must exist. */
  async save(dir: string): Promise<void> {
    const turns = this.sortedTurns().map((turn) => ({ turn, records: [...this.of(turn)] }));
    await atomicWriteFile(join(dir, "manifest.json"), `${JSON.stringify({ version: 1, turns })}\n`, 0o600);
  }
}
