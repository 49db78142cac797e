// What one results tab is (`ResultsTabDef`): its name in the bar, what it reads of the state (its
// model), its rows and its keys. Each tab is a folder here; ./index.ts lists them, one line each.
import type { Action } from "../../config/keybindings.js";
import type { AppServices } from "../context/services.js";
import type { AreaHost, UiHost } from "../controller/host.js";
import type { Key } from "../input/keys.js";
import type { AppState } from "../state/store.js";
import type { ResultsMeasure } from "../view/measures.js";

/** One tab's rows under the tab bar, and what the controller moves through in it. */
export interface TabBody {
  body: string[];
  measure: ResultsMeasure;
}

/** Contract: a tab draws `height` rows (or fewer) of `inner` columns from its model alone. */
export type TabLines<M> = (m: M, sv: AppServices, inner: number, height: number, focused: boolean) => TabBody;

/**
 * The tab's own keys while the results pane has focus, asked before the pane's (Esc back to the
 * input, ←→ between tabs, ↑↓, digits, hunks: ../focus/results.ts); true when it used the key. A tab
 * whose Esc is its own (closing an open diff) takes it here; one that leaves Esc to the pane
 * returns false for it (`paneAction`).
 */
export type TabKeys = (host: AreaHost, key: Key) => boolean;

/** Contract: one results tab. Everything but `select` and `lines` is optional. */
export interface ResultsTabDef<M extends object = object> {
  /** Its name in the tab bar, and the short form a narrow bar uses (./tab-bar.ts). */
  label: string;
  short: string;
  /** The last resort of a very narrow bar when the initial is ambiguous ("Tu": Turns is not Todo). */
  letter?: string;
  /**
   * What the tab reads of the state, as its model: a plain object of parts, memoised per part
   * (`selector`, ../state/select.ts). The component draws again exactly when a part changes.
   */
  select(s: AppState): M;
  /** Its rows, from its model alone. */
  lines(m: M, sv: AppServices, inner: number, height: number, focused: boolean): TabBody;
  /** Absent: a plain list, the pane's list keys only. */
  keys?: TabKeys;
  /** Rows of the drawn tab where a spinner turns (the Agents tab's running children). */
  spin?(rows: readonly string[]): number[];
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
export function paneAction(host: UiHost, key: Key): Action | undefined {
  return host.is("stop", key) ? undefined : host.action(key, paneActions);
}

/** The current task's transcript state, which most tabs read. */
export const taskOf = (s: Pick<AppState, "current" | "transcripts">) =>
  s.current ? s.transcripts[s.current] : undefined;

/** A tab's definition, checked against its own model and listed with the others (./index.ts). */
export const defineTab = <M extends object>(def: ResultsTabDef<M>): ResultsTabDef => def;
