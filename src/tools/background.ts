// Background jobs of a session: started by run_command {background: true}, read, listed and
// killed by the task tools, reported to the UI as they change, killed when the session ends.
import { StringDecoder } from "node:string_decoder";
import { completeEnd } from "./bounded-output.js";
import { ToolError, type SessionTools, type ToolContext } from "./define.js";
import {
  commandEnv,
  groupAlive,
  onExitDrained,
  SHELL,
  spawnGroup,
  stopGroup,
  type GroupChild,
} from "./process-group.js";
import { JOBS_STORE_KEY } from "./job-store.js";
import { JOB_BUFFER_BYTES } from "./specs/task-tools.js";

export { existingJobs } from "./job-store.js";

export { JOB_BUFFER_BYTES };

/** Jobs that may run at once in one session. */
export const MAX_RUNNING_JOBS = 16;
/** Jobs remembered per session; the oldest finished ones are forgotten beyond this. */
const MAX_KEPT_JOBS = 64;
/** At most four output reports a second per job: the UI shows the last line, not a stream. */
const REPORT_INTERVAL_MS = 250;
const LAST_LINE_MAX = 200;
/** Reports go out several times a second: a long script is cut, the pane shows one line anyway. */
const REPORT_COMMAND_CHARS = 500;
const TAIL_CHARS = 1024;
/** Bounds the wait for the leader's exit after its group was killed (a process stuck in the kernel). */
const EXIT_WAIT_MS = 1_000;

export type JobState = "running" | "exited" | "killed" | "failed";

/**
 * A byte log that keeps only its last `cap` bytes. Offsets count every byte ever appended, so a
 * reader's offset stays valid while old output is dropped; `start` is the oldest offset kept.
 */
export class RollingLog {
  private chunks: Buffer[] = [];
  /** Index of the first live chunk; shifting an array per chunk would be quadratic. */
  private headIndex = 0;
  private kept = 0;
  private first = 0;

  constructor(readonly cap: number) {}

  get start(): number {
    return this.first;
  }

  get end(): number {
    return this.first + this.kept;
  }

  append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.kept += chunk.length;
    while (this.kept > this.cap) {
      const head = this.chunks[this.headIndex]!;
      const excess = this.kept - this.cap;
      const drop = Math.min(head.length, excess);
      if (drop === head.length) this.headIndex++;
      else this.chunks[this.headIndex] = head.subarray(drop);
      this.kept -= drop;
      this.first += drop;
    }
    if (this.headIndex > 1024) {
      this.chunks = this.chunks.slice(this.headIndex);
      this.headIndex = 0;
    }
  }

  /** Up to `max` bytes from `since` (or the oldest kept byte), cut at character boundaries. */
  read(since: number, max: number): { text: string; from: number; next: number } {
    const all = Buffer.concat(this.chunks.slice(this.headIndex));
    let rel = Math.max(0, since - this.first);
    while (rel < all.length && (all[rel]! & 0xc0) === 0x80) rel++;
    const slice = all.subarray(rel, Math.min(all.length, rel + max));
    const end = completeEnd(slice);
    return { text: slice.subarray(0, end).toString("utf8"), from: this.first + rel, next: this.first + rel + end };
  }
}

/** The last non-empty line of `tail` without terminal control sequences, for the results pane. */
export function lastLineOf(tail: string): string {
  const lines = tail.split(/\r\n|\n|\r/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, "")
      .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, "")
      .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "")
      .trim();
    if (line) return line.length > LAST_LINE_MAX ? `${line.slice(0, LAST_LINE_MAX - 1)}…` : line;
  }
  return "";
}

