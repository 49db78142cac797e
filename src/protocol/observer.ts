// The observer contract's first line: every event stream (`--stream-json`, the daemon's SSE, the
// telemetry file) opens with it, so a reader knows which schema the lines after it follow.
import { type EventOf, OBSERVER_SCHEMA } from "./events.js";

/** The `observer.started` line of a stream about `taskId` (empty for a stream of every task). */
export function observerStarted(taskId: string, version: string): EventOf<"observer.started"> {
  return { type: "observer.started", taskId, schema: OBSERVER_SCHEMA, program: "nanohermes", version };
}
