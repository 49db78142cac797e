// Evidence of how skills are used, in the session database (sessions.db, beside the search index):
// one row per skill event and session. The curator reads when a skill was last used from here;
// `nanohermes skills show NAME` prints the counts. better-sqlite3 loads with the first event.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type BetterSqlite3 from "better-sqlite3";

export const SKILL_EVENTS = [
  "listed",
  "hinted",
  "loaded",
  "created",
  "patched",
  "proposal_accepted",
  "proposal_rejected",
  "archived",
  "restored",
] as const;
export type SkillEventKind = (typeof SKILL_EVENTS)[number];

export interface SkillEvent {
  skill: string;
  event: SkillEventKind;
  /** The session it happened in; "" for the CLI and the curator. */
  sessionId?: string;
  detail?: string;
  /** ISO time; default now. */
  at?: string;
}

/** Events that mean a skill was used: the curator's clock restarts at each. */
const USE_EVENTS: SkillEventKind[] = ["loaded", "created", "patched", "proposal_accepted", "restored"];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS skill_events (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  session_id TEXT NOT NULL,
  skill TEXT NOT NULL,
  event TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS skill_events_skill ON skill_events(skill, event);
`;

/** The table is left alone by the search index's rebuilds (they drop only their own tables). */
export class SkillEvents {
  private constructor(private readonly db: BetterSqlite3.Database) {}

  /** Opens (creating) the table in `dbFile`. */
  static async open(dbFile: string): Promise<SkillEvents> {
    const { default: Database } = await import("better-sqlite3");
    mkdirSync(dirname(dbFile), { recursive: true, mode: 0o700 });
    const db = new Database(dbFile, { timeout: 10_000 });
    try {
      db.pragma("journal_mode = WAL");
      db.exec(SCHEMA);
    } catch (error) {
      db.close();
      throw error;
    }
    return new SkillEvents(db);
  }

  record(events: readonly SkillEvent[]): void {
    if (events.length === 0) return;
    const insert = this.db.prepare(
      "INSERT INTO skill_events (at, session_id, skill, event, detail) VALUES (?, ?, ?, ?, ?)",
    );
    const now = new Date().toISOString();
    this.db.transaction(() => {
      for (const e of events) insert.run(e.at ?? now, e.sessionId ?? "", e.skill, e.event, e.detail ?? "");
    })();
  }

  /** When each skill was last used (loaded, written, accepted, restored): skill -> epoch ms. */
  lastUse(): Map<string, number> {
    const rows = this.db
      .prepare<[], { skill: string; at: string }>(
        `SELECT skill, max(at) AS at FROM skill_events WHERE event IN (${USE_EVENTS.map((e) => `'${e}'`).join(", ")}) GROUP BY skill`,
      )
      .all();
    return new Map(rows.map((r) => [r.skill, Date.parse(r.at)]));
  }

  /** Counts per event for one skill, and its last few events. */
  summary(skill: string, last = 10): { counts: Record<string, number>; recent: Required<SkillEvent>[] } {
    const counts: Record<string, number> = {};
    for (const row of this.db
      .prepare<[string], { event: string; n: number }>(
        "SELECT event, count(*) AS n FROM skill_events WHERE skill = ? GROUP BY event",
      )
      .all(skill))
      counts[row.event] = row.n;
    const recent = this.db
      .prepare<
        [string, number],
        { at: string; session_id: string; skill: string; event: SkillEventKind; detail: string }
      >("SELECT at, session_id, skill, event, detail FROM skill_events WHERE skill = ? ORDER BY id DESC LIMIT ?")
      .all(skill, last)
      .map((r) => ({ at: r.at, sessionId: r.session_id, skill: r.skill, event: r.event, detail: r.detail }));
    return { counts, recent };
  }

  close(): void {
    this.db.close();
  }
}
