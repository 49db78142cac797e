// The daemon's scheduler: one timer to the earliest due instant plus a safety tick. Each pass reads
// the jobs from the ledger, enumerates the unrecorded instants up to now (never later), applies the
// missed-run rules and queues the runs; at most `maxConcurrent` run at once, one per job, so a
// catch-up never bursts. Every instant is claimed in the ledger before its run starts.
import { log } from "../config/log.js";
import { planDue } from "./plan.js";
import { compileSchedule, type Schedule } from "./schedule.js";
import type { CronJob, CronRun, CronStore } from "./store.js";

/** How one run ended (the daemon's runner, src/daemon/cron-runner.ts, makes it). */
export interface RunResult {
  status: "completed" | "failed";
  response: string | null;
  error: string | null;
  /** The refusals nobody could answer, one line each. */
  refused: string[];
}

export interface SchedulerOptions {
  store: CronStore;
  /** Runs one claimed instant; the session id is the run's. */
  run(job: CronJob, runId: number, signal: AbortSignal): Promise<RunResult & { session: string }>;
  /** Called once the run's row is final (the daemon lists the session then). */
  onRunEnd?(run: CronRun): void;
  /**
   * A team's shared claim on a scheduled instant (UNIQUE(job, instant) in the team's database):
   * resolves to null when this daemon won it, else who fired it. Absent on a daemon of its own.
   * Manual runs (`cron run`) are the asking daemon's alone and never ask.
   */
  claimShared?(job: string, instant: number): Promise<string | null>;
  /** Runs at once across all jobs (default 2). */
  maxConcurrent?: number;
  /** The safety tick (default 5 s): picks up jobs added by `nanohermes cron add` and clock jumps. */
  tickMs?: number;
  /** Failed runs in a row that pause a job (default 3). */
  pauseAfter?: number;
  report?(line: string): void;
}

interface Queued {
  job: string;
  instant: number;
}

/** Why `runNow` did not start a run. */
export type RunNowRefusal = { refused: "unknown" | "busy"; message: string };

export class CronScheduler {
  private readonly queue: Queued[] = [];
  private readonly active = new Map<string, AbortController>();
  private readonly settled = new Set<Promise<void>>();
  private readonly schedules = new Map<string, Schedule>();
  private timer: NodeJS.Timeout | null = null;
  private tick: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly opts: SchedulerOptions;

  constructor(opts: SchedulerOptions) {
    this.opts = opts;
  }

  /** Marks what a dead daemon left claimed or running as interrupted, then catches up. */
  start(): void {
    const interrupted = this.opts.store.interruptLeftovers();
    if (interrupted > 0) this.report(`${interrupted} run(s) left by a daemon that stopped are marked interrupted`);
    this.pass(true);
    this.tick = setInterval(() => this.pass(false), this.opts.tickMs ?? 5000);
    this.tick.unref();
  }

  /** Plans again now (after a job was added, paused or resumed through the API). */
  wake(): void {
    if (!this.stopped) this.pass(false);
  }

  /** Whether a run of `job` is going (in this daemon). */
  isRunning(job: string): boolean {
    return this.active.has(job);
  }

  /** Stops the running turns and waits for their rows to be written. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.tick) clearInterval(this.tick);
    for (const controller of this.active.values()) controller.abort();
    await Promise.all([...this.settled]);
  }

  /** Claims this instant for `name` and starts it now (the concurrency cap aside). */
  runNow(name: string): { id: number; instant: number } | RunNowRefusal {
    const job = this.opts.store.job(name);
    if (!job) return { refused: "unknown", message: `no cron job named "${name}"` };
    const running = this.opts.store.running(name);
    if (running || this.active.has(name))
      return {
        refused: "busy",
        message: `cron ${name} is running already${running ? ` (run ${running.id}${running.session ? `, session ${running.session}` : ""})` : ""}; try again when it ends`,
      };
    const instant = Date.now();
    const claim = this.opts.store.claim(name, instant, true);
    if ("refused" in claim) return { refused: "busy", message: `cron ${name} is running already` };
    this.launch(job, claim.id);
    return { id: claim.id, instant };
  }

  private report(line: string): void {
    this.opts.report?.(`cron: ${line}`);
  }

  private scheduleOf(job: CronJob): Schedule | null {
    const key = `${job.name}\0${job.schedule}\0${job.tz}\0${job.createdAt}`;
    let schedule = this.schedules.get(key);
    if (!schedule) {
      try {
        schedule = compileSchedule(job.schedule, job.tz, job.createdAt);
      } catch (error) {
        // Checked when added; a zone this Node no longer knows pauses the job instead of failing every pass.
        this.opts.store.setEnabled(job.name, false, `the schedule no longer reads: ${(error as Error).message}`);
        return null;
      }
      this.schedules.set(key, schedule);
    }
    return schedule;
  }