export interface StartOptions {
  cwd: string;
  /** The sandbox launcher's argv, placed before `bash -c COMMAND` as for foreground commands. */
  prefix: string[];
  /** Kill the job after this long; default never (it lives until killed or the session ends). */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** One background command: its process group, its output and how it ended. */
export class Job {
  state: JobState = "running";
  exitCode: number | null = null;
  signal: NodeJS.Signals | null = null;
  /** Why we stopped it (task_kill, the session's end, its timeout); null if it ended by itself. */
  killedBy: string | null = null;
  /** The last signal our stop needed: SIGKILL means it ignored SIGTERM. */
  stopSignal: "SIGTERM" | "SIGKILL" | null = null;
  failure: string | null = null;
  endedAt: number | null = null;
  /** Where the next task_output without `since` starts. */
  cursor = 0;
  readonly log = new RollingLog(JOB_BUFFER_BYTES);
  readonly pid: number | undefined;
  readonly startedAt = Date.now();
  readonly finished: Promise<void>;
  /** Processes of the group outlived the shell (`server &`): killed with the session too. */
  private leftover = false;
  private tail = "";
  private reportedLine = "";
  private lastReport = 0;
  private reportTimer: NodeJS.Timeout | null = null;
  private timeout: NodeJS.Timeout | null = null;
  private stopping: Promise<"SIGTERM" | "SIGKILL" | null> | null = null;
  private readonly child: GroupChild;

  constructor(
    readonly id: string,
    readonly command: string,
    options: StartOptions,
    private readonly session: SessionTools,
  ) {
    this.child = spawnGroup([...options.prefix, SHELL, "-c", command], {
      cwd: options.cwd,
      env: options.env ?? commandEnv(),
    });
    this.pid = this.child.pid;
    let resolveFinished: () => void = () => {};
    this.finished = new Promise((resolve) => (resolveFinished = resolve));
    let done = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null, failure?: string) => {
      if (done) return;
      done = true;
      if (this.timeout) clearTimeout(this.timeout);
      this.exitCode = code;
      this.signal = signal;
      this.endedAt = Date.now();
      if (failure !== undefined) {
        this.failure = failure;
        this.state = "failed";
      } else this.state = this.killedBy !== null || code === null ? "killed" : "exited";
      this.leftover = this.pid !== undefined && groupAlive(this.pid);
      this.report(true);
      resolveFinished();
    };

    for (const name of ["stdout", "stderr"] as const) {
      // Each stream decodes on its own, so interleaving never splits a character.
      const decoder = new StringDecoder("utf8");
      this.child[name].on("data", (chunk: Buffer) => this.write(decoder.write(chunk)));
      this.child[name].on("end", () => this.write(decoder.end()));
      this.child[name].on("error", () => {});
    }
    this.child.on("error", (error) => {
      this.write(`failed to start: ${error.message}\n`);
      finish(null, null, error.message);
    });
    // A grandchild may hold the pipes open (`server &`): the job ends with its shell all the same.
    onExitDrained(this.child, finish);
    if (options.timeoutMs !== undefined)
      this.timeout = setTimeout(() => void this.stop(`its timeout of ${options.timeoutMs} ms`), options.timeoutMs);
    this.report(true);
  }

  get lastLine(): string {
    return lastLineOf(this.tail);
  }

  /** Seconds since the start, up to the end when it ended. */
  get runtimeSeconds(): number {
    return ((this.endedAt ?? Date.now()) - this.startedAt) / 1000;
  }

  /** True when stopping it would kill something: it runs, or processes it left behind still do. */
  get stoppable(): boolean {
    return this.state === "running" || (this.leftover && this.pid !== undefined && groupAlive(this.pid));
  }

  /** One phrase: "running for 2.0 s", "exited with code 1 after 0.3 s", ... */
  describe(): string {
    const secs = `${this.runtimeSeconds.toFixed(1)} s`;
    switch (this.state) {
      case "running":
        return `running for ${secs}`;
      case "exited":
        return `exited with code ${this.exitCode} after ${secs}`;
      case "failed":
        return `failed to start: ${this.failure}`;
      case "killed": {
        if (this.killedBy === null) return `killed by ${this.signal ?? "a signal"} after ${secs}`;
        const how = this.stopSignal === "SIGKILL" ? "SIGKILL after it ignored SIGTERM" : "SIGTERM";
        return `killed after ${secs} (${this.killedBy}; ${how})`;
      }
      default:
        return this.state satisfies never;
    }
  }

