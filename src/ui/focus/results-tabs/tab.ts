import type { Controller } from "../../controller/controller.js";
import type { Action } from "../../../config/keybindings.js";
import type { Key } from "../../input/keys.js";

/** What one results tab does with keys while the results pane has focus. */
export interface ResultsTabSpec {
  /**
   * The tab's own keys, asked before the pane's (Esc back to the input, ←→ between tabs, ↑↓, digits,
   * hunks: ../results.ts); true when it used the key. A tab whose Esc is its own (closing an open
   * diff) takes it here; one that leaves Esc to the pane returns false for it (`paneAction`).
   */
  keys(ctl: Controller, key: Key): boolean;
}

/** The actions the results pane knows, in the order a key is matched against them. */
export const paneActions: readonly Action[] = [
  "nextTab",
  "prevTab",
  "listUp",
  "listDown",
  "listSelect",
  "listPick",
  "agentStop",
  "nextHunk",
  "prevHunk",
];

/**
 * The pane action `key` stands for, as the pane reads it; undefined for Esc (the pane's: back to the
 * input) and for keys the pane does not know.
 */
export function paneAction(ctl: Controller, key: Key): Action | undefined {
  return ctl.is("stop", key) ? undefined : ctl.action(key, paneActions);
}
