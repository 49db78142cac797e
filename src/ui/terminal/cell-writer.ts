// The terminal writer that replaces Ink's log-update (wired in by patches/ink@6.8.0/2-cell-writer.diff,
// which imports this module as `#nanohermes-ink-writer`): it keeps a model of the cells on screen
// and writes only the cells each frame changes (issue 17 item 4).
import { type CellRow, parseLine } from "./cells.js";
import { Painter, paintRow } from "./frame-diff.js";

import { terminalHints, writerTiming } from "./writer-choice.js";

export { lineWriterSelected, terminalHints } from "./writer-choice.js";

const HIDE = "\x1b[?25l";
const SHOW = "\x1b[?25h";
/** Begin and end of a synchronized update (mode 2026): the terminal shows what is between whole. */
const BSU = "\x1b[?2026h";
const ESU = "\x1b[?2026l";
/** Save and restore the cursor (DECSC, DECRC): 2 bytes back to the composer instead of an 8-byte jump. */
const SAVE = "\x1b7";
const RESTORE = "\x1b8";

/** Where Ink wants the terminal's cursor: columns and rows from the frame's top-left cell. */
export interface CursorPosition {
  x: number;
  y: number;
}

/** Ink 6.8's LogUpdate, which Ink's renderer calls; see ink/build/log-update.d.ts. */
export interface LogUpdate {
  (str: string): boolean;
  clear(): void;
  done(): void;
  sync(str: string): void;
  setCursorPosition(position: CursorPosition | undefined): void;
  isCursorDirty(): boolean;
  willRender(str: string): boolean;
  /**
   * Set when the writer wraps its own frames in synchronized-update markers where they matter;
   * Ink's patched renderer (patches/ink@6.8.0/4-own-sync-markers.diff) then leaves its own out.
   */
  synchronizesFrames?: boolean;
}

export interface WriterStream {
  write(chunk: string): unknown;
  columns?: number;
  rows?: number;
  isTTY?: boolean;
}

interface Model {
  cols: number;
  rows: number;
  lines: string[];
  cells: CellRow[];
}

/**
 * Contract: the frame Ink passes (the whole screen as lines of styled text, drawn from the
 * terminal's top-left cell: we run on the alternate screen) ends up on screen exactly, with the
 * cursor where `setCursorPosition` last asked for it (hidden when not asked). The first frame,
 * the first after `clear()` and the first after a size change are drawn whole (every row written
 * and erased to its end; never a screen clear); every other frame writes only changed cells. No
 * newline is ever written and the terminal's last row never drawn (the rows - 1 rule), so the
 * screen cannot scroll. A frame too large to reach the terminal in one read is one synchronized
 * update, in the same write; a smaller one arrives whole anyway and goes without the markers (16
 * bytes, a third of a streaming frame), which Ink would put around every frame in writes of their own.
 */
