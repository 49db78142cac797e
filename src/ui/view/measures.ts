// What the panes measure of what they draw, for the keys that scroll and move by it: the controller
// reads them (Controller.view, .results, .agentView), computed from the state before each key.
import type { Position } from "../state/scroll.js";

/** What the transcript pane last showed, for scrolling by lines and pages. */
export interface TranscriptMeasure {
  count: number;
  height: number;
  top: Position;
  rowBlocks: number[];
  linesOf(index: number): string[];
}

/** Lines in the list the results pane shows for its current tab (set by the pane when it renders). */
export interface ResultsMeasure {
  count: number;
  hunks: number;
  /** An open diff of the Turns tab: its rendered lines, the rows showing them, where hunks start. */
  lines?: number;
  height?: number;
  hunkStarts?: number[];
}

/** Contract: what the controller scrolls and moves by, measured on the current state, never cached from a render. */
export interface Measures {
  view(): TranscriptMeasure | null;
  results(): ResultsMeasure | null;
  agentView(): TranscriptMeasure | null;
}
