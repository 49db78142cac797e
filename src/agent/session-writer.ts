// Writes an agent's session file: one save after another, each a snapshot of the history's whole
// steps taken when it was asked for, with failures reported once and remembered.
import { log } from "../config/log.js";
import { boundSessionSize } from "../session/size-bound.js";
import { serializeSession, writeSessionText, type SessionData } from "../session/store.js";
import { completeSteps } from "./history.js";

export type WriterEvent =
  | { type: "session.saved"; sessionFile: string; messages: number }
  | { type: "notice"; level: "error" | "warn"; text: string };

export class SessionWriter {
  /** Set while the newest save failed: why, in one line. */
  saveError: string | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string | null,
    private readonly emit: (event: WriterEvent) => void,
  ) {}

  /** Resolves once every save asked for so far has landed (or failed). */
  get idle(): Promise<void> {
    return this.queue;
  }

  /**
   * Contract: never rejects. Snapshots `session` now (the history up to its last complete step,
   * so the file is valid whenever it is written) and writes it after the saves before it. A
   * failure is logged, reported by one error notice per streak of failures, and kept in
   * `saveError` until a later save succeeds.
   */
  save(session: SessionData): Promise<void> {
    const file = this.file;
    if (!file) return this.queue;
    const messages = completeSteps(session.messages);
    // A session must stay savable: the archive's oldest part goes first; a live history too big is refused.
    const size = boundSessionSize(session);
    if (!size.ok) return (this.queue = this.queue.then(() => this.failed(file, new Error(size.reason))));
    if (size.droppedArchived > 0)
      this.emit({
        type: "notice",
        level: "warn",
        text: `the session file grew too large: ${size.droppedArchived} of its oldest archived (compacted) messages were dropped`,
      });
    if (size.droppedHistory > 0)
      this.emit({
        type: "notice",
        level: "warn",
        text: `the session file grew too large: ${size.droppedHistory} of its oldest transcript items were dropped`,
      });
    let text: string;
    try {
      text = serializeSession({ ...session, messages });
    } catch (error) {
      // A history too large to serialize (RangeError) fails the save, not the turn.
      return (this.queue = this.queue.then(() => this.failed(file, error)));
    }
    return (this.queue = this.queue.then(async () => {
      try {
        await writeSessionText(file, text);
        this.saveError = null;
        this.emit({ type: "session.saved", sessionFile: file, messages: messages.length });
      } catch (error) {
        this.failed(file, error);
      }
    }));
  }

  private failed(file: string, error: unknown): void {
    const message = `could not save the session to ${file}: ${(error as Error).message}`;
    log("error", `saving session ${file}`, error);
    if (this.saveError === null) this.emit({ type: "notice", level: "error", text: message });
    this.saveError = message;
  }
}
