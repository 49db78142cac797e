// Whether a status message is still true: not expired, and its condition (a task still stopping,
// still reloading after a rewind) still holds. Read at draw time, so a message goes the moment
// the state it describes ends.
import type { StatusMessage } from "../state/ui-state.js";
import type { AppState } from "../state/store.js";

/** `now`: the store's clock (AppState.clock), which the controller's `until` was set by. */
export function statusHolds(s: Pick<AppState, "transcripts">, status: StatusMessage, now: number): boolean {
  if (status.until <= now) return false;
  const cond = status.while;
  if (!cond) return true;
  const t = s.transcripts[cond.taskId];
  if (!t) return false;
  return cond.state === "stopping" ? t.stopping && t.running : t.reloadFrom !== null;
}
