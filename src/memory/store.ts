// Long-term memory: entries in one JSON file (~/.nanohermes/memory.json) shared by every
// NanoHermes process, de-duplicated on save and searched with BM25.
import { promises as fs } from "node:fs";
import { dirname } from "node:path";
import { redact } from "../config/log.js";
import { randomId } from "../protocol/ids.js";
import * as z from "../protocol/zod.js";
import { atomicWriteFile } from "../tools/fs-atomic.js";
import { Bm25Index } from "./bm25.js";
import { withFileLock, type FileLockOptions } from "./file-lock.js";
import { tokenize } from "./tokenize.js";

import { memoryKinds, type MemoryKind } from "./markers.js";
/** The kinds, as a tuple so zod can enumerate them (defined in markers.ts, which loads nothing). */
export { memoryKinds, type MemoryKind };

/** Added to each entry's terms: Chinese label and English word, so "我之前纠正过什么" finds corrections. */
export const kindLabels: Record<MemoryKind, { zh: string; en: string }> = {
  lesson: { zh: "教训", en: "lesson" },
  preference: { zh: "偏好", en: "preference" },
  correction: { zh: "纠正", en: "correction" },
  fact: { zh: "事实", en: "fact" },
};

export interface MemoryEntry {
  id: string;
  kind: MemoryKind;
  text: string;
  /** ISO times. */
  createdAt: string;
  /** Bumped when the entry is edited or saved again as a duplicate. */
  updatedAt: string;
  /** The workspace the entry was saved from: a hint for the user, not a filter. */
  workspace?: string;
}

/** Characters (UTF-16 code units) per entry: a memory is a note, not a document. */
export const MAX_MEMORY_TEXT = 1_000;

/** Loose: fields a newer version adds survive this version's rewrites. */
const EntrySchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  kind: z.enum(memoryKinds),
  text: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  workspace: z.optional(z.string()),
});

/** The terms of an entry: its text's tokens plus its kind's labels (and the English plural). */
export function entryTerms(kind: MemoryKind, text: string): string[] {
  const label = kindLabels[kind];
  return [...tokenize(text), ...tokenize(`${label.zh} ${label.en}`), `${label.en}s`];
}

/** Two texts are the same memory when they differ only in case, whitespace and punctuation. */
export function sameMemoryKey(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]+/gu, " ")
    .trim();
}

/** The layout this version writes; a file with a higher `version` is read but never rewritten. */
export const MEMORY_VERSION = 1;

/** The file's own fields beside `entries`: its version and any a newer version added (kept). */
interface Head {
  version: number;
  extra: Record<string, unknown>;
}

const PLAIN_HEAD: Head = { version: MEMORY_VERSION, extra: {} };

/** The file as last read: `kept` holds entries this version cannot read, written back unchanged. */
interface Snapshot {
  key: string;
  entries: readonly MemoryEntry[];
  kept: readonly unknown[];
  /** Absent: a file with nothing beside its entries (or none yet). */
  head?: Head;
  /** Set when the file is unusable and could not be set aside: reads see it as empty until it changes. */
  problem?: string;
  index?: { bm25: Bm25Index; byId: Map<string, MemoryEntry> };
}

type Parsed = { entries: MemoryEntry[]; kept: unknown[]; head: Head } | { problem: string };

function parseFile(text: string): Parsed {
  if (text.trim() === "") return { entries: [], kept: [], head: PLAIN_HEAD };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { problem: `not valid JSON (${(error as Error).message})` };
  }
  // A bare array (the seed's layout) is read as well; writes use the versioned object.
  const list = Array.isArray(raw) ? raw : (raw as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(list)) return { problem: 'no "entries" list' };
  const entries: MemoryEntry[] = [];
  const kept: unknown[] = [];
  for (const item of list) {
    const parsed = EntrySchema.safeParse(item);
    if (parsed.success) entries.push(Object.freeze(parsed.data));
    else kept.push(item);
  }
  let head = PLAIN_HEAD;
  if (!Array.isArray(raw)) {
    const { entries: _entries, version, ...extra } = raw as Record<string, unknown>;
    head = { version: typeof version === "number" ? version : MEMORY_VERSION, extra };
  }
  return { entries, kept, head };
}