  /** Records or queues every due instant, then arms the timer for the earliest next one. */
  private pass(startup: boolean): void {
    if (this.stopped) return;
    const now = Date.now();
    let earliest = Number.POSITIVE_INFINITY;
    try {
      for (const job of this.opts.store.jobs()) {
        const schedule = this.scheduleOf(job);
        if (!schedule) continue;
        const queued = this.queue.filter((q) => q.job === job.name).map((q) => q.instant);
        const after = Math.max(this.opts.store.watermark(job), ...queued);
        let at = schedule.next(after);
        const due: number[] = [];
        for (; at !== null && at <= now && due.length < 1000; at = schedule.next(at)) due.push(at);
        if (due.length > 0) {
          if (!job.enabled) this.opts.store.record(job.name, due, "skipped", `paused: ${job.pausedReason ?? ""}`);
          else {
            const plan = planDue(due, now, job.missed, startup);
            if (plan.skipped.length) this.opts.store.record(job.name, plan.skipped, "skipped", "missed (rule: skip)");
            if (plan.coalesced.length)
              this.opts.store.record(job.name, plan.coalesced, "coalesced", "missed; ran once for the newest");
            if (plan.skipped.length + plan.coalesced.length > 0)
              this.report(
                `${job.name}: ${plan.skipped.length} missed run(s) skipped, ${plan.coalesced.length} coalesced, ${plan.run.length} to run`,
              );
            for (const instant of plan.run) this.queue.push({ job: job.name, instant });
          }
        }
        if (at !== null && job.enabled) earliest = Math.min(earliest, at);
      }
    } catch (error) {
      log("error", "cron pass", error);
    }
    this.pump();
    if (this.timer) clearTimeout(this.timer);
    if (Number.isFinite(earliest)) {
      // setTimeout holds at most ~24.8 days; the safety tick covers longer waits anyway.
      this.timer = setTimeout(() => this.pass(false), Math.min(Math.max(0, earliest - Date.now()), 2 ** 31 - 1));
      this.timer.unref();
    }
  }

  /** Starts queued runs while there is room, oldest first, one per job. */
  private pump(): void {
    const max = this.opts.maxConcurrent ?? 2;
    for (let i = 0; i < this.queue.length && this.active.size < max && !this.stopped; ) {
      const next = this.queue[i]!;
      if (this.active.has(next.job)) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      const job = this.opts.store.job(next.job);
      if (!job?.enabled) continue;
      const claim = this.opts.store.claim(job.name, next.instant, false);
      if ("refused" in claim) {
        if (claim.refused === "busy") this.queue.splice(i, 0, next), i++;
        continue;
      }
      this.launch(job, claim.id, next.instant);
    }
  }

  /** The shared claim's answer: null when this daemon runs the instant (at once when it has no team). */
  private firedBy(job: CronJob, runId: number, instant: number | null): Promise<string | null> | null {
    if (instant === null || !this.opts.claimShared) return null;
    return this.opts.claimShared(job.name, instant).then((other) => {
      if (other !== null) {
        this.opts.store.firedElsewhere(runId, `fired by ${other}`);
        this.report(`${job.name}: ${new Date(instant).toISOString()} was fired by ${other}`);
      }
      return other;
    });
  }

  private launch(job: CronJob, runId: number, instant: number | null = null): void {
    const controller = new AbortController();
    this.active.set(job.name, controller);
    const shared = this.firedBy(job, runId, instant);
    // Without a team the run starts now, as before; in one it starts once the instant is ours.
    const started = shared
      ? shared.then((other) => (other === null ? this.opts.run(job, runId, controller.signal) : null))
      : this.opts.run(job, runId, controller.signal);
    const done = started
      .catch((error: unknown): RunResult & { session: string } => ({
        status: "failed",
        response: null,
        error: (error as Error).message,
        refused: [],
        session: "",
      }))
      .then((result) => {
        if (result === null) return;
        const store = this.opts.store;
        // A daemon stopping mid-run leaves the row for the next start to mark interrupted.
        if (this.stopped && result.status === "failed") return;
        for (const text of result.refused) store.park(job.name, runId, `cron ${job.name} wanted: ${text}`);
        const run = store.finish(runId, result.status, result.response, result.error);
        this.report(`${job.name}: run ${runId} ${run.status}${run.error ? `: ${run.error}` : ""}`);
        const failures = store.job(job.name)?.failures ?? 0;
        const limit = this.opts.pauseAfter ?? 3;
        if (result.status === "failed" && failures >= limit) {
          store.setEnabled(
            job.name,
            false,
            `paused after ${failures} failed runs in a row; last: ${result.error ?? "failed"}`,
          );
          store.park(
            job.name,
            runId,
            `cron ${job.name} was paused after ${failures} failed runs: ${result.error ?? ""}`,
          );
        }
        this.opts.onRunEnd?.(run);
      })
      .catch((error: unknown) => log("error", `cron run ${runId}`, error))
      .finally(() => {
        this.active.delete(job.name);
        this.settled.delete(done);
        this.pump();
      });
    this.settled.add(done);
  }
}
