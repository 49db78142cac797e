// The type-ahead guard (issue 25): a key that reaches the approval card before the card has been on
// screen for a moment, or while the user is still typing into the input, is typing, not an answer.
// Pure: the state and the time in, the decision out. The controller asks; the settle step records
// when a card came on screen (../layout/card-on-screen.ts).
import { isEmpty } from "../input/editor.js";
import type { UiState } from "../state/ui-state.js";

/** How long a card is on screen before a key answers it: a person reads it first, a key already on its way does not. */
export const CARD_GUARD_MS = 400;
/** Keys typed within this long of the input's last change are the same run of typing. */
export const TYPING_GUARD_MS = 1000;

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
