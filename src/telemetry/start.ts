// Telemetry as front ends switch it on: OpenTelemetry export when asked (NANOHERMES_TELEMETRY=1 or
// "telemetry": {"otel": true}), loaded only then (issue 32, item 5: with it off, no
// @opentelemetry module loads and nothing subscribes to the bus for it).
import type { Settings } from "../config/schema.js";
import type { BusEvent } from "../protocol/events.js";
import { otelOptions } from "./otel-options.js";

/** What a front end holds while telemetry is on. */
export interface Telemetry {
  /** The bus subscriber. */
  onEvent(event: BusEvent): void;
  /** The next turn of `taskId` continues the trace of this W3C `traceparent`; false when it is malformed. */
  continueTrace(taskId: string, traceparent: string): boolean;
  /** The `traceparent` of a running tool call, for requests it makes (MCP `_meta`). */
  traceparentFor(taskId: string, callId: string): string | undefined;
  /** Exports what is left, waiting at most `capMs`; never rejects. */
  shutdown(capMs: number): Promise<void>;
}

/** How long a front end waits at exit for the last spans to reach the collector. */
export const TELEMETRY_FLUSH_MS = 1_500;

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
  const { createOtel } = await import("./otel.js");
  return createOtel(options);
}
