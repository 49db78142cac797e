// SessionStore on one machine: today's session files (written atomically) and the SQLite search
// index over them (src/session/search.ts), opened on the first search.
import { promises as fs } from "node:fs";
import { basename, join } from "node:path";
import { SessionIndex } from "../../session/search.js";
import { sessionFileFor, writeSessionText } from "../../session/store.js";
import type { SessionSearchHit, SessionStore, SessionSummary } from "./contract.js";
import { parseSessionText } from "./session-text.js";

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export class EmbeddedSessionStore implements SessionStore {
  readonly kind = "embedded" as const;
  private index: Promise<SessionIndex> | null = null;
  private readonly seqs = new Map<string, number>();

  constructor(
    private readonly dir: string,
    /** The search index's file (outside `dir`: that folder holds only sessions). */
    private readonly indexFile: string,
  ) {}

  private file(id: string): string {
    if (!ID.test(id)) throw new Error(`invalid session id "${id}"`);
    return sessionFileFor(this.dir, id);
  }

  async load(id: string): Promise<string | null> {
    return fs.readFile(this.file(id), "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
  }

  async loadAt(id: string): Promise<{ text: string; eventsSeq: number | null } | null> {
    const text = await this.load(id);
    return text === null ? null : { text, eventsSeq: this.seqs.get(id) ?? null };
  }

  async saveStep(id: string, text: string, eventsSeq?: number): Promise<void> {
    parseSessionText(text);
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeSessionText(this.file(id), text);
    // The in-process fan-out's seqs mean nothing to a later process: kept in memory only.
    if (eventsSeq === undefined) this.seqs.delete(id);
    else this.seqs.set(id, eventsSeq);
  }

  async list(): Promise<SessionSummary[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    const summaries = await Promise.all(
      names
        .filter((name) => name.endsWith(".json") && ID.test(name.slice(0, -5)))
        .map(async (name): Promise<SessionSummary | null> => {
          const text = await fs.readFile(join(this.dir, name), "utf8").catch(() => null);
          if (text === null) return null;
          try {
            const parsed = parseSessionText(text);
            const updatedAt = (JSON.parse(text) as { updatedAt?: unknown }).updatedAt;
            return {
              id: name.slice(0, -5),
              title: parsed.title,
              updatedAt: typeof updatedAt === "string" ? updatedAt : new Date(0).toISOString(),
              messages: parsed.messages,
            };
          } catch {
            return null;
          }
        }),
    );
    return summaries
      .filter((s): s is SessionSummary => s !== null)
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id < b.id ? -1 : 1));
  }

  async search(query: string, limit = 20): Promise<SessionSearchHit[]> {
    this.index ??= SessionIndex.open(this.indexFile);
    const index = await this.index;
    await index.sync(this.dir);
    return index.search(query, { limit }).map((hit) => ({ id: basename(hit.file, ".json"), snippet: hit.snippet }));
  }

  async remove(id: string): Promise<boolean> {
    this.seqs.delete(id);
    return fs.unlink(this.file(id)).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return false;
        throw error;
      },
    );
  }

  async close(): Promise<void> {
    if (this.index) (await this.index.catch(() => null))?.close();
  }
}
