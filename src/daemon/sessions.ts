// The daemon's sessions: one task of a TaskManager per session id, turns served one at a time per
// session (in arrival order) and in parallel across sessions, and a log of recent events per
// session so a client that reconnects gets what it missed.
import { promises as fs } from "node:fs";
import { TaskManager } from "../agent/tasks.js";
import type { Extensions } from "../agent/extensions.js";
import type { ModelClient } from "../agent/model-client.js";
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import { Bus } from "../protocol/bus.js";
import type { Telemetry } from "../telemetry/start.js";
import type { BusCommand } from "../protocol/commands.js";
import type { BusEvent, EventOf } from "../protocol/events.js";
import { randomId } from "../protocol/ids.js";
import { sessionFileFor } from "../session/store.js";

import { SESSION_ID, type FileAt, type SessionDetail, type SessionInfo } from "../remote/wire.js";
import { fileAt } from "./files.js";
import { peekTitle } from "./session-title.js";
import {
  attach,
  detach,
  EMPTY,
  forgetLog,
  LOG_CAP,
  type LoggedEvent,
  logEvent,
  newSession,
  type Session,
} from "./session-state.js";
import { isUpload, pruneUploads, storeUpload, uploadDirOf } from "./uploads.js";
import { byCodeUnit } from "../protocol/order.js";

export { LOG_CAP, SESSION_ID, type LoggedEvent };

export interface TurnOutcome {
  reason: EventOf<"turn.completed">["reason"];
  response: string;
  error?: string;
  /** Set when the session could not be saved at the end of the turn: the history on disk is behind. */
  saveError?: string;
  /** Warnings of the turn (a session file left alone and the run saved elsewhere, a cut answer). */
  warnings?: string[];
  usage: { prompt: number; completion: number };
  steps: number;
}

export interface DaemonSessionsOptions {
  settings: Settings;
  sessionDir: string;
  extensions: Promise<Extensions>;
  client?: ModelClient;
  /** How long an approval waits after the last front end detached (default 15 min). */
  approvalWaitMs?: number;
  /** A session idle this long with nobody attached has its history unloaded (default 10 min). */
  idleUnloadMs?: number;
  /** Paths never served as workspace files (token file, session folder, home), whatever link leads there. */
  privatePaths?: string[];
  /** OpenTelemetry export, when on: it observes the bus, and a turn request's traceparent continues a trace. */
  telemetry?: Telemetry | null;
}

export class DaemonSessions {
  readonly bus: Bus;
  readonly manager: TaskManager;
  /** Changes on every start, so event ids of an earlier daemon are never taken for ours. */
  readonly boot = randomId(6);
  private seq = 0;
  private readonly sessions = new Map<string, Session>();
  private readonly opts: DaemonSessionsOptions;

  constructor(opts: DaemonSessionsOptions) {
    this.opts = opts;
    this.bus = new Bus({ onHandlerError: (error) => log("error", "daemon bus handler threw", error) });
    this.manager = new TaskManager({
      // A refused session's fork (and the record of it) goes to the daemon's folder, which it serves.
      settings: { ...opts.settings, sessionDir: opts.sessionDir },
      bus: this.bus,
      // A call that needs approval is asked while a front end is attached, else refused with a reason.
      interactive: (id) => (this.sessions.get(id)?.watchers ?? 0) > 0,
      approval: opts.settings.approval ?? "never",
      mode: opts.settings.mode,
      extensions: opts.extensions,
      index: false,
      ...(opts.client ? { client: opts.client } : {}),
      ...(opts.telemetry ? { traceparent: (taskId, callId) => opts.telemetry?.traceparentFor(taskId, callId) } : {}),
    });
    this.bus.subscribe((event) => this.record(event));
    const telemetry = opts.telemetry;
    if (telemetry) this.bus.subscribe((event) => telemetry.onEvent(event));
    // Memory follows the sessions in use, not every session ever served.
    const idleMs = opts.idleUnloadMs ?? 10 * 60_000;
    this.sweeper = setInterval(
      () => {
        void this.unloadIdle(idleMs);
        void this.pruneUploads(60 * 60_000);
      },
      Math.min(60_000, idleMs),
    );
    this.sweeper.unref();
  }

  private readonly sweeper: NodeJS.Timeout;

