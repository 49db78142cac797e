// The observers a front end starts for a run (issue 32): the --telemetry-file writer and the
// OpenTelemetry exporter, each only when asked for, and their end (the file closed, the last spans
// flushed within TELEMETRY_FLUSH_MS).
import type { Flags } from "../config/flags.js";
import type { Settings } from "../config/schema.js";
import type { Bus } from "../protocol/bus.js";
import { openTelemetryFile, type TelemetryFile } from "./file.js";
import { startTelemetry, TELEMETRY_FLUSH_MS, type Telemetry } from "./start.js";

export interface Observers {
  telemetry: Telemetry | null;
  file: TelemetryFile | null;
  /** Flushes and closes both; never rejects, waits at most TELEMETRY_FLUSH_MS. */
  close(): Promise<void>;
}

/** Contract: throws an Error with one line (a file that cannot be opened, an unusable OTEL_* variable). */
export async function startObservers(
  settings: Pick<Settings, "telemetry">,
  flags: Flags,
  env: NodeJS.ProcessEnv,
  taskId: string,
  warn: (text: string) => void,
): Promise<Observers> {
  const path = flags.values["telemetry-file"];
  const file = typeof path === "string" ? openTelemetryFile(path, taskId, warn) : null;
  let telemetry: Telemetry | null;
  try {
    telemetry = await startTelemetry(settings, env);
  } catch (error) {
    file?.close();
    throw error;
  }
  return {
    telemetry,
    file,
    close: async () => {
      file?.close();
      await telemetry?.shutdown(TELEMETRY_FLUSH_MS);
    },
  };
}

/** The engine's `traceparent` option for one task. */
export const traceparentOf =
  (telemetry: Telemetry, taskId: string) =>
  (callId: string): string | undefined =>
    telemetry.traceparentFor(taskId, callId);

/**
 * For a front end that makes a bus per session (the editor adapter, the MCP server): what it
 * gives each one's TaskManager, and the observers' subscription to that bus.
 */
export function observe(
  observers: Observers | null,
  bus: Bus,
): { traceparent?: (taskId: string, callId: string) => string | undefined } {
  if (!observers) return {};
  const { telemetry, file } = observers;
  if (file) bus.subscribe(file.write);
  if (!telemetry) return {};
  bus.subscribe((event) => telemetry.onEvent(event));
  return { traceparent: (taskId, callId) => telemetry.traceparentFor(taskId, callId) };
}
