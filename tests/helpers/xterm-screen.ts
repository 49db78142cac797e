// A headless xterm as the judge of terminal output: play bytes into it and read back every cell
// (character, width, colours, attributes), or what a plain full repaint of a frame would show.
import xterm from "@xterm/headless";
import stringWidth from "string-width";

const { Terminal } = xterm;
export type Term = InstanceType<typeof Terminal>;

/**
 * A terminal whose character widths are string-width's (what Ink and our layout measure with):
 * xterm's built-in Unicode 6 tables count emoji as one column, modern terminals as two.
 */
export function makeTerm(cols: number, rows: number): Term {
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  const width = (cp: number): 0 | 1 | 2 => {
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
    return Math.min(2, stringWidth(String.fromCodePoint(cp))) as 0 | 1 | 2;
  };
  term.unicode.register({
    version: "string-width",
    wcwidth: width,
    // xterm's packed property value: width in bits 1-2, "joins the previous cell" in bit 0.
    charProperties(cp: number, preceding: number): number {
      let w: number = width(cp);
      const join = w === 0 && preceding !== 0 && ((preceding >> 1) & 3) !== 0;
      if (join) w = (preceding >> 1) & 3;
      return (w << 1) | (join ? 1 : 0);
    },
  });
  term.unicode.activeVersion = "string-width";
  return term;
}

export function play(term: Term, data: string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

/** Every cell of the screen as one comparable string per row. */
export function cells(term: Term): string[] {
  const buffer = term.buffer.active;
  const rows: string[] = [];
  const cell = buffer.getNullCell();
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    const parts: string[] = [];
    for (let x = 0; x < term.cols; x++) {
      line?.getCell(x, cell);
      const width = cell.getWidth();
      // An erased cell and a written blank look alike.
      const ch = cell.getChars() === "" && width === 1 ? " " : cell.getChars();
      const flags = [
        cell.isBold(),
        cell.isDim(),
        cell.isItalic(),
        cell.isUnderline(),
        cell.isInverse(),
        cell.isStrikethrough(),
        cell.isBlink(),
        cell.isInvisible(),
        cell.isOverline(),
      ]
        .map((f) => (f ? 1 : 0))
        .join("");
      parts.push(
        `${ch}/${width}/${cell.getFgColorMode()}:${cell.getFgColor()}/${cell.getBgColorMode()}:${cell.getBgColor()}/${flags}`,
      );
    }
    rows.push(parts.join(" "));
  }
  return rows;
}

/** The text of each row, trailing blanks trimmed. */
export function text(term: Term): string[] {
  const buffer = term.buffer.active;
  return Array.from(
    { length: term.rows },
    (_, y) => buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "",
  );
}

/** What the screen shows after a plain full repaint of `lines` (each from a reset style). */
export async function repainted(lines: string[], cols: number, rows: number): Promise<Term> {
  const term = makeTerm(cols, rows);
  await play(term, `\x1b[H\x1b[2J${lines.map((l) => `\x1b[0m${l}\x1b[0m`).join("\r\n")}`);
  return term;
}
