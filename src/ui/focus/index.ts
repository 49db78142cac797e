// Where focus areas are listed: one line per `Focus` value (controller/ui-state.ts). The controller
// sends a key to the focused area's spec through `focusSpec`. A new pane's keys are a new file in
// this folder (its FocusSpec) plus its line here; a results tab's are in results-tabs/.
import type { Focus } from "../controller/ui-state.js";
import { browseFocus } from "./browse.js";
import { composerFocus } from "./composer.js";
import type { FocusSpec } from "./focus.js";
import { resultsFocus } from "./results.js";
import { tasksFocus } from "./tasks.js";

// A function, so the list is read when first used: a file evaluated before this one (an import
// cycle through the controller) is never read half-initialised.
const list = (): Record<Focus, FocusSpec> => ({
  composer: composerFocus,
  browse: browseFocus,
  tasks: tasksFocus,
  results: resultsFocus,
});

let registry: Record<Focus, FocusSpec> | null = null;

/** The key handling of a focus area. */
export function focusSpec(focus: Focus): FocusSpec {
  registry ??= list();
  return registry[focus];
}
