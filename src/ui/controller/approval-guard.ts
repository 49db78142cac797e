// The type-ahead guard (issue 25): a key that reaches the approval card before the card has been on
// screen for a moment, or while the user is still typing into the input, is typing, not an answer.
// Pure: the state and the time in, the decision out. The controller asks; the settle step records.
import { isEmpty } from "../input/editor.js";
import { screenLayoutOf } from "../layout/screen-layout.js";
import type { AppState } from "../state/store.js";
import type { UiState } from "./ui-state.js";

/** How long a card is on screen before a key answers it: a person reads it first, a key already on its way does not. */
export const CARD_GUARD_MS = 400;
/** Keys typed within this long of the input's last change are the same run of typing. */
export const TYPING_GUARD_MS = 1000;

/** Which card is on screen, by request, since when, and whether Ctrl-Y brought it there. */
export interface CardShown {
  requestId: string;
  since: number;
  /** Shown by Ctrl-Y: the user went looking for it, so the next key answers at once. */
  deliberate: boolean;
}

/**
 * The approval card over the input, as drawn (panes/transcript.ts) and answered
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

/**
 * Why a key must not answer the card for `requestId` at `now`: "new" when it has not been on screen
 * for CARD_GUARD_MS (or not drawn yet), "typing" when the input holds text changed within
 * TYPING_GUARD_MS; null when the key answers. A card Ctrl-Y brought answers at once.
 */
export function cardGuard(ui: UiState, requestId: string, now: number): "new" | "typing" | null {
  const shown = ui.cardShown;
  if (!shown || shown.requestId !== requestId) return "new";
  if (shown.deliberate) return null;
  if (now - shown.since < CARD_GUARD_MS) return "new";
  if (!isEmpty(ui.composer) && now - ui.typedAt < TYPING_GUARD_MS) return "typing";
  return null;
}