/**
 * Entries are frozen, so each one's UTF-8 JSON is encoded once and reused by every later write:
 * at 10,000 entries, joining and encoding the whole text took most of a save.
 */
const entryBytes = new WeakMap<MemoryEntry, Buffer>();
const HEAD = Buffer.from(`{"version":${MEMORY_VERSION},"entries":[\n`);
const SEPARATOR = Buffer.from(",\n");
const TAIL = Buffer.from("\n]}\n");

function encodeEntry(entry: MemoryEntry): Buffer {
  let bytes = entryBytes.get(entry);
  if (bytes === undefined) entryBytes.set(entry, (bytes = Buffer.from(JSON.stringify(entry))));
  return bytes;
}

/** The opening of the file: the version, then the fields a newer version added, then `entries`. */
function headBytes(head: Head | undefined): Buffer {
  if (!head || Object.keys(head.extra).length === 0) return HEAD;
  return Buffer.from(`{"version":${MEMORY_VERSION},${JSON.stringify(head.extra).slice(1, -1)},"entries":[\n`);
}

/** One entry per line, for people who grep the file. */
function serialize(entries: readonly MemoryEntry[], kept: readonly unknown[], head?: Head): Buffer {
  const parts: Buffer[] = [headBytes(head)];
  const all = [...entries.map(encodeEntry), ...kept.map((e) => Buffer.from(JSON.stringify(e)))];
  for (const [i, bytes] of all.entries()) {
    if (i > 0) parts.push(SEPARATOR);
    parts.push(bytes);
  }
  parts.push(TAIL);
  return Buffer.concat(parts);
}

const newerMessage = (file: string, version: number) =>
  `memory ${file} was written by a newer NanoHermes (version ${version}); it is read but not changed (memories are not saved until it is updated)`;

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code;
/** Errors that mean the file itself is unusable (set it aside), not that reading failed for now. */
const UNUSABLE = new Set(["EACCES", "EPERM", "EISDIR"]);

function cleanText(text: string): string {
  const clean = redact(text.trim());
  if (clean === "") throw new Error("a memory needs some text");
  if (clean.length > MAX_MEMORY_TEXT)
    throw new Error(`a memory is at most ${MAX_MEMORY_TEXT} characters (this one has ${clean.length})`);
  return clean;
}

export interface MemoryStoreOptions {
  /** The clock for createdAt/updatedAt. */
  now?: () => Date;
  lock?: FileLockOptions;
}

/**
 * Contract: never throws for a bad file. A missing file is an empty memory; an unreadable or
 * corrupt one is renamed to `<file>.corrupt-<time>` (under the lock) and `lastWarning` says so.
 * Reads take no lock and are served from a cache keyed by the file's identity (inode, mtime,
 * size), so repeated searches neither re-read nor re-index. Every mutation takes `<file>.lock`,
 * re-reads the file under it, and writes it atomically with mode 600, so concurrent writers in
 * any number of processes lose nothing. Mutations reject on I/O failure (disk full, lock held).
 * Entries handed out are frozen: they are the cache's own objects.
 */
export class MemoryStore {
  /** Set when the file could not be used as it was; the engine shows it as a notice. */
  lastWarning: string | undefined;
  private snapshot: Snapshot | undefined;
  /** De-duplication keys by text, so a save into a large file normalises only the new text. */
  private dedupeKeys = new Map<string, string>();
  /** Tokens per entry id, so a rebuilt index re-tokenizes only what changed. */
  private terms = new Map<string, { kind: MemoryKind; text: string; tokens: string[] }>();
  /** Mutations from this instance run one at a time (they would only queue on the lock). */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly now: () => Date;

