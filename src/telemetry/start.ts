// Telemetry as front ends switch it on: OpenTelemetry export when asked (NANOHERMES_TELEMETRY=1 or
// "telemetry": {"otel": true}), loaded only then (issue 32, item 5: with it off, no
// @opentelemetry module loads and nothing subscribes to the bus for it). Its code compiles while
// the turn runs: events wait in a queue until it is loaded, so start-up does not wait for it.
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import type { BusEvent } from "../protocol/events.js";
import { otelOptions } from "./otel-options.js";

/** What a front end holds while telemetry is on. */
export interface Telemetry {
  /** The bus subscriber; `at` is when the event happened (ms since the epoch; default now). */
  onEvent(event: BusEvent, at?: number): void;
  /** The next turn of `taskId` continues the trace of this W3C `traceparent`; false when it is malformed. */
  continueTrace(taskId: string, traceparent: string): boolean;
  /** The `traceparent` of a running tool call, for requests it makes (MCP `_meta`). */
  traceparentFor(taskId: string, callId: string): string | undefined;
  /** Exports what is left, waiting at most `capMs`; never rejects. */
  shutdown(capMs: number): Promise<void>;
}

/** How long a front end waits at exit for the last spans to reach the collector. */
export const TELEMETRY_FLUSH_MS = 1_500;

/** A W3C traceparent: version 00, a trace id and a span id that are not all zeros, the flags. */
export const isTraceparent = (value: string): boolean => {
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(value.trim().toLowerCase());
  return m !== null && !/^0+$/.test(m[1]!) && !/^0+$/.test(m[2]!);
};

/**
 * Null when telemetry is off (nothing is loaded). Contract: throws an Error with one line when
 * an OTEL_* variable is unusable, before anything runs.
 */
export async function startTelemetry(
  settings: Pick<Settings, "telemetry">,
  env: NodeJS.ProcessEnv,
): Promise<Telemetry | null> {
  if (!settings.telemetry?.otel) return null;
  const options = otelOptions(env, settings.telemetry.content);
  return whenLoaded(import("./otel.js").then(({ createOtel }) => createOtel(options)));
}

/** A Telemetry that queues what arrives before `loading` settles, then hands it over in order. */
function whenLoaded(loading: Promise<Telemetry>): Telemetry {
  let real: Telemetry | null = null;
  let failed = false;
  const queue: ((t: Telemetry) => void)[] = [];
  const ready = loading.then(
    (t) => {
      real = t;
      for (const f of queue.splice(0)) f(t);
      return t;
    },
    (error: unknown) => {
      failed = true;
      queue.length = 0;
      log("error", "telemetry could not start", error);
      return null;
    },
  );
  const later = (f: (t: Telemetry) => void) => {
    if (real) f(real);
    else if (!failed) queue.push(f);
  };
  return {
    onEvent: (event) => {
      if (real) return real.onEvent(event);
      // Timed now: spans made from the queue later keep the events' own times.
      const at = performance.timeOrigin + performance.now();
      later((t) => t.onEvent(event, at));
    },
    continueTrace: (taskId, traceparent) => {
      if (!isTraceparent(traceparent)) return false;
      later((t) => t.continueTrace(taskId, traceparent));
      return true;
    },
    traceparentFor: (taskId, callId) => real?.traceparentFor(taskId, callId),
    shutdown: async (capMs) => {
      const start = Date.now();
      const t = await Promise.race([ready, new Promise<null>((r) => setTimeout(() => r(null), capMs).unref())]);
      await t?.shutdown(Math.max(0, capMs - (Date.now() - start)));
    },
  };
}
