// Search across past sessions: an SQLite FTS5 index of every session's messages (a cache, rebuilt
// from the session files at will), and the session_search tool that lets the model use it.
import { promises as fs, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { log, redact } from "../config/log.js";
import type { ChatMessage } from "../protocol/messages.js";
import {
  compileQuery,
  cjkColumn,
  cjkWindow,
  finishSnippet,
  MARK_CLOSE,
  MARK_OPEN,
  messageText,
  textColumn,
} from "./search-text.js";
import { unpackHistory } from "./history-refs.js";
import { historyOf } from "./history-view.js";
import { SessionFileSchema, type SessionData } from "./store.js";
import { byCodeUnit } from "../protocol/order.js";

export interface SessionHit {
  sessionId: string;
  /** The session file, absolute. */
  file: string;
  title: string;
  workspace: string;
  updatedAt: string;
  /** About 160 characters around the match on one line, the matched words in [ ]. */
  snippet: string;
  /** Higher is better: the best message's bm25, raised a little for each further matching message. */
  score: number;
  /** The role of the best matching message. */
  role: string;
}

export interface SearchOptions {
  /** Only sessions of this workspace (compared as a resolved path). */
  workspace?: string;
  /** At most this many hits (default 20). */
  limit?: number;
}

/** Bumped whenever what is indexed changes: an index of another version is rebuilt. */
const SCHEMA_VERSION = 1;
/**
 * FTS rowids are `sessionKey << 20 | slot`, slot = the message's position: its session is
 * `rowid >> 20`. Slots below ARCHIVE_SLOTS hold archived (folded) messages, the rest the session
 * file's own messages, so re-reading the file keeps what only the engine had. The sessions table
 * counts the slots each part used: rows are deleted one rowid at a time, because FTS5 answers a
 * rowid range by scanning the whole table (4 ms at 20,000 rows, per session).
 */
const SLOT_BITS = 20;
const ARCHIVE_SLOTS = 1 << (SLOT_BITS - 1);
const LIVE_SLOTS = (1 << SLOT_BITS) - ARCHIVE_SLOTS;
/** Sessions read from disk in parallel, and written in one transaction, per sync step. */
const SYNC_BATCH = 50;
/** How long a writer waits for another process's transaction before giving up. */
const BUSY_TIMEOUT_MS = 10_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  key INTEGER PRIMARY KEY,
  file TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL,
  title TEXT NOT NULL,
  workspace TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  mtime_ms REAL NOT NULL,
  size INTEGER NOT NULL,
  readable INTEGER NOT NULL,
  live_slots INTEGER NOT NULL DEFAULT 0,
  archive_slots INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sessions_workspace ON sessions(workspace);
-- porter: "tests" finds "test", "failing" finds "failed"; remove_diacritics: "cafe" finds "café".
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(text, cjk, role UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2');
`;

interface SessionRow {
  key: number;
  file: string;
  mtime_ms: number;
  size: number;
  live_slots: number;
  archive_slots: number;
}

interface GroupRow {
  file: string;
  session_id: string;
  title: string;
  workspace: string;
  updated_at: string;
  best_rowid: number;
  best: number;
  n: number;
}

/** A session file's identity on disk: when it changes, the file is read again. */
interface Stamp {
  mtimeMs: number;
  size: number;
}

const NO_STAMP: Stamp = { mtimeMs: 0, size: -1 };

function titleOf(data: SessionData): string {
  if (data.title?.trim()) return data.title.trim();
  // The first prompt the user typed (the typed history tells it from the memory blocks the engine placed).
  const first = historyOf(data).find((it) => it.type === "user");
  const line = first?.type === "user" ? first.text.trim().split("\n", 1)[0]! : "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line || "(untitled)";
}

/**
 * Reads a session file without side effects (loadSession sets a bad file aside and starts anew).
 * Contract: never throws; null for a missing, unreadable or invalid file.
 */
export async function readSessionFile(file: string): Promise<SessionData | null> {
  try {
    const raw: unknown = JSON.parse(await fs.readFile(file, "utf8"));
    const id = basename(file).replace(/\.json$/, "");
    const candidate = Array.isArray(raw)
      ? { version: 1, id, createdAt: "", updatedAt: "", workspace: "", model: "", messages: raw }
      : raw;
    // Items that name the message holding their text get it back first (history-refs.ts).
    const record = candidate as Record<string, unknown>;
    const parsed = SessionFileSchema.safeParse(
      record.transcript === undefined
        ? candidate
        : { ...record, transcript: unpackHistory(record.transcript, record.archive, record.messages) },
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function prepare(db: BetterSqlite3.Database) {
  return {
    session: db.prepare<[string], SessionRow>(
      "SELECT key, file, mtime_ms, size, live_slots, archive_slots FROM sessions WHERE file = ?",
    ),
    allSessions: db.prepare<[], SessionRow>(
      "SELECT key, file, mtime_ms, size, live_slots, archive_slots FROM sessions",
    ),
    upsert: db.prepare(
      `INSERT INTO sessions (file, session_id, title, workspace, updated_at, mtime_ms, size, readable) VALUES (@file, @sessionId, @title, @workspace, @updatedAt, @mtimeMs, @size, @readable)
       ON CONFLICT(file) DO UPDATE SET session_id = excluded.session_id, title = excluded.title, workspace = excluded.workspace, updated_at = excluded.updated_at, mtime_ms = excluded.mtime_ms, size = excluded.size, readable = excluded.readable
       RETURNING key`,
    ),
    deleteRow: db.prepare<[number]>("DELETE FROM messages_fts WHERE rowid = ?"),
    setSlots: db.prepare<[number, number, number]>(
      "UPDATE sessions SET live_slots = ?, archive_slots = ? WHERE key = ?",
    ),
    deleteSession: db.prepare<[string]>("DELETE FROM sessions WHERE file = ?"),
    insertRow: db.prepare<[number, string, string, string]>(
      "INSERT INTO messages_fts (rowid, text, cjk, role) VALUES (?, ?, ?, ?)",
    ),
    total: db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sessions WHERE readable = 1"),
    groups: db.prepare<[string, string | null, string | null], GroupRow>(
      // MATERIALIZED: bm25() only works in the query that does the MATCH, not inside min().
      `WITH m AS MATERIALIZED (SELECT rowid AS id, bm25(messages_fts) AS r FROM messages_fts WHERE messages_fts MATCH ?),
       g AS (SELECT id >> ${SLOT_BITS} AS key, id AS best_rowid, min(r) AS best, count(*) AS n FROM m GROUP BY key)
       SELECT s.file, s.session_id, s.title, s.workspace, s.updated_at, g.best_rowid, g.best, g.n
       FROM g JOIN sessions AS s ON s.key = g.key
       WHERE ? IS NULL OR s.workspace = ?`,
    ),
    snippet: db.prepare<[string, number], { role: string; text: string; snip: string }>(
      `SELECT role, text, snippet(messages_fts, 0, '${MARK_OPEN}', '${MARK_CLOSE}', '…', 24) AS snip FROM messages_fts WHERE messages_fts MATCH ? AND rowid = ?`,
    ),
  };
}

export class SessionIndex {
  private readonly statements: ReturnType<typeof prepare>;

  private constructor(private readonly db: BetterSqlite3.Database) {
    this.statements = prepare(db);
  }

  /**
   * Opens (creating) the index at `dbFile`. better-sqlite3 is imported here, not at start-up.
   * Contract: a file that is not a usable database is set aside (`.corrupt-<time>`) and a new
   * index is built: it is a cache of the session files.
   */
  static async open(dbFile: string): Promise<SessionIndex> {
    const { default: Database } = await import("better-sqlite3");
    await fs.mkdir(dirname(dbFile), { recursive: true, mode: 0o700 });
    const connect = () => {
      const db = new Database(dbFile, { timeout: BUSY_TIMEOUT_MS });
      try {
        db.pragma("journal_mode = WAL");
        // A lost tail after a power cut only means re-indexing a few sessions.
        db.pragma("synchronous = NORMAL");
        db.transaction(() => {
          const version = db.pragma("user_version", { simple: true }) as number;
          if (version !== SCHEMA_VERSION && version !== 0)
            db.exec("DROP TABLE IF EXISTS messages_fts; DROP TABLE IF EXISTS sessions;");
          db.exec(SCHEMA);
          db.pragma(`user_version = ${SCHEMA_VERSION}`);
        }).immediate();
        return new SessionIndex(db);
      } catch (error) {
        db.close();
        throw error;
      }
    };
    try {
      return connect();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== "SQLITE_NOTADB" && code !== "SQLITE_CORRUPT") throw error;
      log("warn", `session index ${dbFile} is damaged; rebuilding it`, error);
      const aside = `${dbFile}.corrupt-${Date.now()}`;
      // Another process may have set it aside first.
      await fs.rename(dbFile, aside).catch(() => {});
      for (const suffix of ["-wal", "-shm"]) await fs.rm(dbFile + suffix, { force: true });
      return connect();
    }
  }

  /**
   * (Re)indexes one session: every message but the system prompt (tool results cut to 2,000
   * chars), secrets redacted. `extra` holds messages no longer in the file (folded by compaction):
   * given, it replaces the archived rows; left out, earlier archived rows stay.
   */
  indexSession(file: string, data: SessionData, extra?: ChatMessage[]): void {
    const path = resolve(file);
    let stamp = NO_STAMP;
    try {
      const st = statSync(path);
      stamp = { mtimeMs: st.mtimeMs, size: st.size };
    } catch {
      // Not on disk (yet): the next sync reads it when it appears.
    }
    this.db.transaction(() => this.write(path, data, stamp, extra)).immediate();
  }

  /** Drops a session and all its rows. */
  removeSession(file: string): void {
    const path = resolve(file);
    this.db.transaction(() => this.drop(path)).immediate();
  }

  search(query: string, opts: SearchOptions = {}): SessionHit[] {
    const compiled = compileQuery(query);
    const limit = Math.max(1, Math.floor(opts.limit ?? 20));
    if (!compiled) return [];
    const workspace = opts.workspace === undefined ? null : resolve(opts.workspace);
    const groups = this.statements.groups.all(compiled.match, workspace, workspace);
    const ranked = groups
      // bm25() is negative, smaller is better; each further matching message adds a little.
      .map((g) => ({ g, score: -g.best * (1 + Math.log(g.n) / 2) }))
      .sort((a, b) => b.score - a.score || byCodeUnit(b.g.updated_at, a.g.updated_at))
      .slice(0, limit);
    return ranked.map(({ g, score }) => {
      const row = this.statements.snippet.get(compiled.match, g.best_rowid);
      const raw = row ? (compiled.hasText ? row.snip : cjkWindow(row.text, compiled.cjk)) : "";
      return {
        sessionId: g.session_id,
        file: g.file,
        title: g.title,
        workspace: g.workspace,
        updatedAt: g.updated_at,
        snippet: finishSnippet(raw, compiled.cjk),
        score,
        role: row?.role ?? "",
      };
    });
  }

  /**
   * Brings the index up to date with `sessionDir`: reads the `*.json` files whose mtime or size
   * changed, drops the sessions of files that are gone. Unreadable files are remembered (so they
   * are not read again until they change) but have no rows. Cheap when nothing changed: one
   * readdir, one stat per file. `total` counts the readable sessions in the whole index.
   */
  async sync(sessionDir: string): Promise<{ indexed: number; removed: number; total: number }> {
    const dir = resolve(sessionDir);
    let names: string[] = [];
    try {
      names = (await fs.readdir(dir)).filter((n) => n.endsWith(".json") && !n.startsWith("."));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const known = new Map(this.statements.allSessions.all().map((r) => [r.file, r]));
    const onDisk = new Set(names.map((n) => join(dir, n)));
    const gone = [...known.keys()].filter((f) => dirname(f) === dir && !onDisk.has(f));
    if (gone.length > 0) this.db.transaction(() => gone.forEach((f) => this.drop(f))).immediate();

    let indexed = 0;
    const files = [...onDisk];
    for (let i = 0; i < files.length; i += SYNC_BATCH) {
      const batch = await Promise.all(
        files.slice(i, i + SYNC_BATCH).map(async (file) => {
          const st = await fs.stat(file).catch(() => null);
          if (!st) return null;
          const row = known.get(file);
          if (row && row.mtime_ms === st.mtimeMs && row.size === st.size) return null;
          return { file, stamp: { mtimeMs: st.mtimeMs, size: st.size }, data: await readSessionFile(file) };
        }),
      );
      const changed = batch.filter((b) => b !== null);
      if (changed.length === 0) continue;
      this.db
        .transaction(() => {
          for (const { file, stamp, data } of changed) this.write(file, data, stamp);
        })
        .immediate();
      indexed += changed.filter((c) => c.data !== null).length;
    }
    return { indexed, removed: gone.length, total: this.statements.total.get()!.n };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Inside a transaction: replaces a session's row and its messages (null data: unreadable). */
  private write(file: string, data: SessionData | null, stamp: Stamp, extra?: ChatMessage[]): void {
    const before = this.statements.session.get(file);
    const { key } = this.statements.upsert.get({
      file,
      sessionId: data?.id ?? basename(file).replace(/\.json$/, ""),
      title: redact(data ? titleOf(data) : ""),
      workspace: data?.workspace ? resolve(data.workspace) : "",
      updatedAt: data?.updatedAt ?? "",
      mtimeMs: stamp.mtimeMs,
      size: stamp.size,
      readable: data ? 1 : 0,
    }) as { key: number };
    const base = key * 2 ** SLOT_BITS;
    const replaceArchive = !data || extra !== undefined;
    this.deleteSlots(base + ARCHIVE_SLOTS, before?.live_slots ?? 0);
    if (replaceArchive) this.deleteSlots(base, before?.archive_slots ?? 0);
    const prompt = data?.messages[0]?.role === "system" ? data.messages[0].content : null;
    const insert = (messages: ChatMessage[], first: number, slots: number): number => {
      const kept = messages.slice(0, slots);
      kept.forEach((m, i) => {
        if (m.role === "system" && m.content === prompt) return;
        const text = redact(messageText(m));
        if (text.trim() !== "") this.statements.insertRow.run(first + i, textColumn(text), cjkColumn(text), m.role);
      });
      return kept.length;
    };
    const live = data ? insert(data.messages, base + ARCHIVE_SLOTS, LIVE_SLOTS) : 0;
    const archive = replaceArchive
      ? insert(data ? (extra ?? []) : [], base, ARCHIVE_SLOTS)
      : (before?.archive_slots ?? 0);
    this.statements.setSlots.run(live, archive, key);
  }

  private deleteSlots(first: number, count: number): void {
    for (let i = 0; i < count; i++) this.statements.deleteRow.run(first + i);
  }

  /** Inside a transaction: forgets a session. */
  private drop(file: string): void {
    const row = this.statements.session.get(file);
    if (!row) return;
    const base = row.key * 2 ** SLOT_BITS;
    this.deleteSlots(base + ARCHIVE_SLOTS, row.live_slots);
    this.deleteSlots(base, row.archive_slots);
    this.statements.deleteSession.run(file);
  }
}

export { sessionSearchTool } from "./search-tool.js";
