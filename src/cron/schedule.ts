// A job's schedule: a 5-field cron expression, a 6-field one with seconds, or `@every 30m`, read
// in a time zone. Instants are computed by croner; this module only validates and enumerates.
import { Cron } from "croner";
import { CronInputError } from "./errors.js";

export { CronInputError };

export interface Schedule {
  readonly expr: string;
  readonly tz: string;
  /** The first instant strictly after `afterMs` (ms since the epoch), or null when there is none. */
  next(afterMs: number): number | null;
  /** The gap between two instants near `fromMs`, to choose the default missed-run rule. */
  periodMs(fromMs: number): number;
}

const EVERY = /^@every\s+(\d+)\s*(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Whether `tz` is a zone this Node knows (Intl throws RangeError for an unknown one). */
function checkZone(tz: string): void {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
  } catch {
    throw new CronInputError(`unknown time zone "${tz}": use an IANA name such as Europe/Berlin or UTC`);
  }
}

/**
 * Parses `expr` in `tz`. `@every N(s|m|h|d)` counts from `anchorMs` (the job's creation), so its
 * instants survive restarts. Contract: throws CronInputError for anything it cannot schedule.
 */
export function compileSchedule(expr: string, tz: string, anchorMs: number): Schedule {
  checkZone(tz);
  const text = expr.trim();
  const every = EVERY.exec(text);
  if (every) {
    const step = Number(every[1]) * UNIT_MS[every[2] as keyof typeof UNIT_MS];
    if (step < 1000) throw new CronInputError(`"${expr}": the interval must be at least 1s`);
    return {
      expr: text,
      tz,
      next: (after) =>
        after < anchorMs ? anchorMs + step : anchorMs + (Math.floor((after - anchorMs) / step) + 1) * step,
      periodMs: () => step,
    };
  }
  if (text.startsWith("@"))
    throw new CronInputError(`"${expr}": of the @ forms only "@every N" with s, m, h or d is known (e.g. @every 30m)`);
  const fields = text.split(/\s+/).length;
  if (fields !== 5 && fields !== 6)
    throw new CronInputError(
      `"${expr}" has ${fields} fields: use 5 (minute hour day month weekday), 6 (seconds first) or @every 30m`,
    );
  let cron: Cron;
  try {
    cron = new Cron(text, { timezone: tz, paused: true, mode: "5-or-6-parts" });
  } catch (error) {
    throw new CronInputError(`"${expr}" is not a valid cron expression: ${(error as Error).message}`);
  }
  const next = (after: number) => cron.nextRun(new Date(after))?.getTime() ?? null;
  return {
    expr: text,
    tz,
    next,
    periodMs: (from) => {
      const a = next(from);
      const b = a === null ? null : next(a);
      return a === null || b === null ? Number.POSITIVE_INFINITY : b - a;
    },
  };
}

/**
 * The instants in (afterMs, untilMs], oldest first, at most `cap` of them: the newest `cap` when
 * there are more (with `dropped` counting the older ones left out), so a long sleep costs a bounded
 * walk of at most `walkCap` steps.
 */
export function instantsBetween(
  schedule: Schedule,
  afterMs: number,
  untilMs: number,
  cap: number,
  walkCap = 100_000,
): { instants: number[]; dropped: number } {
  const instants: number[] = [];
  let dropped = 0;
  let at = schedule.next(afterMs);
  for (let steps = 0; at !== null && at <= untilMs && steps < walkCap; steps++) {
    instants.push(at);
    if (instants.length > cap) {
      instants.shift();
      dropped++;
    }
    at = schedule.next(at);
  }
  return { instants, dropped };
}
