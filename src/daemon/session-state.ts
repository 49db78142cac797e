// A daemon session's state: its log of recent events (so a client that reconnects gets what it
// missed), the front ends attached, and the approvals waiting, which are denied when every front
// end has gone and none came back in time.
import type { BusEvent, EventOf } from "../protocol/events.js";

/** Events kept per session for reconnecting clients (the current and the last turn at most). */
export const LOG_CAP = 20_000;

export interface LoggedEvent {
  /** `<boot>.<seq>`: the SSE id; a daemon restart changes `boot`, so old ids are known stale. */
  id: string;
  seq: number;
  event: BusEvent;
}

export type Loaded = Omit<EventOf<"session.loaded">, "type" | "taskId" | "agentId">;
export const EMPTY: Loaded = { messages: [], transcript: [] };

export interface Session {
  id: string;
  log: LoggedEvent[];
  /** Every event of this session after this seq is in `log`. */
  floor: number;
  /** Where the previous turn's events start in `log` (dropped when the next turn starts). */
  lastTurnAt: number;
  /** Set from the main agent's turn.started to its turn.completed. */
  inTurn: boolean;
  turnStartSeq: number;
  /** The history before the running turn, as session.loaded carries it (for a client that attaches mid-turn). */
  base: Loaded;
  /** Serialises whole turns (POST / and /turns). */
  chain: Promise<void>;
  listeners: Set<(event: LoggedEvent) => void>;
  /** Attached front ends (/events streams): while there is one, approvals are asked, not refused. */
  watchers: number;
  /** Approvals waiting for an answer. */
  pending: Set<string>;
  /** Denies the pending approvals when every front end has gone and none came back in time. */
  orphaned: NodeJS.Timeout | null;
  /** When the session last had an event (Date.now()). */
  activeAt: number;
  /** Its file exists (found at start-up or saved since): only these are counted and listed. */
  saved: boolean;
  /** The last report of the turns' file changes (sent in a snapshot). */
  checkpoints?: BusEvent;
  /** The title read from the file of a session not loaded, and the file's mtime then. */
  peeked?: { mtimeMs: number; title: string | null };
}

/** A session nobody has used yet: its log starts after `floor`. */
export function newSession(id: string, floor: number): Session {
  return {
    id,
    log: [],
    floor,
    lastTurnAt: 0,
    inTurn: false,
    turnStartSeq: 0,
    base: EMPTY,
    chain: Promise.resolve(),
    listeners: new Set(),
    watchers: 0,
    pending: new Set(),
    orphaned: null,
    activeAt: Date.now(),
    saved: false,
  };
}

/**
 * Adds an event to the session's log and state. `history` is the history now: on the main agent's
 * turn.started it is the history before the turn (the prompt joins it later).
 */
export function logEvent(session: Session, logged: LoggedEvent, history: () => Loaded): void {
  const event = logged.event;
  session.activeAt = Date.now();
  const main = event.agentId === undefined;
  if (main && event.type === "turn.started") {
    // Keep the last turn (for a client that reconnects just after it ended) and this one.
    const dropped = session.log.slice(0, session.lastTurnAt);
    if (dropped.length > 0) session.floor = dropped[dropped.length - 1]!.seq;
    session.log = session.log.slice(session.lastTurnAt);
    session.lastTurnAt = session.log.length;
    session.inTurn = true;
    session.turnStartSeq = logged.seq;
    session.base = history();
  }
  session.log.push(logged);
  if (session.log.length > LOG_CAP + LOG_CAP / 4) {
    const cut = session.log.length - LOG_CAP;
    session.floor = session.log[cut - 1]!.seq;
    session.log = session.log.slice(cut);
    session.lastTurnAt = Math.max(0, session.lastTurnAt - cut);
  }
  if (main && event.type === "turn.completed") session.inTurn = false;
  if (event.type === "session.saved") session.saved = true;
  if (main && event.type === "checkpoints.updated") session.checkpoints = event;
  if (event.type === "approval.requested") session.pending.add(event.requestId);
  if (event.type === "approval.resolved") session.pending.delete(event.requestId);
}

/** Forgets the session's log and history (it was unloaded); events after `floor` are logged again. */
export function forgetLog(session: Session, floor: number): void {
  session.floor = floor;
  session.log = [];
  session.lastTurnAt = 0;
  session.base = EMPTY;
}

/** A front end attached: approvals are asked again, and those waiting stay. */
export function attach(session: Session): void {
  session.watchers++;
  if (session.orphaned) clearTimeout(session.orphaned);
  session.orphaned = null;
}

/**
 * A front end went away; when it was the last, waiting approvals get `waitMs` for one to come back,
 * then each is passed to `deny` with why.
 */
export function detach(session: Session, waitMs: number, deny: (requestId: string, note: string) => void): void {
  session.watchers--;
  if (session.watchers > 0 || session.pending.size === 0 || session.orphaned) return;
  session.orphaned = setTimeout(() => {
    session.orphaned = null;
    if (session.watchers > 0) return;
    for (const requestId of [...session.pending])
      deny(requestId, `nobody answered within ${Math.round(waitMs / 60_000)} min (the front end detached)`);
  }, waitMs);
  session.orphaned.unref();
}
