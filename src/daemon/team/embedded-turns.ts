// TurnQueue in one process: a FIFO per session, sessions in parallel up to the concurrency. No
// lease is needed: a turn lives and dies with the only daemon that could run it.
import { randomUUID } from "node:crypto";
import type { TurnHandler, TurnImage, TurnJob, TurnQueue, TurnResult } from "./contract.js";

interface Entry {
  job: TurnJob;
  done: Promise<TurnResult>;
  resolve(result: TurnResult): void;
  control: AbortController | null;
}

export class EmbeddedTurnQueue implements TurnQueue {
  /** Open turns (queued and running) per session, oldest first. */
  private readonly open = new Map<string, Entry[]>();
  private readonly byId = new Map<string, Entry>();
  /** Queued turns in arrival order across sessions. */
  private readonly arrivals: Entry[] = [];
  private handler: TurnHandler | null = null;
  private concurrency = 1;
  private active = 0;
  private stopped = false;
  private readonly runs = new Set<Promise<void>>();

  async enqueue(session: string, prompt: string, images: TurnImage[] = []): Promise<string> {
    const turnId = randomUUID();
    let resolve: (result: TurnResult) => void = () => {};
    const done = new Promise<TurnResult>((r) => (resolve = r));
    const entry: Entry = {
      job: { turnId, session, prompt, ...(images.length > 0 ? { images } : {}), attempt: 1, eventsFrom: null },
      done,
      resolve,
      control: null,
    };
    this.byId.set(turnId, entry);
    const list = this.open.get(session) ?? [];
    list.push(entry);
    this.open.set(session, list);
    this.arrivals.push(entry);
    this.pump();
    return turnId;
  }

  work(concurrency: number, handler: TurnHandler): void {
    if (this.handler) throw new Error("the turn queue is already being worked");
    this.handler = handler;
    this.concurrency = Math.max(1, concurrency);
    this.pump();
  }

  /** Starts every turn that is its session's oldest, while there is room. */
  private pump(): void {
    const handler = this.handler;
    if (!handler || this.stopped) return;
    for (let i = 0; i < this.arrivals.length && this.active < this.concurrency; ) {
      const entry = this.arrivals[i]!;
      if (this.open.get(entry.job.session)?.[0] !== entry) {
        i++;
        continue;
      }
      this.arrivals.splice(i, 1);
      this.active++;
      const control = new AbortController();
      entry.control = control;
      const run = handler(entry.job, control.signal)
        .catch((error: unknown): TurnResult => ({ reason: "error", response: "", error: (error as Error).message }))
        .then((result) => {
          this.active--;
          const list = this.open.get(entry.job.session)!;
          list.shift();
          if (list.length === 0) this.open.delete(entry.job.session);
          entry.resolve(result);
          this.pump();
        });
      this.runs.add(run);
      void run.finally(() => this.runs.delete(run));
    }
  }

  /** One process: a turn is never resumed by another, so there is nothing to keep. */
  async markStart(): Promise<void> {}

  async wait(turnId: string): Promise<TurnResult> {
    const entry = this.byId.get(turnId);
    if (!entry) throw new Error(`no turn ${turnId}`);
    const result = await entry.done;
    this.byId.delete(turnId);
    return result;
  }

  async cancel(session: string): Promise<boolean> {
    const head = this.open.get(session)?.[0];
    if (!head?.control) return false;
    head.control.abort();
    return true;
  }

  async running(session: string): Promise<string | null> {
    const head = this.open.get(session)?.[0];
    return head?.control ? head.job.turnId : null;
  }

  async depth(): Promise<number> {
    return this.arrivals.length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const list of this.open.values()) list[0]?.control?.abort();
    await Promise.all(this.runs);
  }
}
