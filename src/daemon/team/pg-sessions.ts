// SessionStore on PostgreSQL: one row per session (the session file's JSON as jsonb) with its text
// in a generated tsvector for full-text search.
import type { Pool } from "pg";
import type { SessionSearchHit, SessionStore, SessionSummary } from "./contract.js";
import { parseSessionText } from "./session-text.js";

export class PgSessionStore implements SessionStore {
  readonly kind = "postgres" as const;
  constructor(private readonly pool: Pool) {}

  async load(id: string): Promise<string | null> {
    // ::text keeps the document as written (jsonb would be parsed and re-serialised by the driver).
    const { rows } = await this.pool.query<{ data: string }>(
      "SELECT data::text AS data FROM nh_sessions WHERE id = $1",
      [id],
    );
    return rows[0]?.data ?? null;
  }

  async loadAt(id: string): Promise<{ text: string; eventsSeq: number | null } | null> {
    const { rows } = await this.pool.query<{ data: string; events_seq: string | null }>(
      "SELECT data::text AS data, events_seq FROM nh_sessions WHERE id = $1",
      [id],
    );
    const row = rows[0];
    return row ? { text: row.data, eventsSeq: row.events_seq === null ? null : Number(row.events_seq) } : null;
  }

  async saveStep(id: string, text: string, eventsSeq?: number): Promise<void> {
    const parsed = parseSessionText(text);
    await this.pool.query(
      `INSERT INTO nh_sessions (id, data, title, messages, updated_at, body, events_seq) VALUES ($1, $2::jsonb, $3, $4, now(), $5, $6)
       ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, title = EXCLUDED.title, messages = EXCLUDED.messages,
         updated_at = now(), body = EXCLUDED.body, events_seq = EXCLUDED.events_seq`,
      [id, text, parsed.title, parsed.messages, parsed.body, eventsSeq ?? null],
    );
  }

  async list(): Promise<SessionSummary[]> {
    const { rows } = await this.pool.query<{ id: string; title: string | null; updated_at: Date; messages: number }>(
      "SELECT id, title, updated_at, messages FROM nh_sessions ORDER BY updated_at DESC, id",
    );
    return rows.map((r) => ({ id: r.id, title: r.title, updatedAt: r.updated_at.toISOString(), messages: r.messages }));
  }

  async search(query: string, limit = 20): Promise<SessionSearchHit[]> {
    const { rows } = await this.pool.query<{ id: string; snippet: string }>(
      `SELECT id, ts_headline('simple', body, q, 'StartSel=[, StopSel=], MaxWords=24, MinWords=8') AS snippet
       FROM nh_sessions, websearch_to_tsquery('simple', $1) q
       WHERE search @@ q ORDER BY ts_rank(search, q) DESC, updated_at DESC LIMIT $2`,
      [query, Math.max(1, Math.floor(limit))],
    );
    return rows.map((r) => ({ id: r.id, snippet: r.snippet.replace(/\s+/g, " ").trim() }));
  }

  async remove(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query("DELETE FROM nh_sessions WHERE id = $1", [id]);
    return (rowCount ?? 0) > 0;
  }
}