export function createCellWriter(stream: WriterStream, { showCursor = false } = {}): LogUpdate {
  let model: Model | null = null;
  let previousOutput = "";
  let hasHiddenCursor = false;
  let cursorPosition: CursorPosition | undefined;
  let cursorDirty = false;
  let previousCursor: CursorPosition | undefined;
  let cursorShown = false;
  /** Where the terminal's saved cursor (DECSC) is; saved with the default style. */
  let saved: CursorPosition | undefined;

  const activeCursor = () => (cursorDirty ? cursorPosition : undefined);
  const same = (a: CursorPosition | undefined, b: CursorPosition | undefined) => a?.x === b?.x && a?.y === b?.y;
  const cursorChanged = (a: CursorPosition | undefined) => !same(a, previousCursor);
  const size = () => ({ cols: stream.columns || 80, rows: stream.rows || 24 });
  const hasChanges = (str: string, cursor: CursorPosition | undefined) => {
    const { cols, rows } = size();
    return (
      str !== previousOutput || cursorChanged(cursor) || model === null || model.cols !== cols || model.rows !== rows
    );
  };

  const render = ((str: string): boolean => {
    const cursor = activeCursor();
    cursorDirty = false;
    if (!hasChanges(str, cursor)) return false;
    const { cols, rows } = size();
    const p = new Painter(cols);
    if (!showCursor && !hasHiddenCursor && stream.isTTY) {
      p.raw(HIDE);
      hasHiddenCursor = true;
    }
    const old = model && model.cols === cols && model.rows === rows ? model : null;
    // A resize may move the saved cursor, and a redraw forgets it.
    if (!old) saved = undefined;
    const next = frameLines(str, rows);
    const cells: CellRow[] = [];
    const lines: string[] = [];
    const mark = p.out.length;
    for (let r = 0; r < next.length; r++) {
      const line = next[r]!;
      lines.push(line);
      if (old && old.lines[r] === line) {
        cells.push(old.cells[r]!);
        continue;
      }
      const row = parseLine(line, cols);
      cells.push(row);
      paintRow(p, r, old ? (old.cells[r] ?? EMPTY) : null, row);
    }
    if (old) {
      // Rows the previous frame had and this one does not.
      for (let r = next.length; r < old.lines.length; r++) if (old.cells[r]!.chars.length > 0) p.eraseLineFrom(r, 0);
    } else if (next.length < rows) {
      p.moveTo(next.length, 0);
      p.raw("\x1b[J");
    }
    p.setStyle("");
    const wroteCells = p.out.length > mark;
    // The cursor is hidden while cells are written, so it never shows jumping across the screen,
    // unless the terminal shows each (synchronized) frame only whole, or the frame is small enough
    // to reach the terminal in one read (one write of under a pty buffer), drawn whole anyway.
    // That saves 12 bytes on every streaming frame (a third of a token's bytes at 100 tokens/s).
    const hide = wroteCells && cursorShown && !terminalHints.synchronizedOutput && outLength(p, mark) > ONE_READ;
    // The cursor stays where it was (the composer, while a reply streams): the second frame that
    // writes cells around it saves it first, and every such frame after restores it.
    const stays = old !== null && cursor !== undefined && cursorShown && same(cursor, previousCursor);
    if (wroteCells && stays && !same(saved, cursor)) {
      p.out.splice(mark, 0, SAVE);
      saved = { ...cursor! };
    }
    if (hide) p.out.splice(mark, 0, HIDE);
    if (cursor) {
      if (wroteCells && same(saved, cursor)) {
        // Restoring also sets the style saved with it: the default, which the frame ended on.
        p.raw(RESTORE);
        p.forgetCursor();
      } else p.moveTo(cursor.y, cursor.x);
      if (!cursorShown || hide) p.raw(SHOW);
    } else if (cursorShown && !hide) {
      p.raw(HIDE);
    }
    const text = p.text();
    if (text !== "") stream.write(stream.isTTY && text.length > ONE_READ ? BSU + text + ESU : text);
    model = { cols, rows, lines, cells };
    previousOutput = str;
    previousCursor = cursor ? { ...cursor } : undefined;
    cursorShown = cursor !== undefined;
    return true;
  }) as LogUpdate;

  render.clear = () => {
    const shown = cursorShown ? HIDE : "";
    if (model && model.lines.length > 0) stream.write(`${shown}\x1b[0m\x1b[H\x1b[J`);
    else if (shown) stream.write(shown);
    model = null;
    saved = undefined;
    previousOutput = "";
    previousCursor = undefined;
    cursorShown = false;
  };
  render.done = () => {
    model = null;
    saved = undefined;
    previousOutput = "";
    previousCursor = undefined;
    cursorShown = false;
    if (!showCursor && hasHiddenCursor) {
      if (stream.isTTY) stream.write(SHOW);
      hasHiddenCursor = false;
    }
  };
  render.sync = (str: string) => {
    // Ink calls this after writing a frame itself (a frame as tall as the terminal), and after
    // clear() so that unmounting does not redraw. Only the first puts cells on screen; after a
    // clear the model stays unknown and the next frame is drawn whole.
    const cursor = activeCursor();
    cursorDirty = false;
    previousOutput = str;
    saved = undefined;
    if (model !== null) {
      const { cols, rows } = size();
      const lines = frameLines(str, rows + 1);
      model = { cols, rows, lines, cells: lines.map((l) => parseLine(l, cols)) };
    }
    if (!cursor && cursorShown) stream.write(HIDE);
    if (cursor) stream.write(`\x1b[${cursor.y + 1};${cursor.x + 1}H${SHOW}`);
    previousCursor = cursor ? { ...cursor } : undefined;
    cursorShown = cursor !== undefined;
  };
  render.setCursorPosition = (position) => {
    cursorPosition = position;
    cursorDirty = true;
  };
  render.isCursorDirty = () => cursorDirty;
  render.willRender = (str) => hasChanges(str, activeCursor());
  render.synchronizesFrames = true;
  return render;
}

/**
 * `log` (ours or Ink's line writer) timed frame by frame into `writerTiming.record` when the bench
 * asked for it when the writer was created; otherwise `log` itself.
 */
export function timedWriter<T extends (str: string) => boolean>(log: T): T {
  const record = writerTiming.record;
  if (!record) return log;
  const timed = ((str: string) => {
    const t0 = performance.now();
    const wrote = log(str);
    if (wrote) record(performance.now() - t0);
    return wrote;
  }) as T;
  return Object.assign(timed, log);
}

const EMPTY: CellRow = { chars: [], styles: [] };

/** Bytes a frame may take and still reach the terminal in one read (pty buffers hold 4 KiB). */
const ONE_READ = 1024;

function outLength(p: Painter, from: number): number {
  let n = 0;
  for (let i = from; i < p.out.length; i++) n += p.out[i]!.length;
  return n;
}

/** The frame's lines, at most rows - 1 of them (Ink ends a frame shorter than the screen with "\n"). */
function frameLines(str: string, rows: number): string[] {
  const lines = str.split("\n");
  if (str.endsWith("\n")) lines.pop();
  if (lines.length > rows - 1) lines.length = Math.max(0, rows - 1);
  return lines;
}
