// A daemon in a team (--database-url): turns go through the shared TurnQueue to whichever daemon
// takes them, events through the shared EventFanout to whichever daemon follows, and sessions
// live in the shared SessionStore. The daemon that takes a turn runs it with its own
// DaemonSessions on a local copy of the session, loaded from the store first and saved back after
// every whole step, so the store is never more than a step behind.
import { promises as fs, readFileSync } from "node:fs";
import { log } from "../config/log.js";
import type { BusCommand } from "../protocol/commands.js";
import type { BusEvent } from "../protocol/events.js";
import { sessionFileFor, writeSessionText } from "../session/store.js";
import type { SessionInfo } from "../remote/wire.js";
import type { DaemonSessions, LoggedEvent, TurnOutcome } from "./sessions.js";
import type { FannedEvent, TeamStore, TurnImage, TurnJob, TurnResult } from "./team/contract.js";
import { interruptedPrompt, resumeHistory } from "./team/resume.js";
import { TeamCommands } from "./team-commands.js";

/** The SSE id of a team event: `t.<seq>` (a seq of the shared store, valid on every daemon). */
const eventId = (seq: number) => `t.${seq}`;

/** What a snapshot takes from the local copy: the task, the session and its history, the checkpoints. */
const SNAPSHOT_TYPES = new Set<string>(["task.updated", "session.started", "session.loaded", "checkpoints.updated"]);

export class TeamDaemon {
  /** Saves to the store, one after another per session. */
  private readonly saves = new Map<string, Promise<void>>();

  private readonly commands: TeamCommands;

  constructor(
    readonly store: TeamStore,
    private readonly sessions: DaemonSessions,
    private readonly sessionDir: string,
  ) {
    this.commands = new TeamCommands(store, sessions, (id, prompt, images) =>
      this.runTurn(id, prompt, undefined, images),
    );
  }

  /** Starts taking turns from the shared queue, and the commands other daemons send this one. */
  start(concurrency: number): void {
    this.store.turns.work(concurrency, (job, signal) => this.runJob(job, signal));
    this.commands.start();
  }

  /**
   * Puts `text` (the session as the store has it) in the local copy, so the next load reads it;
   * the session is served here only once its copy is in place.
   */
  private async hydrate(id: string, text: string | null): Promise<void> {
    const file = sessionFileFor(this.sessionDir, id);
    const local = await fs.readFile(file, "utf8").catch(() => null);
    // This daemon ran the session's last turn: its loaded agent is current and stays.
    if (local === text) return;
    await this.sessions.manager.unload(id);
    if (text !== null) {
      await fs.mkdir(this.sessionDir, { recursive: true, mode: 0o700 });
      await writeSessionText(file, text);
      this.sessions.adopt(id);
    } else await fs.rm(file, { force: true });
  }

  /**
   * Queues a save of `text` for the store (after the earlier ones), with the seq of the last event
   * it reflects once that is published (a failed publish saves it without one).
   */
  private pushSave(id: string, text: string, seq: Promise<number>): Promise<void> {
    const previous = this.saves.get(id) ?? Promise.resolve();
    const next = previous.then(async () => {
      const eventsSeq = await seq.catch(() => undefined);
      await this.store.sessions.saveStep(id, text, eventsSeq);
    });
    const settled = next.catch((error: unknown) => log("error", `team: saving session ${id} to the store`, error));
    this.saves.set(id, settled);
    return next;
  }

