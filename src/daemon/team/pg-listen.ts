// One LISTEN connection per daemon, shared by the turn queue and the event fan-out. When it drops
// (the database restarted), it reconnects and tells every channel to re-read what it may have
// missed: NOTIFY is a wake-up, never the data itself.
import type { Client, Notification } from "pg";
import { log } from "../../config/log.js";

type PgModule = { Client: typeof import("pg").Client };

export class PgListener {
  private client: Client | null = null;
  private readonly handlers = new Map<string, Set<(payload: string | null) => void>>();
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly pg: PgModule,
    private readonly url: string,
  ) {}

  async start(): Promise<void> {
    const client = new this.pg.Client({ connectionString: this.url });
    client.on("notification", (note: Notification) => {
      for (const handler of this.handlers.get(note.channel) ?? []) handler(note.payload ?? null);
    });
    client.on("error", (error) => {
      log("warn", "team store: the LISTEN connection failed; reconnecting", error);
      this.reconnect();
    });
    client.on("end", () => this.reconnect());
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    this.client = client;
  }

  private reconnect(): void {
    if (this.closed || this.retry) return;
    const old = this.client;
    this.client = null;
    void old?.end().catch(() => {});
    this.retry = setTimeout(() => {
      this.retry = null;
      this.start().then(
        // Whatever was sent while the connection was down: every channel reads again.
        () => {
          for (const set of this.handlers.values()) for (const handler of set) handler(null);
        },
        () => this.reconnect(),
      );
    }, 500);
    this.retry.unref();
  }

  /** `handler(null)` means "something may have been missed": read the state again. */
  async on(channel: string, handler: (payload: string | null) => void): Promise<() => void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      // A connection that is down LISTENs to every channel when it is back (start()).
      await this.client?.query(`LISTEN ${channel}`).catch(() => this.reconnect());
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
