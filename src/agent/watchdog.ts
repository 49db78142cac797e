// The clock of one model request attempt: an idle limit that only content counts against, an
// overall deadline, and a periodic "still waiting" report while nothing useful arrives.

/** How long a request has been waiting, for the "waiting for the model" line. */
export interface WaitInfo {
  /** Since the last content, reasoning or tool-call byte (or since the request was sent). */
  idleMs: number;
  /** Since the request was sent. */
  elapsedMs: number;
  /** The attempt ends when `idleMs` reaches this. */
  idleLimitMs: number;
  /** The attempt ends when `elapsedMs` reaches this. */
  deadlineMs: number;
}

export interface WatchdogOptions {
  /** No content bytes for this long ends the attempt, whatever else (keep-alive comments, empty deltas) arrives. */
  idleMs: number;
  /** The attempt ends this long after it was sent, content or not. */
  deadlineMs: number;
  /** While idle, `onWait` is called every this often (the first after this long without content). */
  noticeMs: number;
  onWait?: (info: WaitInfo) => void;
}

export type Expiry = "idle" | "deadline";

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Contract: `signal` aborts when the parent signal does or when a limit passes; `expired` then says
 * which limit (null for the parent's abort). `activity()` is called for every content byte seen;
 * `dispose()` stops every timer and must be called when the attempt ends.
 */
export class RequestWatchdog {
  readonly signal: AbortSignal;
  expired: Expiry | null = null;
  private readonly controller = new AbortController();
  private readonly started = Date.now();
  private lastActivity = this.started;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly idle: NodeJS.Timeout;
  private readonly unlink: () => void;

  constructor(
    parent: AbortSignal,
    private readonly options: WatchdogOptions,
  ) {
    this.signal = this.controller.signal;
    const onParent = () => this.controller.abort();
    parent.addEventListener("abort", onParent, { once: true });
    this.unlink = () => parent.removeEventListener("abort", onParent);
    if (parent.aborted) this.controller.abort();
    this.idle = setTimeout(() => this.expire("idle"), Math.min(options.idleMs, MAX_TIMER_MS));
    this.timers.push(this.idle);
    // Node fires a longer timer at once: a deadline past the timer range means none.
    if (options.deadlineMs <= MAX_TIMER_MS)
      this.timers.push(setTimeout(() => this.expire("deadline"), options.deadlineMs));
    if (options.onWait) this.timers.push(setInterval(() => this.tick(), options.noticeMs));
  }

  /** A content, reasoning or tool-call byte arrived: the idle clock starts again. */
  activity(): void {
    this.lastActivity = Date.now();
    this.idle.refresh();
  }

  /** A one-line reason for a failed attempt, or null when no limit passed. */
  describe(): string | null {
    if (this.expired === "idle")
      return `the model sent no content for ${seconds(this.options.idleMs)} (requestTimeoutMs)`;
    if (this.expired === "deadline")
      return `the model did not finish its reply within ${seconds(this.options.deadlineMs)} (requestDeadlineMs)`;
    return null;
  }

  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.unlink();
  }

  private tick(): void {
    const now = Date.now();
    const idleMs = now - this.lastActivity;
    if (this.expired || idleMs < this.options.noticeMs) return;
    this.options.onWait?.({
      idleMs,
      elapsedMs: now - this.started,
      idleLimitMs: this.options.idleMs,
      deadlineMs: this.options.deadlineMs,
    });
  }

  private expire(which: Expiry): void {
    if (this.expired || this.signal.aborted) return;
    this.expired = which;
    this.dispose();
    this.controller.abort();
  }
}

export function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}
