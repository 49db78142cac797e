// Scrolling the transcript: by page, by line (the mouse wheel), to either end, to a block. Down to
// the end follows new output again; anything else holds the view where it was put.
import type { AppState } from "../state/store.js";
import { followScroll, type Position, type Scroll } from "../state/scroll.js";
import type { UiState } from "../state/ui-state.js";
import type { TranscriptMeasure } from "../view/measures.js";
import { movePosition, settleFollow } from "../view/transcript-view.js";

/** What scrolling reads and writes: the current task's scroll position and what the view shows. */
export interface Scrollable {
  readonly state: AppState;
  setUi(change: (ui: UiState) => UiState): void;
  /** What the transcript shows and how to measure its blocks (null until measured). */
  readonly view: TranscriptMeasure | null;
}

/** Whether everything from `top` to the end fits in the view (scrolling further down only follows). */
export function fitsFrom(top: Position, view: TranscriptMeasure): boolean {
  let rows = 0;
  for (let b = top.block; b < view.count; b++) {
    rows += view.linesOf(b).length - (b === top.block ? top.line : 0);
    if (rows > view.height) return false;
  }
  return true;
}

function setScroll(ctl: Scrollable, scroll: Scroll): void {
  const id = ctl.state.current;
  if (!id) return;
  ctl.setUi((ui) => ({ ...ui, scroll: { ...ui.scroll, [id]: scroll } }));
}

/** Scrolls the transcript by `n` lines (the mouse wheel: 3 a notch); down to the end follows again. */
export function scrollLines(ctl: Scrollable, n: number): void {
  const view = ctl.view;
  if (!view || view.count === 0) return;
  const top = movePosition(view.top, n, view.count, view.linesOf);
  if (n > 0 && fitsFrom(top, view)) setScroll(ctl, settleFollow(view.count, view.linesOf, view.height));
  else setScroll(ctl, { follow: false, top });
}

/** A page up or down: the view's height less two lines of context. */
export function scrollPage(ctl: Scrollable, direction: -1 | 1): void {
  const view = ctl.view;
  if (!view || view.count === 0) return;
  scrollLines(ctl, direction * Math.max(1, view.height - 2));
}

export function scrollTo(ctl: Scrollable, where: "top" | "bottom"): void {
  const view = ctl.view;
  if (where === "bottom") setScroll(ctl, view ? settleFollow(view.count, view.linesOf, view.height) : followScroll());
  else setScroll(ctl, { follow: false, top: { block: 0, line: 0 } });
}

/** Scrolls so that block `index` is visible (its first line at the top when it was off screen). */
export function revealBlock(ctl: Scrollable, index: number): void {
  const view = ctl.view;
  if (!view) return;
  if (view.rowBlocks.includes(index) && view.rowBlocks.lastIndexOf(index) < view.height - 1) return;
  setScroll(ctl, { follow: false, top: { block: index, line: 0 } });
}
