// The daemon's sessions: one task of a TaskManager per session id, turns served one at a time per
// session (in arrival order) and in parallel across sessions, and a log of recent events per
// session so a client that reconnects gets what it missed.
import { constants, lstatSync, promises as fs } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { TaskManager } from "../agent/tasks.js";
import type { Extensions } from "../agent/extensions.js";
import type { ModelClient } from "../agent/model-client.js";
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import { Bus } from "../protocol/bus.js";
import type { BusCommand } from "../protocol/commands.js";
import type { BusEvent, EventOf } from "../protocol/events.js";
import { randomId } from "../protocol/ids.js";
import { sessionFileFor } from "../session/store.js";

import { SESSION_ID, type FileAt, type SessionDetail, type SessionInfo } from "../remote/wire.js";
import { fileAt } from "./files.js";
import { withWalk } from "../tools/safe-fs.js";
import { createNew, unlinkTarget } from "../tools/safe-fs-ops.js";

export { SESSION_ID };

/** Events kept per session for reconnecting clients (the current and the last turn at most). */
export const LOG_CAP = 20_000;

export interface LoggedEvent {
  /** `<boot>.<seq>`: the SSE id; a daemon restart changes `boot`, so old ids are known stale. */
  id: string;
  seq: number;
  event: BusEvent;
}

type Loaded = Omit<EventOf<"session.loaded">, "type" | "taskId" | "agentId">;
const EMPTY: Loaded = { messages: [], transcript: [] };

export interface TurnOutcome {
  reason: EventOf<"turn.completed">["reason"];
  response: string;
  error?: string;
  usage: { prompt: number; completion: number };
  steps: number;
}

interface Session {
  id: string;
  log: LoggedEvent[];
  /** Every event of this session after this seq is in `log`. */
  floor: number;
  /** Where the previous turn's events start in `log` (dropped when the next turn starts). */
  lastTurnAt: number;
  /** Set from the main agent's turn.started to its turn.completed. */
  inTurn: boolean;
  turnStartSeq: number;
  /** The history before the running turn, for a client that attaches mid-turn. */
  /** The history before the running turn, as session.loaded carries it. */
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
}

const TITLE_PEEK_BYTES = 4096;