  /** What the daemon that took the turn does: load, run, publish every event, save every step. */
  private async runJob(job: TurnJob, signal: AbortSignal): Promise<TurnResult> {
    const id = job.session;
    // Who is attached now, on any daemon (an attachment made just before the post counts).
    await this.store.relay
      ?.refresh()
      .catch((error: unknown) => log("warn", "team: reading the attached front ends", error));
    let text = await this.store.sessions.load(id);
    let prompt = job.prompt;
    if (job.eventsFrom === null) {
      // Where this turn's events start: a daemon that resumes it reads from here.
      await this.store.turns.markStart(job.turnId, await this.store.events.head());
    } else {
      // Its daemon died mid-turn: the stored history is at most a step behind. Calls that were
      // running are answered as interrupted (never run again) and the model is told what happened.
      const { events, last } = await this.turnEvents(id, job.eventsFrom);
      // It had ended and been saved; only its end was not recorded: that is all that is owed.
      const ended = events.find((e) => e.type === "turn.completed" && e.agentId === undefined);
      if (ended?.type === "turn.completed") {
        const { type: _t, taskId: _id, turnId: _turn, ...outcome } = ended;
        return { ...outcome };
      }
      const resumed = resumeHistory(text, events);
      if (resumed.text !== null) {
        // It holds every step those events finished: a follower starts after them.
        await this.store.sessions.saveStep(id, resumed.text, last);
        text = resumed.text;
      }
      prompt = interruptedPrompt(job.prompt, resumed.interrupted, resumed.promptKept);
    }
    await this.hydrate(id, text);
    // The prompt's images, sent with the turn, become this daemon's uploads for it.
    const images = await Promise.all((job.images ?? []).map((i) => this.sessions.storeUpload(i.name, i.data)));
    const publishes: Promise<void>[] = [];
    /** The newest seq this turn published. */
    let last = 0;
    const onAbort = () => this.sessions.cancel(id, false);
    signal.addEventListener("abort", onAbort);
    // Stopped before it began (a cancel that came while the session was loading): nothing ran.
    if (signal.aborted) {
      signal.removeEventListener("abort", onAbort);
      return { reason: "interrupted", response: "", usage: { prompt: 0, completion: 0 }, steps: 0 };
    }
    let outcome: TurnOutcome;
    try {
      outcome = await this.sessions.runTurn(
        id,
        prompt,
        (logged) => {
          const published = this.store.events.publish(id, logged.event);
          publishes.push(
            published.then(
              (seq) => void (last = Math.max(last, seq)),
              () => {},
            ),
          );
          // The text as this step saved it, read now (the next save cannot have happened yet), is
          // stored with its session.saved's seq: a follower starts after it.
          if (logged.event.type === "session.saved" && logged.event.agentId === undefined) {
            const text = this.localText(id);
            if (text !== null) void this.pushSave(id, text, published).catch(() => {});
          }
        },
        images,
      );
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    await Promise.all(publishes);
    await (this.saves.get(id) ?? Promise.resolve());
    // What the local copy holds now is what the next daemon starts from; it reflects the whole turn.
    const final = this.localText(id);
    if (final !== null) await this.pushSave(id, final, Promise.resolve(last)).catch(() => {});
    return { ...outcome };
  }

  /** The local copy's text (null when there is none). */
  private localText(id: string): string | null {
    try {
      return readFileSync(sessionFileFor(this.sessionDir, id), "utf8");
    } catch (error) {
      log("error", `team: reading the local copy of ${id}`, error);
      return null;
    }
  }

  /** The events of the turn an earlier attempt ran (published after `from`), for a resume. */
  private async turnEvents(id: string, from: number): Promise<{ events: BusEvent[]; last: number }> {
    const events: BusEvent[] = [];
    let last = from;
    const following = await this.store.events.follow(id, from, (e) => {
      events.push(e.event);
      last = e.seq;
    });
    await following.caughtUp();
    following.stop();
    return { events, last };
  }

  /** POST / and /turns: queue the turn, stream the session's events until it ends. */
  async runTurn(
    id: string,
    prompt: string,
    onEvent?: (event: LoggedEvent) => void,
    images: TurnImage[] = [],
  ): Promise<TurnOutcome> {
    const following = onEvent
      ? await this.store.events.follow(id, await this.store.events.head(), (e) =>
          onEvent({ id: eventId(e.seq), seq: e.seq, event: e.event }),
        )
      : null;
    try {
      const turnId = await this.store.turns.enqueue(id, prompt, images);
      const result = await this.store.turns.wait(turnId);
      await following?.caughtUp();
      return result as unknown as TurnOutcome;
    } finally {
      following?.stop();
    }
  }

  /** GET /events: the session's history (from the store), then its events from any daemon. */
  async subscribe(
    id: string,
    lastEventId: string | undefined,
    send: (event: LoggedEvent) => void,
    ready: (snapshot: boolean) => void = () => {},
  ): Promise<() => void> {
    // Attached on every daemon's count before anything is sent: the daemon running this session's
    // turn asks for approvals from then on.
    const detach = await this.store.relay?.attach(id).catch((error: unknown) => {
      log("warn", `team: attaching to ${id} (approvals will not be asked)`, error);
      return undefined;
    });
    try {
      return await this.follow(id, lastEventId, send, ready, detach);
    } catch (error) {
      detach?.();
      throw error;
    }
  }

  private async follow(
    id: string,
    lastEventId: string | undefined,
    send: (event: LoggedEvent) => void,
    ready: (snapshot: boolean) => void,
    detach: (() => void) | undefined,
  ): Promise<() => void> {
    const forward = (e: FannedEvent) => send({ id: eventId(e.seq), seq: e.seq, event: e.event });
    const match = /^t\.(\d+)$/.exec(lastEventId ?? "");
    if (match) {
      ready(false);
      const following = await this.store.events.follow(id, Number(match[1]), forward);
      return () => {
        following.stop();
        detach?.();
      };
    }
    // The fan-out first (from the running turn's start, or from now), held back until the
    // snapshot is out; then only what the snapshot's history does not hold yet.
    const held: FannedEvent[] = [];
    let boundary: number | null = null;
    const following = await this.store.events.follow(id, null, (e) => {
      if (boundary === null) held.push(e);
      else if (e.seq > boundary) forward(e);
    });
    try {
      const upTo = await this.snapshot(id, held, send);
      ready(true);
      for (const e of held) if (e.seq > upTo) forward(e);
      held.length = 0;
      boundary = upTo;
    } catch (error) {
      following.stop();
      throw error;
    }
    return () => {
      following.stop();
      detach?.();
    };
  }

  /**
   * Sends the session's snapshot and returns the seq its history reaches: later events complete
   * it, earlier ones are in it. A turn running here: the history before it (the engine's own
   * snapshot), then every event of the turn. Else the session as stored, which holds the running
   * turn's finished steps up to its save's seq; that turn's turn.started goes first (so a front
   * end shows a turn running), and the history then replaces what it drew.
   */
  private async snapshot(
    id: string,
    held: readonly FannedEvent[],
    send: (event: LoggedEvent) => void,
  ): Promise<number> {
    const here = this.sessions.manager.isRunning(id);
    let upTo = 0;
    if (!here) {
      const stored = await this.store.sessions.loadAt(id);
      await this.hydrate(id, stored?.text ?? null);
      upTo = stored?.eventsSeq ?? 0;
    }
    const start = held.find((e) => e.event.type === "turn.started" && e.event.agentId === undefined);
    if (start && start.seq <= upTo) send({ id: eventId(start.seq), seq: start.seq, event: start.event });
    // Only the session's state from the local snapshot: the turn's events come from the fan-out.
    const off = await this.sessions.subscribe(id, undefined, (logged) => {
      if (SNAPSHOT_TYPES.has(logged.event.type)) send(logged);
    });
    off();
    return upTo;
  }

  /** A front end's command in a team (see TeamCommands.command). */
  command(id: string, command: BusCommand): Promise<string | null | undefined> {
    return this.commands.command(id, command);
  }

  /** Stops the session's running turn on whichever daemon runs it (`force` kills its tools there). */
  cancel(id: string, force = false): Promise<boolean> {
    return this.commands.cancel(id, force);
  }

  /** Every stored session, newest first. */
  async list(): Promise<SessionInfo[]> {
    const stored = await this.store.sessions.list();
    return Promise.all(
      stored.map(async (s) => {
        const running = (await this.store.turns.running(s.id)) !== null;
        return {
          id: s.id,
          title: s.title ?? "New task",
          status: running ? ("running" as const) : ("idle" as const),
          updatedAt: s.updatedAt,
          running,
        };
      }),
    );
  }

  async health(): Promise<{ store: string; database: string; queueDepth: number }> {
    return { store: this.store.kind, ...(await this.store.health()) };
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
