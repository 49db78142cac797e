// The observer contract's first line: every event stream (`--stream-json`, the daemon's SSE, the
// telemetry file) opens with it, so a reader knows which schema the lines after it follow.
// The schema name lives here, not in events.ts: importing a value from there builds every event's
// zod schema (~15 KB of code run at load), which a one-shot turn does not need.
import type { EventOf } from "./events.js";

/** The version of the event schema, the first line of every stream names it. */
export const OBSERVER_SCHEMA = "nanohermes.observer.v1";

/** The `observer.started` line of a stream about `taskId` (empty for a stream of every task). */
export function observerStarted(taskId: string, version: string): EventOf<"observer.started"> {
  return { type: "observer.started", taskId, schema: OBSERVER_SCHEMA, program: "nanohermes", version };
}
