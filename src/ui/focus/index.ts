// Where focus areas are listed: one line per `Focus` value (state/ui-state.ts). The controller
// sends a key to the focused area's spec through `focusSpec`. A new pane's keys are a new file in
// this folder (its FocusSpec) plus its line here; a results tab's are in its folder in ../tabs/.
import type { KeyLayers } from "../controller/host.js";
import { handleDialogKey } from "../dialogs/index.js";
import type { Focus } from "../state/ui-state.js";
import { browseFocus } from "./browse.js";
import { composerFocus } from "./composer.js";
import type { FocusSpec } from "./focus.js";
import { resultsFocus } from "./results.js";
import { tasksFocus } from "./tasks.js";

const areas: Record<Focus, FocusSpec> = {
  composer: composerFocus,
  browse: browseFocus,
  tasks: tasksFocus,
  results: resultsFocus,
};

/** The key handling of a focus area. */
export function focusSpec(focus: Focus): FocusSpec {
  return areas[focus];
}

/** The layers the controller sends keys to (KeyLayers of ../controller/host.ts): the open dialog, the focused area. */
export const keyLayers: KeyLayers = { dialogKey: handleDialogKey, area: focusSpec };
