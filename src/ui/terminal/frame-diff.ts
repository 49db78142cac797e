// The bytes that turn one screen of cells into the next: absolute jumps to each changed run, the
// style each run needs set from a reset, erase-to-end-of-line only where a line got shorter.
import { type CellRow, type Style, sgr } from "./cells.js";

/** Unchanged cells between two changed runs that are cheaper to rewrite than to jump over. */
const MERGE_GAP = 3;
/** Blank cells from which erasing them in place (ECH plus a jump) is shorter than writing them. */
const ERASE_MIN = 10;

/**
 * Accumulates output while tracking where the terminal's cursor is and which style it prints
 * with, so moves and SGR sequences are only sent when they change something.
 */
export class Painter {
  readonly out: string[] = [];
  /** null when unknown (a write ended in the last column: the terminal is in its wrap state). */
  private at: { row: number; col: number } | null = null;
  /** The terminal's SGR state; frames start and end with the default. */
  style: Style = "";

  constructor(readonly cols: number) {}

  moveTo(row: number, col: number): void {
    const at = this.at;
    if (at && at.row === row && at.col === col) return;
    if (at && at.row === row && col > at.col) this.out.push(col - at.col === 1 ? "\x1b[C" : `\x1b[${col - at.col}C`);
    else this.out.push(col === 0 ? `\x1b[${row + 1}H` : `\x1b[${row + 1};${col + 1}H`);
    this.at = { row, col };
  }

  setStyle(style: Style): void {
    if (style === this.style) return;
    this.out.push(sgr(style));
    this.style = style;
  }

  /** Writes columns [from, to) of terminal row `r` from `row`; the cursor must be at `from`. */
  cells(r: number, row: CellRow, from: number, to: number): void {
    let c = from;
    while (c < to) {
      const ch = row.chars[c]!;
      if (ch === "") {
        c++; // the second half of a wide character was drawn with its first
        continue;
      }
      const style = row.styles[c]!;
      if (ch === " " && style === "") {
        let n = 1;
        while (c + n < to && row.chars[c + n] === " " && row.styles[c + n] === "") n++;
        if (n >= ERASE_MIN) {
          // A long blank run (a pane emptied by a scroll) is erased in place (ECH), not spelled
          // out; ECH leaves the cursor where it was.
          this.setStyle("");
          this.out.push(`\x1b[${n}X`);
          this.at = { row: r, col: c };
          c += n;
          if (c < to) this.moveTo(r, c);
          continue;
        }
      }
      this.setStyle(style);
      this.out.push(ch);
      const next = c + (row.chars[c + 1] === "" ? 2 : 1);
      // Past the last column the terminal waits to wrap: where the cursor is, is then unknown.
      this.at = next >= this.cols ? null : { row: r, col: next };
      c = next;
    }
  }

  eraseLineFrom(row: number, col: number): void {
    this.moveTo(row, col);
    // Erased cells take the current background (BCE): erase with the default style.
    this.setStyle("");
    this.out.push("\x1b[K");
  }

  raw(text: string): void {
    this.out.push(text);
  }

  forgetCursor(): void {
    this.at = null;
  }

  text(): string {
    return this.out.join("");
  }
}

/**
 * Contract: after `paintRow`, terminal row `row` (which showed `prev`, or is unknown when `prev`
 * is null) shows `next`. Only columns that differ are written; a wide character that is partly
 * overwritten on either side is rewritten whole, since the terminal blanks both of its halves.
 */
export function paintRow(p: Painter, row: number, prev: CellRow | null, next: CellRow): void {
  const ln = next.chars.length;
  if (prev === null) {
    if (ln > 0) {
      p.moveTo(row, 0);
      p.cells(row, next, 0, ln);
    }
    if (ln < p.cols) p.eraseLineFrom(row, ln);
    return;
  }
  const lp = prev.chars.length;
  const changed = new Uint8Array(ln + 1);
  let any = false;
  for (let c = 0; c < ln; c++) {
    if (prev.chars[c] !== next.chars[c] || prev.styles[c] !== next.styles[c]) {
      changed[c] = 1;
      any = true;
    }
  }
  if (any) widenOverWideChars(changed, prev, next);
  let c = 0;
  while (c < ln) {
    if (!changed[c]) {
      c++;
      continue;
    }
    const start = c;
    let end = c + 1;
    for (;;) {
      while (end < ln && changed[end]) end++;
      let gap = 0;
      while (end + gap < ln && !changed[end + gap] && gap <= MERGE_GAP) gap++;
      if (end + gap < ln && changed[end + gap] && gap <= MERGE_GAP) end += gap;
      else break;
    }
    p.moveTo(row, start);
    p.cells(row, next, start, end);
    c = end;
  }
  if (ln < lp) p.eraseLineFrom(row, ln);
}

/** Marks the neighbours that writing the marked cells disturbs, until nothing more is disturbed. */
function widenOverWideChars(changed: Uint8Array, prev: CellRow, next: CellRow): void {
  const ln = next.chars.length;
  let grew = true;
  while (grew) {
    grew = false;
    for (let c = 0; c < ln; c++) {
      if (!changed[c]) continue;
      // The lead of a wide character in the new row must be written for its second half to show.
      const needLeft = next.chars[c] === "" || prev.chars[c] === "";
      // Writing the lead of a new wide character covers the next column; overwriting the lead of
      // an old one blanks its second half.
      const needRight = next.chars[c + 1] === "" || prev.chars[c + 1] === "";
      if (needLeft && c > 0 && !changed[c - 1]) {
        changed[c - 1] = 1;
        grew = true;
      }
      if (needRight && c + 1 < ln && !changed[c + 1]) {
        changed[c + 1] = 1;
        grew = true;
      }
    }
  }
}