  /** Unloads sessions idle for `idleMs` with nobody attached; their event logs go too. */
  async unloadIdle(idleMs: number): Promise<number> {
    let unloaded = 0;
    for (const session of this.sessions.values()) {
      if (session.watchers > 0 || Date.now() - session.activeAt < idleMs) continue;
      if (!(await this.manager.unload(session.id))) continue;
      unloaded++;
      forgetLog(session, this.seq);
    }
    return unloaded;
  }

  /** Serves the sessions already in the folder again (loaded on first use). */
  async init(): Promise<void> {
    await fs.mkdir(this.opts.sessionDir, { recursive: true, mode: 0o700 });
    const names = await fs.readdir(this.opts.sessionDir);
    for (const name of names) {
      const id = name.endsWith(".json") ? name.slice(0, -5) : "";
      if (SESSION_ID.test(id)) this.ensure(id).saved = true;
    }
  }

  /** The session, created (empty, not yet on disk) when new. */
  private ensure(id: string): Session {
    if (!SESSION_ID.test(id)) throw new Error(`invalid session id "${id}"`);
    let session = this.sessions.get(id);
    if (!session) {
      session = newSession(id, this.seq);
      this.sessions.set(id, session);
    }
    if (!this.manager.has(id)) this.manager.add(id, { sessionFile: sessionFileFor(this.opts.sessionDir, id) });
    return session;
  }

  /**
   * Scheduled runs going on now, by session id: their own task manager writes the session, so
   * they are listed (running) but not served until they end (see adopt).
   */
  private readonly scheduled = new Map<string, { title: string; startedAt: string }>();

  /** A scheduled run started writing session `id`: listed from now on, as running. */
  scheduledStarted(id: string, title: string): void {
    if (SESSION_ID.test(id)) this.scheduled.set(id, { title, startedAt: new Date().toISOString() });
  }

  /** Whether `id` is a scheduled run still going (its session is served once it ends). */
  isScheduled(id: string): boolean {
    return this.scheduled.has(id);
  }

  /** Serves a session another runner wrote into the folder (a scheduled run that ended), as if found at start. */
  adopt(id: string): void {
    this.scheduled.delete(id);
    if (SESSION_ID.test(id)) this.ensure(id).saved = true;
  }

  /** Sessions with a file or a turn running (a stream opened on a new id alone does not count). */
  private known(): Session[] {
    return [...this.sessions.values()].filter((s) => s.saved || this.manager.isRunning(s.id));
  }

  get count(): number {
    return this.known().length;
  }

  get running(): number {
    return [...this.sessions.keys()].filter((id) => this.manager.isRunning(id)).length;
  }

  has(id: string): boolean {
    return this.sessions.has(id);
  }

  private record(event: BusEvent): void {
    const session = this.sessions.get(event.taskId);
    if (!session) return;
    const logged: LoggedEvent = { id: `${this.boot}.${++this.seq}`, seq: this.seq, event };
    logEvent(session, logged, () => this.manager.loadedAgent(session.id)?.loadedView() ?? EMPTY);
    for (const listener of session.listeners) listener(logged);
  }

  /**
   * Runs one turn of `prompt` once the session's earlier turns are done; `onEvent` sees every event
   * of the session from the submit to the turn's end. A client going away does not stop the turn.
   */
  /**
   * The next turn of session `id` continues the caller's trace (a request's W3C `traceparent`).
   * Without telemetry, or for a malformed header (W3C: ignore it), nothing changes.
   */
  continueTrace(id: string, traceparent: string): void {
    this.opts.telemetry?.continueTrace(id, traceparent);
  }

