// Where a transcript view stands: follow the end, or a first line fixed by block and line. Kept
// with the state (per task in `ui.scroll`, per subagent view in its dialog); ../view/transcript-view.ts
// moves and settles it.

export interface Position {
  block: number;
  line: number;
}

export interface Scroll {
  follow: boolean;
  /** First visible line; null in follow mode until content first overflows. */
  top: Position | null;
}

export const followScroll = (): Scroll => ({ follow: true, top: null });
