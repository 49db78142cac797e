// The three seams a team of daemons shares (issue 34): where sessions are kept, how turns reach a
// daemon, and how a session's events reach every daemon that follows it. Each has an embedded
// implementation (files, SQLite, in-process: one machine) and a PostgreSQL one (many machines).
import type { SharedJobTable } from "../../cron/team-jobs.js";
import type { BusCommand } from "../../protocol/commands.js";
import type { BusEvent } from "../../protocol/events.js";

export type StoreKind = "embedded" | "postgres";

export interface SessionSummary {
  id: string;
  title: string | null;
  updatedAt: string;
  messages: number;
}

export interface SessionSearchHit {
  id: string;
  /** Text around the match, the matched words in [ ]. */
  snippet: string;
}

/**
 * Contract: a session is kept as the text of its session file (src/session/store.ts writes and
 * reads it). `saveStep` keeps it as it stands after a whole step (the agent only ever saves whole
 * steps), so `load` after a crash returns the history at most one step behind. Saves of one
 * session arrive in order; a later save replaces an earlier one. Text that is not a session
 * file is refused and loses nothing already kept.
 */
export interface SessionStore {
  readonly kind: StoreKind;
  load(id: string): Promise<string | null>;
  /**
   * The session with the fan-out's seq of the last event its text reflects (null when saved
   * without one): a follower that starts after it sees each step once, in the text or as events.
   */
  loadAt(id: string): Promise<{ text: string; eventsSeq: number | null } | null>;
  saveStep(id: string, sessionFileText: string, eventsSeq?: number): Promise<void>;
  /** Newest first. */
  list(): Promise<SessionSummary[]>;
  /** Full-text search over the sessions' messages, best first. */
  search(query: string, limit?: number): Promise<SessionSearchHit[]>;
  remove(id: string): Promise<boolean>;
}

/** An image sent with a prompt: its bytes, so the daemon that takes the turn can attach it. */
export interface TurnImage {
  name: string;
  data: Buffer;
}

export interface TurnJob {
  turnId: string;
  session: string;
  prompt: string;
  /** The prompt's images, in order (absent: none). */
  images?: TurnImage[];
  /** 1 for the first run; more when the daemon that ran it died and its lease ran out. */
  attempt: number;
  /** The fan-out's head when an earlier attempt started (markStart): its events come after it. */
  eventsFrom: number | null;
}

/** What a finished turn reports to whoever posted it (the daemon's TurnOutcome, as JSON). */
export type TurnResult = Record<string, unknown> & { reason: string };

export type TurnHandler = (job: TurnJob, signal: AbortSignal) => Promise<TurnResult>;

/**
 * Contract: turns of one session run one at a time in the order they were enqueued, whichever
 * daemon takes them; turns of different sessions run in parallel (up to each worker's
 * concurrency). A taken turn holds a lease its worker renews; a turn whose lease runs out (its
 * daemon died) is taken again with `attempt` + 1, at most `maxAttempts` times. Cancelling aborts
 * the running turn's signal on whichever daemon runs it.
 */
export interface TurnQueue {
  enqueue(session: string, prompt: string, images?: TurnImage[]): Promise<string>;
  /** Starts taking turns; `stop` ends that (turns running are aborted and left to their leases). */
  work(concurrency: number, handler: TurnHandler): void;
  /** Records where the turn's events start (the fan-out's head), for an attempt that resumes it. */
  markStart(turnId: string, eventsFrom: number): Promise<void>;
  /** Resolves with the turn's result once it has ended. */
  wait(turnId: string): Promise<TurnResult>;
  /** Aborts the session's running turn; false when none runs. */
  cancel(session: string): Promise<boolean>;
  /** The session's turn running now (on any daemon), if any. */
  running(session: string): Promise<string | null>;
  /** Turns waiting to be taken, over all sessions. */
  depth(): Promise<number>;
  stop(): Promise<void>;
}

export interface FannedEvent {
  /** Increases with every event of the store (across sessions): what Last-Event-ID carries. */
  seq: number;
  event: BusEvent;
}

export interface Following {
  stop(): void;
  /** Resolves once everything published before the call has been delivered. */
  caughtUp(): Promise<void>;
}

/**
 * Contract: `follow` delivers the session's events with seq > `after`, in seq order, each once,
 * then every event published later from any node, until `stop`. `after` null starts at the
 * running turn's first event (or now when none runs). A publish resolves once followers on any
 * node can read the event.
 */
export interface EventFanout {
  /** Resolves with the event's seq once followers on any node can read it. */
  publish(session: string, event: BusEvent): Promise<number>;
  follow(session: string, after: number | null, send: (event: FannedEvent) => void): Promise<Following>;
  /** The newest seq now (a follower starting after it sees only what comes next). */
  head(): Promise<number>;
}

export interface TeamStore {
  readonly kind: StoreKind;
  /** One line for the start-up message: which store, where (no password). */
  readonly describe: string;
  sessions: SessionStore;
  turns: TurnQueue;
  events: EventFanout;
  /**
   * Claims a scheduled instant of a cron job for this daemon (UNIQUE(job, instant) across the
   * team): null when this daemon won it, else the daemon that did. The embedded store has one
   * daemon, whose own ledger already says so: always null.
   */
  claimInstant(job: string, instant: number): Promise<string | null>;
  /** The team's cron jobs, which every daemon's ledger mirrors; null for the embedded store (its ledger is all). */
  cronJobs: SharedJobTable | null;
  /** Commands and attachments across daemons; null for the embedded store (one daemon has them all). */
  relay: CommandRelay | null;
  /** For /health: whether the database answers, and how many turns wait. */
  health(): Promise<{ database: "ok" | "embedded" | string; queueDepth: number }>;
  close(): Promise<void>;
}

/**
 * Contract: commands for the daemon running a session's turn, and the front ends attached to a
 * session on any daemon. `send` resolves with the receiving daemon's answer (null: accepted, else
 * why it refused), or a refusal saying that daemon did not answer; a command is applied at most
 * once. An attachment lasts while its daemon renews it: a daemon that died stops counting.
 */
export interface CommandRelay {
  /** This daemon's name (what `runningOn` returns for a turn running here). */
  readonly node: string;
  /** The daemon whose lease holds the session's running turn, or null. */
  runningOn(session: string): Promise<string | null>;
  send(node: string, session: string, command: BusCommand): Promise<string | null>;
  /** Applies the commands sent to this daemon, in order, with `handler`'s answer sent back. */
  serve(handler: (session: string, command: BusCommand) => string | null): Promise<void>;
  /** A front end attached here to `session` (written before it resolves); the call returned detaches it. */
  attach(session: string): Promise<() => void>;
  /** Reads the attachments again; `onChange` gets every session with a front end on any daemon. */
  refresh(): Promise<void>;
  onAttached(onChange: (sessions: ReadonlySet<string>) => void): void;
  close(): Promise<void>;
}