  constructor(
    readonly file: string,
    private readonly options: MemoryStoreOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async list(): Promise<MemoryEntry[]> {
    return [...(await this.read()).entries];
  }

  async save(kind: MemoryKind, text: string, workspace?: string): Promise<{ entry: MemoryEntry; duplicate: boolean }> {
    const clean = cleanText(text);
    const key = sameMemoryKey(clean);
    return this.mutate<{ entry: MemoryEntry; duplicate: boolean }>((entries) => {
      const at = entries.findIndex((e) => this.dedupeKey(e.text) === key);
      const time = this.now().toISOString();
      if (at >= 0) {
        const entry = Object.freeze({ ...entries[at]!, updatedAt: time });
        entries[at] = entry;
        return { result: { entry, duplicate: true } };
      }
      const ids = new Set(entries.map((e) => e.id));
      let id = randomId(8);
      while (ids.has(id)) id = randomId(8);
      const entry: MemoryEntry = Object.freeze({
        id,
        kind,
        text: clean,
        createdAt: time,
        updatedAt: time,
        ...(workspace ? { workspace } : {}),
      });
      entries.push(entry);
      return { result: { entry, duplicate: false } };
    });
  }

  async update(id: string, change: { kind?: MemoryKind; text?: string }): Promise<MemoryEntry | null> {
    const text = change.text === undefined ? undefined : cleanText(change.text);
    return this.mutate((entries) => {
      const at = entries.findIndex((e) => e.id === id);
      if (at < 0) return { result: null, unchanged: true };
      const entry: MemoryEntry = Object.freeze({
        ...entries[at]!,
        ...(change.kind ? { kind: change.kind } : {}),
        ...(text ? { text } : {}),
        updatedAt: this.now().toISOString(),
      });
      entries[at] = entry;
      return { result: entry };
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.mutate((entries) => {
      const at = entries.findIndex((e) => e.id === id);
      if (at < 0) return { result: false, unchanged: true };
      entries.splice(at, 1);
      return { result: true };
    });
  }

  /** The best `k` entries for the query by BM25, best first; entries sharing no term are left out. */
  async search(query: string, k = 5): Promise<{ entry: MemoryEntry; score: number }[]> {
    const tokens = tokenize(query);
    if (tokens.length === 0 || k <= 0) return [];
    const snapshot = await this.read();
    if (snapshot.entries.length === 0) return [];
    const index = (snapshot.index ??= this.buildIndex(snapshot.entries));
    return index.bm25.search(tokens, k).map((hit) => ({ entry: index.byId.get(hit.id)!, score: hit.score }));
  }

  private dedupeKey(text: string): string {
    let key = this.dedupeKeys.get(text);
    if (key === undefined) {
      // A bound, not an eviction policy: texts of deleted entries would otherwise pile up.
      if (this.dedupeKeys.size > 50_000) this.dedupeKeys.clear();
      this.dedupeKeys.set(text, (key = sameMemoryKey(text)));
    }
    return key;
  }

  private buildIndex(entries: readonly MemoryEntry[]): NonNullable<Snapshot["index"]> {
    const terms = new Map<string, { kind: MemoryKind; text: string; tokens: string[] }>();
    const docs = entries.map((e) => {
      let cached = this.terms.get(e.id);
      if (!cached || cached.kind !== e.kind || cached.text !== e.text)
        cached = { kind: e.kind, text: e.text, tokens: entryTerms(e.kind, e.text) };
      terms.set(e.id, cached);
      return { id: e.id, tokens: cached.tokens };
    });
    this.terms = terms;
    return { bm25: new Bm25Index(docs), byId: new Map(entries.map((e) => [e.id, e])) };
  }

  private lockPath(): string {
    return `${this.file}.lock`;
  }

  /** The file's identity: a rename gives a new inode, a rewrite a new mtime (nanoseconds) or size. */
  private async identity(): Promise<string | null> {
    try {
      const st = await fs.stat(this.file, { bigint: true });
      return `${st.ino}:${st.mtimeNs}:${st.size}`;
    } catch (error) {
      if (errno(error) === "ENOENT") return null;
      throw error;
    }
  }

  /**
   * The current entries. `strict` (under the lock) rejects on a read failure that may be passing,
   * so a mutation never overwrites a file it could not read; otherwise such a failure reads as
   * empty with a warning.
   */
  private async read(strict = false): Promise<Snapshot> {
    let key: string | null = null;
    let parsed: Parsed;
    try {
      key = await this.identity();
      if (key === null) return (this.snapshot = { key: "missing", entries: [], kept: [] });
      // Under the lock an unusable file is never taken as empty: it is set aside first.
      if (this.snapshot?.key === key && !(strict && this.snapshot.problem)) return this.snapshot;
      const handle = await fs.open(this.file, "r");
      try {
        const st = await handle.stat({ bigint: true });
        key = `${st.ino}:${st.mtimeNs}:${st.size}`;
        parsed = parseFile(await handle.readFile("utf8"));
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (errno(error) === "ENOENT") return (this.snapshot = { key: "missing", entries: [], kept: [] });
      if (!UNUSABLE.has(errno(error) ?? "")) {
        if (strict) throw error;
        this.lastWarning = `cannot read memory ${this.file} (${(error as Error).message})`;
        return { key: "unreadable", entries: [], kept: [] };
      }
      parsed = { problem: (error as Error).message };
    }
    if ("problem" in parsed) {
      if (strict) {
        if (!(await this.setAside(parsed.problem, key)))
          throw new Error(`memory ${this.file} changed while locked; not overwriting it`);
      } else if (!(await this.setAsideLocked(parsed.problem, key)) && key !== null) {
        return (this.snapshot = { key, entries: [], kept: [], problem: parsed.problem });
      }
      return (this.snapshot = { key: "missing", entries: [], kept: [] });
    }
    if (parsed.kept.length > 0)
      this.lastWarning = `memory ${this.file}: ${parsed.kept.length} entries could not be read; they are kept in the file unchanged`;
    if (parsed.head.version > MEMORY_VERSION) this.lastWarning = newerMessage(this.file, parsed.head.version);
    return (this.snapshot = { key: key ?? "unknown", entries: parsed.entries, kept: parsed.kept, head: parsed.head });
  }

  /**
   * From a lock-free read: set the file aside under the lock, unless a writer replaced it
   * meanwhile. False when that failed (the lock is held, the directory is read-only).
   */
  private async setAsideLocked(problem: string, key: string | null): Promise<boolean> {
    try {
      await withFileLock(this.lockPath(), () => this.setAside(problem, key), this.options.lock);
      // Not moved means a writer replaced the file meanwhile: the next read sees the new one.
      return true;
    } catch (error) {
      this.lastWarning = `memory ${this.file} is unreadable (${problem}) and could not be set aside (${(error as Error).message})`;
      return false;
    }
  }

  /** Under the lock: false when the file is no longer the one found unusable. */
  private async setAside(problem: string, key: string | null): Promise<boolean> {
    if (key !== null && (await this.identity().catch(() => null)) !== key) return false;
    const movedTo = `${this.file}.corrupt-${Date.now()}`;
    await fs.rename(this.file, movedTo);
    this.lastWarning = `memory ${this.file} was unreadable (${problem}); it was kept as ${movedTo} and memory starts empty`;
    return true;
  }

  /**
   * Contract: `change` edits a private copy of the entries read under the lock and says what to
   * return; the file is rewritten unless it reports `unchanged`.
   */
  private mutate<R>(change: (entries: MemoryEntry[]) => { result: R; unchanged?: boolean }): Promise<R> {
    const run = async () => {
      await fs.mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      return withFileLock(
        this.lockPath(),
        async () => {
          const current = await this.read(true);
          // Rewriting a newer file would drop what this version does not know: read-only.
          if (current.head && current.head.version > MEMORY_VERSION)
            throw new Error(newerMessage(this.file, current.head.version));
          const entries = [...current.entries];
          const { result, unchanged } = change(entries);
          if (unchanged) return result;
          await atomicWriteFile(this.file, serialize(entries, current.kept, current.head), 0o600);
          const key = await this.identity();
          if (key !== null)
            this.snapshot = { key, entries, kept: current.kept, ...(current.head ? { head: current.head } : {}) };
          return result;
        },
        this.options.lock,
      );
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }
}