  /**
   * Contract: stops the whole process group (TERM, then KILL after 2 s) and resolves once the
   * job has ended, or at once when nothing is left to stop. Calls while a stop runs share it.
   */
  async stop(reason: string): Promise<void> {
    if (this.state === "running") this.killedBy ??= reason;
    this.stopping ??= stopGroup(this.pid).then((sig) => {
      if (sig !== null) this.stopSignal = sig;
      return sig;
    });
    await this.stopping;
    await Promise.race([this.finished, new Promise((resolve) => setTimeout(resolve, EXIT_WAIT_MS))]);
    // Later calls (the session ending) must try again if something survived this one.
    this.stopping = null;
  }

  private write(text: string): void {
    if (!text) return;
    this.log.append(Buffer.from(text, "utf8"));
    this.tail = (this.tail + text).slice(-TAIL_CHARS);
    this.report(false);
  }

  /** Reports a state change at once and a new last line at most every REPORT_INTERVAL_MS. */
  private report(stateChanged: boolean): void {
    const send = () => {
      if (this.reportTimer) clearTimeout(this.reportTimer);
      this.reportTimer = null;
      this.lastReport = Date.now();
      this.reportedLine = this.lastLine;
      this.session.report({
        kind: "background",
        job: {
          id: this.id,
          command: this.command.slice(0, REPORT_COMMAND_CHARS),
          state: this.state,
          exitCode: this.exitCode,
          lastLine: this.reportedLine,
          startedAt: new Date(this.startedAt).toISOString(),
        },
      });
    };
    if (stateChanged) return send();
    if (this.reportTimer || this.lastLine === this.reportedLine) return;
    const wait = this.lastReport + REPORT_INTERVAL_MS - Date.now();
    if (wait <= 0) send();
    else this.reportTimer = setTimeout(send, wait);
  }
}

/** Contract: one per session, kept in the session's store; its jobs die with the session. */
export class BackgroundJobs {
  private readonly jobs = new Map<string, Job>();
  private counter = 0;
  private closed = false;

  constructor(private readonly session: SessionTools) {
    session.onClose(() => this.closeAll());
  }

  start(command: string, options: StartOptions): Job {
    if (this.closed) throw new ToolError("the session has ended: no new background jobs");
    const running = this.list().filter((job) => job.state === "running");
    if (running.length >= MAX_RUNNING_JOBS) {
      throw new ToolError(
        `refused: ${running.length} background jobs are already running (${running.map((j) => j.id).join(", ")}), the limit is ${MAX_RUNNING_JOBS}. ` +
          "Stop one with task_kill or wait for one to end.",
      );
    }
    for (const job of this.jobs.values()) {
      if (this.jobs.size < MAX_KEPT_JOBS) break;
      if (job.state !== "running") this.jobs.delete(job.id);
    }
    const job = new Job(`job-${++this.counter}`, command, options, this.session);
    this.jobs.set(job.id, job);
    return job;
  }

  list(): Job[] {
    return [...this.jobs.values()];
  }

  get(id: string): Job {
    const job = this.jobs.get(id);
    if (job) return job;
    const known = [...this.jobs.keys()];
    throw new ToolError(
      known.length
        ? `unknown job "${id}": this session's jobs are ${known.join(", ")}`
        : `unknown job "${id}": this session has no background jobs`,
    );
  }

  /** Kills every job still running and whatever finished jobs left behind. */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.list()
        .filter((job) => job.stoppable)
        .map((job) => job.stop("the session ended")),
    );
  }
}

/** The session's jobs, created (and tied to the session's end) on first use. */
export function jobsOf(ctx: ToolContext): BackgroundJobs {
  const session = ctx.session;
  if (!session)
    throw new ToolError(
      "background jobs need a session and this run has none: run the command in the foreground with a timeout",
    );
  const existing = session.store.get(JOBS_STORE_KEY);
  if (existing instanceof BackgroundJobs) return existing;
  const jobs = new BackgroundJobs(session);
  session.store.set(JOBS_STORE_KEY, jobs);
  return jobs;
}
