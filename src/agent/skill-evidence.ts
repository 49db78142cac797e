// The engine's side of the skill_events table: events are queued as they happen and written after
// the turn (the table, and SQLite, load with the first write), so recording never delays an answer.
import { log } from "../config/log.js";
import type { SkillEvent, SkillEvents } from "../session/skill-events.js";

export class SkillEvidence {
  private readonly queue: SkillEvent[] = [];
  private db: Promise<SkillEvents | null> | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly dbFile: string) {}

  add(event: SkillEvent): void {
    this.queue.push({ ...event, at: event.at ?? new Date().toISOString() });
  }

  /** Writes what is queued (after what is being written). Never rejects: evidence is not a precondition. */
  flush(): Promise<void> {
    if (this.queue.length === 0) return this.writing;
    const batch = this.queue.splice(0);
    this.writing = this.writing.then(async () => {
      try {
        this.db ??= import("../session/skill-events.js").then((m) => m.SkillEvents.open(this.dbFile));
        (await this.db)?.record(batch);
      } catch (error) {
        log("warn", "recording skill events", error);
        this.db = Promise.resolve(null);
      }
    });
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.db) (await this.db.catch(() => null))?.close();
    this.db = null;
  }
}