/** The title near the start of a session file (saved before the messages), without reading it all. */
async function peekTitle(file: string): Promise<string | null> {
  let handle: fs.FileHandle | null = null;
  try {
    // A link or a FIFO planted in the session folder is neither followed nor waited on.
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (!(await handle.stat()).isFile()) return null;
    const buffer = Buffer.alloc(TITLE_PEEK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, TITLE_PEEK_BYTES, 0);
    const match = /"title":("(?:[^"\\]|\\.)*")/.exec(buffer.subarray(0, bytesRead).toString("utf8"));
    return match ? (JSON.parse(match[1]!) as string) : null;
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
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
      settings: opts.settings,
      bus: this.bus,
      // A call that needs approval is asked while a front end is attached, else refused with a reason.
      interactive: (id) => (this.sessions.get(id)?.watchers ?? 0) > 0,
      approval: opts.settings.approval ?? "never",
      mode: opts.settings.mode,
      extensions: opts.extensions,
      index: false,
      ...(opts.client ? { client: opts.client } : {}),
    });
    this.bus.subscribe((event) => this.record(event));
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
      session.floor = this.seq;
      session.log = [];
      session.lastTurnAt = 0;
      session.base = EMPTY;
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
      session = {
        id,
        log: [],
        floor: this.seq,
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
      this.sessions.set(id, session);
    }
    if (!this.manager.has(id)) this.manager.add(id, { sessionFile: sessionFileFor(this.opts.sessionDir, id) });
    return session;
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
      // turn.started is emitted before the prompt joins the history: this is the history before it.
      session.base = this.manager.loadedAgent(session.id)?.loadedView() ?? EMPTY;
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
    for (const listener of session.listeners) listener(logged);
  }

  /**
   * Runs one turn of `prompt` once the session's earlier turns are done; `onEvent` sees every event
   * of the session from the submit to the turn's end. A client going away does not stop the turn.
   */
  async runTurn(id: string, prompt: string, onEvent?: (event: LoggedEvent) => void): Promise<TurnOutcome> {
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
      const listener = (logged: LoggedEvent) => {
        const event = logged.event;
        if (event.type === "turn.completed" && event.agentId === undefined) completed ??= event;
        if (event.type === "notice" && event.level === "error") failure = event.text;
        onEvent?.(logged);
      };
      session.listeners.add(listener);
      try {
        this.bus.send({ type: "user.submit", taskId: id, text: prompt });
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
          usage: { prompt: 0, completion: 0 },
          steps: 0,
        };
      return {
        reason: done.reason,
        response: done.response,
        ...(done.error ? { error: done.error } : {}),
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
    return join(this.opts.sessionDir, ".uploads");
  }

  /** Keeps an uploaded image (mode 600) for a prompt; returns its path. */
  async storeUpload(name: string, data: Buffer): Promise<string> {
    const safe =
      basename(name)
        .replace(/[^A-Za-z0-9._-]/g, "_")
        .slice(-80) || "image";
    const path = join(this.uploadDir, `${randomId(10)}-${safe}`);
    // Made new (never through a link) in a folder reached by the no-follow walk.
    await withWalk(path, { followFinal: false }, (w) => {
      w.makeParents(0o700);
      return createNew(w, data, 0o600);
    });
    return path;
  }

  /** Removes uploads older than `maxAgeMs` (a prompt uses its images when its turn starts). */
  async pruneUploads(maxAgeMs: number): Promise<void> {
    const names = await fs.readdir(this.uploadDir).catch(() => [] as string[]);
    await Promise.all(
      names.map(async (name) => {
        await withWalk(join(this.uploadDir, name), { followFinal: false }, (w) => {
          const stat = w.lstat();
          if (stat && !stat.isDirectory() && Date.now() - stat.mtimeMs > maxAgeMs) unlinkTarget(w);
        }).catch(() => {});
      }),
    );
  }

  /**
   * Passes a front end's command to the session's task (the id in the command is replaced).
   * Returns why it was refused, or null.
   */
  command(id: string, command: BusCommand): string | null {
    const session = this.ensure(id);
    if (command.type === "approval.reply" && !session.pending.has(command.requestId))
      return `no approval ${command.requestId} is waiting in session "${id}"`;
    // Images come only from uploads: a path of the daemon's own files is not for clients to name.
    // An upload is a regular file the daemon made: a link planted in the folder is no upload.
    const notUpload = (path: string) =>
      dirname(resolve(path)) !== this.uploadDir || !lstatSync(resolve(path), { throwIfNoEntry: false })?.isFile();
    if (command.type === "user.submit" && command.images?.some(notUpload))
      return "images must be uploaded first (POST /v1/sessions/ID/images) and named by the path that returns";
    this.bus.send({ ...command, taskId: id } as BusCommand);
    return null;
  }

  /** A front end attached: approvals are asked again, and those waiting stay. */
  private attached(session: Session): void {
    session.watchers++;
    if (session.orphaned) clearTimeout(session.orphaned);
    session.orphaned = null;
  }

  /** A front end went away; when it was the last, waiting approvals get a while for one to come back. */
  private detached(session: Session): void {
    session.watchers--;
    if (session.watchers > 0 || session.pending.size === 0 || session.orphaned) return;
    const waitMs = this.opts.approvalWaitMs ?? 15 * 60_000;
    session.orphaned = setTimeout(() => {
      session.orphaned = null;
      if (session.watchers > 0) return;
      for (const requestId of [...session.pending]) {
        this.bus.send({
          type: "approval.reply",
          taskId: session.id,
          requestId,
          decision: "deny",
          note: `nobody answered within ${Math.round(waitMs / 60_000)} min (the front end detached)`,
        });
      }
    }, waitMs);
    session.orphaned.unref();
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
    this.attached(session);
    let attached = true;
    return () => {
      session.listeners.delete(send);
      if (attached) this.detached(session);
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
    return infos.filter((i): i is SessionInfo => i !== null).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
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
