// The task list across runs: a small index (~/.nanohermes/tasks.json) of sessions with their
// titles, so the UI can list earlier tasks at start without reading every session file.
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { redact } from "../config/log.js";
import * as z from "../protocol/zod.js";
import { atomicWriteFile } from "../tools/fs-atomic.js";
import { withFileLock } from "../memory/file-lock.js";
import { byCodeUnit } from "../protocol/order.js";

const EntrySchema = z.object({
  id: z.string(),
  sessionFile: z.string(),
  title: z.string(),
  pinned: z.boolean(),
  workspace: z.string(),
  updatedAt: z.string(),
  /** Tokens the task used so far, so a task listed again at start shows them before it is loaded. */
  usage: z.optional(z.object({ prompt: z.int().check(z.nonnegative()), completion: z.int().check(z.nonnegative()) })),
  /** A `-p` run nobody asked to keep: /resume lists it, the UI's task list does not. */
  oneShot: z.optional(z.boolean()),
});
const IndexSchema = z.array(EntrySchema);

export type TaskIndexEntry = z.infer<typeof EntrySchema>;

export const MAX_INDEXED_TASKS = 200;

export const taskIndexPath = (home: string) => join(home, "tasks.json");

/** Contract: never throws; a missing or damaged index reads as empty. */
export async function readTaskIndex(home: string): Promise<TaskIndexEntry[]> {
  try {
    const parsed = IndexSchema.safeParse(JSON.parse(await fs.readFile(taskIndexPath(home), "utf8")));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/**
 * The earlier tasks the UI lists for `workspace`, newest first, at most `max`: no one-shot run
 * nobody kept, and one task per title, so a prompt run three times is listed once (the others stay
 * in /resume and `nanohermes sessions`). A pinned task is always listed.
 */
export function listedTasks(entries: TaskIndexEntry[], workspace: string, max = 50): TaskIndexEntry[] {
  const seen = new Set<string>();
  const out: TaskIndexEntry[] = [];
  for (const e of [...entries].sort((a, b) => byCodeUnit(b.updatedAt, a.updatedAt))) {
    if (e.workspace !== workspace || e.oneShot) continue;
    if (!e.pinned && seen.has(e.title)) continue;
    seen.add(e.title);
    out.push(e);
    if (out.length >= max) break;
  }
  return out;
}

/** Updates from this process, by home, one after another in call order (the lock alone is not fair). */
const queues = new Map<string, Promise<unknown>>();

/**
 * Applies `change` to the index on disk: read, modify, atomic write, under a lock file
 * (`tasks.json.lock`), so processes starting sessions at the same time all keep their entries;
 * updates from one process apply in the order they were asked for. Rejects when the lock cannot
 * be had (a live holder past the wait, an unwritable home).
 */
export function updateTaskIndex(home: string, change: (entries: TaskIndexEntry[]) => TaskIndexEntry[]): Promise<void> {
  const run = async () => {
    await fs.mkdir(home, { recursive: true });
    await withFileLock(`${taskIndexPath(home)}.lock`, async () => {
      // Titles come from prompts: a secret typed into one must not land here either.
      const next = change(await readTaskIndex(home))
        .map((e) => ({ ...e, title: redact(e.title) }))
        .sort((a, b) => byCodeUnit(b.updatedAt, a.updatedAt))
        .slice(0, MAX_INDEXED_TASKS);
      await atomicWriteFile(taskIndexPath(home), JSON.stringify(next, null, 1));
    });
  };
  const previous = queues.get(home) ?? Promise.resolve();
  const next = previous.then(run, run);
  const settled = next.catch(() => {});
  queues.set(home, settled);
  void settled.then(() => {
    if (queues.get(home) === settled) queues.delete(home);
  });
  return next;
}

/** Settles once this process's index updates for `home` so far are written (or failed): before an exit. */
export function taskIndexWritten(home: string): Promise<void> {
  return (queues.get(home) ?? Promise.resolve()).then(() => {});
}
