// The engine's session index, memory store and file checkpoints, adapted to what the /resume
// picker, the /memory dialog and the Turns tab ask for (../state/data-sources.ts). Only the
// composition root (runtime.ts) builds these.
import { basename, join } from "node:path";
import type { Settings } from "../../config/schema.js";
import type { MemoryEntry, MemoryStore } from "../../memory/store.js";
import { MEMORY_BLOCK_START, memoryKinds, type MemoryKind } from "../../memory/markers.js";
import type { SessionIndex } from "../../session/search.js";
import { readTaskIndex } from "../../session/task-index.js";
import type { CheckpointSource, MemoryRow, MemorySource, SessionRow, SessionSource } from "../state/data-sources.js";
import { byCodeUnit } from "../../protocol/order.js";

/** Search hits the picker lists at most. */
const SEARCH_LIMIT = 50;
/** A search re-reads changed session files when the last sync is older than this. */
const SYNC_EVERY_MS = 2_000;

const newestFirst = <T extends { updatedAt: string }>(rows: T[]): T[] =>
  rows.slice().sort((a, b) => byCodeUnit(b.updatedAt, a.updatedAt));

/**
 * Contract: `ready` resolves once the earlier tasks of the index were added to the task manager,
 * so a row the picker shows has its task (when it has one) by the time it can be opened.
 */
export function sessionSource(settings: Settings, ready: Promise<unknown>): SessionSource {
  let index: Promise<SessionIndex> | null = null;
  let synced: { at: number; done: Promise<unknown> } | null = null;
  // SQLite and the index code load on the first search, not with the program.
  const open = () =>
    (index ??= import("../../session/search.js").then(({ SessionIndex }) =>
      SessionIndex.open(join(settings.home, "sessions.db")),
    ));
  const sync = () => {
    if (!synced || Date.now() - synced.at > SYNC_EVERY_MS) {
      const done = open().then((i) => i.sync(settings.sessionDir));
      synced = { at: Date.now(), done };
      // A failed sync is tried again by the next search.
      done.catch(() => (synced = null));
    }
    return synced.done;
  };
  return {
    async list(all) {
      await ready;
      // The picker is open: bring the search index up to date meanwhile.
      void sync().catch(() => {});
      const entries = (await readTaskIndex(settings.home)).filter((e) => all || e.workspace === settings.workspace);
      return newestFirst(entries).map((e) => ({
        file: e.sessionFile,
        sessionId: basename(e.sessionFile).replace(/\.json$/, ""),
        title: e.title,
        workspace: e.workspace,
        updatedAt: e.updatedAt,
        taskId: e.id,
      }));
    },
    async search(query, all) {
      await ready;
      await sync();
      const hits = (await open()).search(query, {
        ...(all ? {} : { workspace: settings.workspace }),
        limit: SEARCH_LIMIT,
      });
      // A session file without a title is named after its first user message, which is the
      // engine's memory block when memory is on: the task index's title is the better name.
      const listed = new Map((await readTaskIndex(settings.home)).map((e) => [e.sessionFile, e]));
      const titleOf = (file: string, title: string) =>
        listed.get(file)?.title ?? (title.startsWith(MEMORY_BLOCK_START) ? "(untitled)" : title);
      return hits.map((h): SessionRow => {
        const taskId = listed.get(h.file)?.id;
        return {
          file: h.file,
          sessionId: h.sessionId,
          title: titleOf(h.file, h.title),
          workspace: h.workspace,
          updatedAt: h.updatedAt,
          snippet: h.snippet,
          ...(taskId ? { taskId } : {}),
        };
      });
    },
    async lastPrompt(file) {
      const [{ readSessionFile }, { lastPromptOf }] = await Promise.all([
        import("../../session/search.js"),
        import("../../session/history-view.js"),
      ]);
      const data = await readSessionFile(file);
      return data ? lastPromptOf(data) : null;
    },
  };
}

const row = (e: MemoryEntry): MemoryRow => ({
  id: e.id,
  kind: e.kind,
  text: e.text,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
  ...(e.workspace ? { workspace: e.workspace } : {}),
});
const asKind = (kind: string): MemoryKind => {
  if ((memoryKinds as readonly string[]).includes(kind)) return kind as MemoryKind;
  throw new Error(`unknown kind "${kind}"`);
};

/** The memory file the engine uses (settings.home/memory.json); a source that is off with --no-memory. */
export function memorySource(settings: Settings): MemorySource {
  const enabled = settings.memory.enabled;
  // The store loads when the dialog first asks for it, not with the program.
  let store: Promise<MemoryStore> | null = null;
  const need = (): Promise<MemoryStore> => {
    if (!enabled) return Promise.reject(new Error("memory is off (--no-memory)"));
    return (store ??= import("../../memory/store.js").then(
      ({ MemoryStore: Store }) => new Store(join(settings.home, "memory.json")),
    ));
  };
  return {
    enabled,
    kinds: memoryKinds,
    list: async () => newestFirst((await (await need()).list()).map(row)),
    search: async (query) => (await (await need()).search(query, SEARCH_LIMIT)).map((r) => row(r.entry)),
    update: async (id, change) => {
      const entry = await (await need()).update(id, {
        ...(change.kind ? { kind: asKind(change.kind) } : {}),
        ...(change.text !== undefined ? { text: change.text } : {}),
      });
      return entry ? row(entry) : null;
    },
    remove: async (id) => (await need()).remove(id),
    save: async (kind, text) => row((await (await need()).save(asKind(kind), text, settings.workspace)).entry),
  };
}

/**
 * The checkpoint store the engine writes (settings.home/checkpoints/<sessionId>), read-only. A
 * fresh reader per call: a reader loads the manifest once, and the engine keeps changing it.
 */
export function checkpointSource(settings: Settings): CheckpointSource {
  const open = async (sessionId: string) => {
    const { Checkpoints } = await import("../../session/checkpoints.js");
    return new Checkpoints({
      dir: join(settings.home, "checkpoints", sessionId),
      roots: [settings.workspace, ...settings.sandbox.writableRoots],
    });
  };
  return {
    async contentBefore(sessionId, turn, path) {
      const data = await (await open(sessionId)).contentBefore(turn, path);
      return data === null || data === undefined ? data : data.toString("utf8");
    },
    async turns(sessionId) {
      const turns = await (await open(sessionId)).turns();
      return turns.map((t) => ({
        turn: t.turn,
        prompt: "",
        changes: t.changes.map((c) => ({ path: c.path, before: c.before, after: c.after, by: c.by })),
      }));
    },
  };
}
