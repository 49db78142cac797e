// Whether the approval card is on screen, and since when (the type-ahead guard of issue 25 reads
// the time: ../controller/approval-guard.ts). Decided by the screen layout, so it lives with it.
import type { AppState } from "../state/store.js";
import { screenLayoutOf } from "./screen-layout.js";

/**
 * The approval card over the input, as drawn (panes/transcript-pane.ts) and answered
 * (Controller.handleApproval): the current task's oldest unanswered approval while the input has
 * focus, no dialog is open and no overlay pane covers the centre column.
 */
export function visibleCard(s: AppState): string | null {
  if (!s.current || s.ui.focus !== "composer" || s.ui.dialog) return null;
  const pending = s.transcripts[s.current]?.blocks.find((b) => b.kind === "approval" && b.resolved === null);
  if (!pending || pending.kind !== "approval") return null;
  return screenLayoutOf(s.ui).centre === "transcript" ? pending.requestId : null;
}

/**
 * The settle step's part: remembers when the card now on screen first came there. The same card
 * shown again (after browse mode, a dialog) keeps its time; another card starts its own.
 */
export function noteCardShown(s: AppState, now: number): AppState {
  const requestId = visibleCard(s);
  if (!requestId || s.ui.cardShown?.requestId === requestId) return s;
  return { ...s, ui: { ...s.ui, cardShown: { requestId, since: now, deliberate: false } } };
}
