// EventFanout in one process: a bounded log per session and its listeners.
import type { BusEvent } from "../../protocol/events.js";
import type { EventFanout, FannedEvent, Following } from "./contract.js";

/** Events kept per session for followers that come late or reconnect. */
const KEEP = 2_000;

export class EmbeddedEventFanout implements EventFanout {
  private seq = 0;
  private readonly logs = new Map<string, FannedEvent[]>();
  private readonly listeners = new Map<string, Set<(event: FannedEvent) => void>>();
  /** Per session: the seq of the running turn's turn.started, while it runs. */
  private readonly turnStart = new Map<string, number>();

  async publish(session: string, event: BusEvent): Promise<number> {
    const fanned: FannedEvent = { seq: ++this.seq, event };
    const log = this.logs.get(session) ?? [];
    log.push(fanned);
    if (log.length > KEEP) log.splice(0, log.length - KEEP);
    this.logs.set(session, log);
    if (event.type === "turn.started" && event.agentId === undefined) this.turnStart.set(session, fanned.seq);
    if (event.type === "turn.completed" && event.agentId === undefined) this.turnStart.delete(session);
    for (const listener of this.listeners.get(session) ?? []) listener(fanned);
    return fanned.seq;
  }

  async head(): Promise<number> {
    return this.seq;
  }

  async follow(session: string, after: number | null, send: (event: FannedEvent) => void): Promise<Following> {
    const from = after ?? (this.turnStart.get(session) ?? this.seq + 1) - 1;
    for (const fanned of this.logs.get(session) ?? []) if (fanned.seq > from) send(fanned);
    const set = this.listeners.get(session) ?? new Set();
    set.add(send);
    this.listeners.set(session, set);
    // Delivery is synchronous: whatever was published has been sent.
    return { stop: () => set.delete(send), caughtUp: async () => {} };
  }
}