  async runTurn(
    id: string,
    prompt: string,
    onEvent?: (event: LoggedEvent) => void,
    /** Uploads (paths in the upload folder) to attach to the prompt. */
    images: string[] = [],
  ): Promise<TurnOutcome> {
    const session = this.ensure(id);
    const previous = session.chain;
    let release: () => void = () => {};
    session.chain = new Promise((resolve) => (release = resolve));
    await previous;
    try {
      // A turn started through /commands (as the attached UI does) runs first.
      for (let turn = this.manager.turn(id); turn; turn = this.manager.turn(id)) await turn;
      this.ensure(id);
      let completed: EventOf<"turn.completed"> | null = null;
      let failure: string | null = null;
      const warnings: string[] = [];
      const listener = (logged: LoggedEvent) => {
        const event = logged.event;
        if (event.type === "turn.completed" && event.agentId === undefined) completed ??= event;
        if (event.type === "notice" && event.level === "error") failure = event.text;
        if (event.type === "notice" && event.level === "warn") warnings.push(event.text);
        onEvent?.(logged);
      };
      session.listeners.add(listener);
      try {
        this.bus.send({ type: "user.submit", taskId: id, text: prompt, ...(images.length > 0 ? { images } : {}) });
        await this.manager.turn(id);
      } finally {
        session.listeners.delete(listener);
      }
      const done = completed as EventOf<"turn.completed"> | null;
      if (!done)
        return {
          reason: "error",
          response: "",
          error: failure ?? "the turn did not start",
          ...(warnings.length > 0 ? { warnings } : {}),
          usage: { prompt: 0, completion: 0 },
          steps: 0,
        };
      return {
        reason: done.reason,
        response: done.response,
        ...(done.error ? { error: done.error } : {}),
        ...(done.saveError ? { saveError: done.saveError } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
        usage: { ...done.usage },
        steps: done.steps,
      };
    } finally {
      release();
    }
  }

  /** Stops the running turn at its next step boundary; false when none runs. */
  cancel(id: string, force: boolean): boolean {
    if (!this.sessions.has(id) || !this.manager.isRunning(id)) return false;
    this.bus.send({ type: "turn.interrupt", taskId: id, force });
    return true;
  }

  /** Where uploaded images wait for the prompt that names them (inside the session folder). */
  get uploadDir(): string {
    return uploadDirOf(this.opts.sessionDir);
  }

  /** Keeps an uploaded image (mode 600) for a prompt; returns its path. */
  storeUpload(name: string, data: Buffer): Promise<string> {
    return storeUpload(this.uploadDir, name, data);
  }

  /** Removes uploads older than `maxAgeMs`. */
  pruneUploads(maxAgeMs: number): Promise<void> {
    return pruneUploads(this.uploadDir, maxAgeMs);
  }

  /**
   * Passes a front end's command to the session's task (the id in the command is replaced).
   * Returns why it was refused, or null.
   */
  command(id: string, command: BusCommand): string | null {
    const session = this.ensure(id);
    if (command.type === "approval.reply" && !session.pending.has(command.requestId))
      return `no approval ${command.requestId} is waiting in session "${id}"`;
    // Images come only from uploads.
    if (command.type === "user.submit" && command.images?.some((path) => !isUpload(this.uploadDir, path)))
      return "images must be uploaded first (POST /v1/sessions/ID/images) and named by the path that returns";
    this.bus.send({ ...command, taskId: id } as BusCommand);
    return null;
  }

  /**
   * Streams the session's events to `send`: from just after `lastEventId` when the log still holds
   * everything since then, else a snapshot (state, history before the running turn, that turn's
   * events so far) first; `ready` is called after that part. Returns the unsubscribe function.
   */
  async subscribe(
    id: string,
    lastEventId: string | undefined,
    send: (event: LoggedEvent) => void,
    ready: (snapshot: boolean) => void = () => {},
  ): Promise<() => void> {
    const session = this.ensure(id);
    const [boot, seqText] = (lastEventId ?? "").split(".");
    const after = boot === this.boot && seqText !== undefined && /^\d+$/.test(seqText) ? Number(seqText) : null;
    if (after !== null && after >= session.floor && after <= this.seq) {
      for (const logged of session.log) if (logged.seq > after) send(logged);
    } else {
      const agent = await this.manager.agentFor(id).catch((error: unknown) => {
        log("warn", `daemon: loading session ${id}`, error);
        return null;
      });
      // Synchronous from here on: nothing can slip between the snapshot and the live events.
      const mark = (event: BusEvent): LoggedEvent => ({ id: `${this.boot}.${this.seq}`, seq: this.seq, event });
      const snapshot = this.manager.snapshotOf(id);
      if (snapshot) send(mark({ type: "task.updated", taskId: id, task: snapshot }));
      const loaded = session.inTurn ? session.base : (agent?.loadedView() ?? EMPTY);
      // The session as the engine started it (its workspace names the files in the views).
      if (agent)
        send(
          mark({
            type: "session.started",
            taskId: id,
            sessionId: agent.session.id,
            sessionFile: agent.sessionFile ?? "",
            workspace: this.opts.settings.workspace,
            model: agent.model,
            resumed: false,
            messages: agent.messages.length,
          }),
        );
      send(mark({ type: "session.loaded", taskId: id, ...loaded }));
      // The turns' file changes, for the Turns tab and /rewind.
      if (session.checkpoints) send(mark(session.checkpoints));
      if (session.inTurn) for (const logged of session.log) if (logged.seq >= session.turnStartSeq) send(logged);
    }
    // Told between what was owed and what is live, so a client can say "reconnected" after the snapshot.
    ready(after === null || after < session.floor || after > this.seq);
    session.listeners.add(send);
    const release = this.hold(id);
    return () => {
      session.listeners.delete(send);
      release();
    };
  }

  /**
   * Counts a front end as attached to the session (a call that needs approval is asked) until the
   * returned release; then, when it was the last, waiting approvals are denied after the wait.
   * `subscribe` holds for its front end; a team daemon holds for front ends on other daemons.
   */
  hold(id: string): () => void {
    const session = this.ensure(id);
    attach(session);
    let attached = true;
    const waitMs = this.opts.approvalWaitMs ?? 15 * 60_000;
    const deny = (requestId: string, note: string) =>
      this.bus.send({ type: "approval.reply", taskId: id, requestId, decision: "deny", note });
    return () => {
      if (attached) detach(session, waitMs, deny);
      attached = false;
    };
  }

  /** Every session, newest first; titles of sessions not loaded yet are read from their files. */
  async list(): Promise<SessionInfo[]> {
    const infos = await Promise.all(
      this.known().map(async (session): Promise<SessionInfo | null> => {
        const { id } = session;
        const snapshot = this.manager.snapshotOf(id);
        if (!snapshot) return null;
        const running = this.manager.isRunning(id);
        if (this.manager.loadedAgent(id) || snapshot.title !== "New task")
          return { id, title: snapshot.title, status: snapshot.status, updatedAt: snapshot.updatedAt, running };
        // Not loaded: the title from the file's head, read again only when the file changed.
        const file = sessionFileFor(this.opts.sessionDir, id);
        const stat = await fs.lstat(file).catch(() => null);
        if (stat && session.peeked?.mtimeMs !== stat.mtimeMs)
          session.peeked = { mtimeMs: stat.mtimeMs, title: await peekTitle(file) };
        return {
          id,
          title: session.peeked?.title ?? snapshot.title,
          status: snapshot.status,
          updatedAt: stat ? stat.mtime.toISOString() : snapshot.updatedAt,
          running,
        };
      }),
    );
    const scheduled = [...this.scheduled].map(
      ([id, run]): SessionInfo => ({
        id,
        title: run.title,
        status: "running",
        updatedAt: run.startedAt,
        running: true,
      }),
    );
    return [...infos.filter((i): i is SessionInfo => i !== null && !this.scheduled.has(i.id)), ...scheduled].sort(
      (a, b) => byCodeUnit(b.updatedAt, a.updatedAt),
    );
  }

  /** The session and its history (loaded if need be); null for a session the daemon does not have. */
  async detail(id: string): Promise<SessionDetail | null> {
    const session = this.sessions.get(id);
    if (!session || !(session.saved || this.manager.isRunning(id))) return null;
    const agent = await this.manager.agentFor(id);
    const snapshot = this.manager.snapshotOf(id)!;
    return {
      id,
      title: agent.session.title ?? snapshot.title,
      status: snapshot.status,
      updatedAt: agent.session.updatedAt,
      running: this.manager.isRunning(id),
      model: agent.model,
      workspace: agent.session.workspace,
      createdAt: agent.session.createdAt,
      ...agent.loadedView(),
    };
  }

  /** A file of the session's workspace now, and before `turn` (from its checkpoints). */
  async file(id: string, path: string, turn: number | null): Promise<FileAt | string> {
    const agent = this.sessions.has(id) ? await this.manager.agentFor(id) : null;
    return fileAt(this.opts.settings, agent?.session.id ?? id, path, turn, [
      this.opts.sessionDir,
      ...(this.opts.privatePaths ?? []),
    ]);
  }

  /** Stops the session's turn, removes its file and forgets it. */
  async remove(id: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) return false;
    const removed = new Promise<void>((resolve) => {
      const off = this.bus.subscribe((event) => {
        if (event.type === "task.removed" && event.taskId === id) {
          off();
          resolve();
        }
      });
    });
    this.bus.send({ type: "task.delete", taskId: id });
    await removed;
    this.sessions.delete(id);
    return true;
  }

  /** Stops every turn and saves every session. */
  async shutdown(): Promise<void> {
    clearInterval(this.sweeper);
    for (const session of this.sessions.values()) if (session.orphaned) clearTimeout(session.orphaned);
    await this.manager.shutdown();
  }
}
