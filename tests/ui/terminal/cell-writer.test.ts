// The cell writer judged by a headless xterm: after every frame the emulated screen must equal a
// plain repaint of that frame, cell for cell (characters, widths, colours, attributes), at 120x40,
// 80x24 and 50x20, while the bytes stay the few cells that changed.
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { createCellWriter, type CursorPosition, terminalHints } from "../../../src/ui/terminal/cell-writer.js";
import { cells, makeTerm, play, repainted, type Term, text } from "../../helpers/xterm-screen.js";

const SIZES = [
  [120, 40],
  [80, 24],
  [50, 20],
] as const;

class Harness {
  readonly term: Term;
  readonly stream: { columns: number; rows: number; isTTY: boolean; write(chunk: string): boolean };
  readonly writer;
  readonly chunks: string[] = [];
  /** Bytes written by the last frame. */
  last = "";

  constructor(
    public cols: number,
    public rows: number,
  ) {
    this.term = makeTerm(cols, rows);
    this.stream = { columns: cols, rows, isTTY: true, write: (chunk: string) => (this.chunks.push(chunk), true) };
    this.writer = createCellWriter(this.stream);
  }

  /** Draws a frame as Ink passes it (lines, then "\n"), plays the bytes and checks the screen. */
  async frame(lines: string[], cursor?: CursorPosition): Promise<string> {
    const before = this.chunks.length;
    if (cursor) this.writer.setCursorPosition(cursor);
    this.writer(`${lines.join("\n")}\n`);
    this.last = this.chunks.slice(before).join("");
    await play(this.term, this.last);
    const expected = await repainted(lines.slice(0, this.rows - 1), this.cols, this.rows);
    expect(cells(this.term)).toEqual(cells(expected));
    if (cursor)
      expect([this.term.buffer.active.cursorX, this.term.buffer.active.cursorY]).toEqual([cursor.x, cursor.y]);
    expect(this.cursorVisible()).toBe(cursor !== undefined);
    return this.last;
  }

  async resize(cols: number, rows: number): Promise<void> {
    this.cols = cols;
    this.rows = rows;
    this.stream.columns = cols;
    this.stream.rows = rows;
    this.term.resize(cols, rows);
  }

  cursorVisible(): boolean {
    const all = this.chunks.join("");
    return all.lastIndexOf("\x1b[?25h") > all.lastIndexOf("\x1b[?25l");
  }

  all(): string {
    return this.chunks.join("");
  }
}

const pad = (s: string, n: number) => s + " ".repeat(Math.max(0, n - s.length));

/** An app-like screen: an inverse title bar, a bordered task list, a transcript, a status line. */
function appFrame(cols: number, rows: number, transcript: string[], status: string): string[] {
  const side = Math.max(16, Math.min(24, Math.floor(cols / 4)));
  const main = cols - side - 1;
  const lines = [`\x1b[7m${pad(" NanoHermes · model", cols)}\x1b[27m`];
  const body = rows - 4;
  const shown = transcript.slice(-body);
  for (let i = 0; i < body; i++) {
    const task =
      i === 0 ? "\x1b[1m\x1b[32m● \x1b[39mfix the tests\x1b[22m" : i === 1 ? "\x1b[2m  second task\x1b[22m" : "";
    const plainTask = i === 0 ? "● fix the tests" : i === 1 ? "  second task" : "";
    const t = shown[i] ?? "";
    lines.push(`${task}${" ".repeat(side - plainTask.length)}\x1b[90m│\x1b[39m${t.slice(0, main)}`);
  }
  lines.push(`\x1b[36m${status}\x1b[39m`);
  lines.push("\x1b[1m>\x1b[22m ");
  return lines;
}

describe.each(SIZES)("the cell writer at %ix%i", (cols, rows) => {
  it("streams tokens into the transcript writing only the new text, with no clears or newlines after the first frame", async () => {
    const h = new Harness(cols, rows);
    const transcript = [""];
    const first = await h.frame(appFrame(cols, rows, transcript, "working · 0 tokens"), { x: 2, y: rows - 2 });
    expect(first).toContain("\x1b[?25l");
    const main = cols - Math.max(16, Math.min(24, Math.floor(cols / 4))) - 1;
    let bytes = 0;
    for (let i = 0; i < 120; i++) {
      const last = transcript.length - 1;
      const word = i % 7 === 6 ? "done." : "word ";
      if (transcript[last]!.length + word.length > main) transcript.push(word);
      else transcript[last] += word;
      if (i % 25 === 24) transcript.push("", "");
      const out = await h.frame(appFrame(cols, rows, transcript, `working · ${i + 1} tokens`), { x: 2, y: rows - 2 });
      expect(out).not.toContain("\x1b[2J");
      expect(out).not.toContain("\n");
      bytes += out.length;
    }
    // Scrolling the transcript rewrites its lines; the rest is a few cells a token.
    expect(bytes / 120).toBeLessThan(cols * 3);
  });

  it("when a line only grows, writes from the first changed column", async () => {
    const h = new Harness(cols, rows);
    await h.frame(["title", "hello", "status"]);
    const out = await h.frame(["title", "hello world", "status"]);
    expect(out).toBe("\x1b[2;6H world");
  });

  it("erases to the end of a line only where the line got shorter, with no style leaking into the erase", async () => {
    const h = new Harness(cols, rows);
    await h.frame(["\x1b[44mblue background line\x1b[49m", "a long line of plain text", "keep"]);
    const out = await h.frame(["\x1b[44mblue\x1b[49m", "a long", "keep"]);
    expect(out.match(/\x1b\[K/g)?.length).toBe(2);
    expect(out).not.toContain("keep");
    // The erased cells have the default background.
    const cell = h.term.buffer.active.getLine(0)!.getCell(6)!;
    expect(cell.getBgColorMode()).toBe(0);
  });

  it("erases a long blank run inside a line in place (ECH) instead of writing spaces", async () => {
    const h = new Harness(cols, rows);
    const border = "\x1b[90m│\x1b[39m";
    await h.frame([`left${border}${"text ".repeat(6)}${border}right`, "x"]);
    const out = await h.frame([`left${border}${" ".repeat(30)}${border}right`, "x"]);
    expect(out).toBe("\x1b[1;6H\x1b[29X"); // the 30th cell was a blank already
    // A blank run followed by more changed text on the same line: erase, jump, write.
    await h.frame([`left${border}${"text ".repeat(6)}${border}right`, "x"]);
    const out2 = await h.frame([`left${border}${" ".repeat(29)}!${border}right`, "x"]);
    expect(out2).toBe("\x1b[1;6H\x1b[29X\x1b[29C!");
  });

  it("sets the right style at the start of each run and resets it after", async () => {
    const h = new Harness(cols, rows);
    await h.frame(["plain \x1b[1;31mRED\x1b[0m plain", "x"]);
    const out = await h.frame(["plain \x1b[1;31mREd\x1b[0m plain", "x"]);
    expect(out).toBe("\x1b[1;9H\x1b[0;1;31md\x1b[0m");
    const line = h.term.buffer.active.getLine(0)!;
    expect(line.getCell(8)!.isBold()).toBeTruthy();
    expect(line.getCell(8)!.getFgColor()).toBe(1);
    expect(line.getCell(9)!.isBold()).toBe(0);
    // 256-colour and true-colour styles survive a partial rewrite.
    await h.frame(["\x1b[38;5;208mamber\x1b[39m \x1b[38;2;10;20;30mtrue\x1b[39m", "x"]);
    await h.frame(["\x1b[38;5;208mambe!\x1b[39m \x1b[38;2;10;20;30mtru!\x1b[39m", "x"]);
    expect(h.term.buffer.active.getLine(0)!.getCell(4)!.getFgColor()).toBe(208);
    expect(h.term.buffer.active.getLine(0)!.getCell(9)!.getFgColor()).toBe((10 << 16) | (20 << 8) | 30);
  });

  it("draws wide characters (CJK, emoji) and rewrites any that a change cuts in half", async () => {
    const h = new Harness(cols, rows);
    await h.frame(["中文字符 and 😀 emoji", "ab中cd", "🚀🚀🚀"]);
    // A narrow character over the second half of a wide one, a wide one over two narrow ones.
    await h.frame(["中x字符 and 😀 emoji", "a中 cd", "🚀a🚀🚀"]);
    await h.frame(["中x字符 and 🙂 emoji!", "中中中", "x🚀🚀"]);
    await h.frame(["中", "", "🚀"]);
    expect(text(h.term).slice(0, 3)).toEqual(["中", "", "🚀"]);
  });

  it("follows scroll-like shifts of a pane and frames that lose and gain rows", async () => {
    const h = new Harness(cols, rows);
    const pane = Array.from({ length: 60 }, (_, i) => `line ${i} ${"·".repeat(i % 9)} \x1b[2mend\x1b[22m`);
    for (let top = 0; top < 12; top++) await h.frame(["header", ...pane.slice(top, top + rows - 3), "footer"]);
    await h.frame(["short frame"]);
    await h.frame(["header", ...pane.slice(0, rows - 3), "footer"]);
  });

  it("redraws whole after a resize, never with a screen clear", async () => {
    const h = new Harness(cols, rows);
    await h.frame(appFrame(cols, rows, ["before the resize"], "idle"), { x: 2, y: rows - 2 });
    await h.resize(cols - 10, rows - 3);
    const out = await h.frame(appFrame(cols - 10, rows - 3, ["after the resize"], "idle"), { x: 2, y: rows - 5 });
    expect(out).not.toContain("\x1b[2J");
    expect(out.match(/\x1b\[K/g)!.length).toBeGreaterThan(rows - 6);
    await h.resize(cols, rows);
    await h.frame(appFrame(cols, rows, ["wider again"], "idle"), { x: 2, y: rows - 2 });
  });

  it("never draws on the terminal's last row (the rows - 1 rule) and never scrolls", async () => {
    const h = new Harness(cols, rows);
    const tall = Array.from({ length: rows + 2 }, (_, i) => `row ${i}`);
    const out = await h.frame(tall);
    expect(out).not.toContain(`row ${rows - 1}`);
    expect(text(h.term)[0]).toBe("row 0");
    expect(text(h.term)[rows - 1]).toBe("");
  });
});

describe("the cell writer's cursor", () => {
  it("moves without redrawing when only the cursor moves, and hides when no one asks for it", async () => {
    const h = new Harness(80, 24);
    await h.frame(["a", "> hello"], { x: 2, y: 1 });
    const moved = await h.frame(["a", "> hello"], { x: 7, y: 1 });
    expect(moved).toBe("\x1b[2;8H");
    const hidden = await h.frame(["a", "> hello"]);
    expect(hidden).toBe("\x1b[?25l");
    // A small frame reaches the terminal in one read: the cursor stays shown.
    await h.frame(["a", "> hello"], { x: 7, y: 1 });
    const typed = await h.frame(["a", "> hello!"], { x: 8, y: 1 });
    expect(typed).toBe("\x1b[2;8H!");
    // A large one is one synchronized update, written with the cursor hidden (for terminals that
    // ignore the markers), so it never shows jumping across the screen.
    const big = Array.from({ length: 20 }, (_, i) => `${i} ${"x".repeat(70)}`);
    const redraw = await h.frame(big, { x: 1, y: 1 });
    expect(redraw.startsWith("\x1b[?2026h\x1b[?25l")).toBe(true);
    expect(redraw.endsWith("\x1b[?25h\x1b[?2026l")).toBe(true);
  });

  it("saves a cursor that stays put and restores it after each frame instead of jumping back", async () => {
    const h = new Harness(80, 24);
    const at = { x: 4, y: 20 };
    await h.frame(["one", "two"], at);
    // The first frame that writes around a cursor that stayed saves it, then restores it.
    const second = await h.frame(["one more", "two"], at);
    expect(second).toBe("\x1b7\x1b[1;4H more\x1b8");
    const third = await h.frame(["one more", "two more"], at);
    expect(third).toBe("\x1b[2;4H more\x1b8");
    // Restoring also brings back the default style it was saved with.
    const styled = await h.frame(["one more", "two \x1b[31mred\x1b[39m"], at);
    expect(styled).toBe("\x1b[2;5H\x1b[0;31mred\x1b[0m\x1b[K\x1b8");
    // The cursor moves: a jump; after a resize the saved cursor is not trusted.
    expect(await h.frame(["one more", "two more"], { x: 5, y: 20 })).toContain("\x1b[21;6H");
    await h.resize(60, 24);
    const redraw = await h.frame(["one more", "two more!"], { x: 5, y: 20 });
    expect(redraw).not.toContain("\x1b8");
    expect(redraw).toContain("\x1b[21;6H");
    expect(await h.frame(["one", "two more!"], { x: 5, y: 20 })).toBe("\x1b7\x1b[1;4H\x1b[K\x1b8");
  });

  it("keeps the cursor shown through a large frame when the terminal synchronizes frames", async () => {
    terminalHints.synchronizedOutput = true;
    try {
      const h = new Harness(80, 24);
      await h.frame(["a", "> hello"], { x: 7, y: 1 });
      const big = Array.from({ length: 20 }, (_, i) => `${i} ${"x".repeat(70)}`);
      const redraw = await h.frame(big, { x: 1, y: 1 });
      expect(redraw).not.toContain("\x1b[?25l");
    } finally {
      terminalHints.synchronizedOutput = false;
    }
  });

  it("writes nothing for an unchanged frame and cursor", async () => {
    const h = new Harness(80, 24);
    await h.frame(["same"], { x: 0, y: 0 });
    h.writer.setCursorPosition({ x: 0, y: 0 });
    expect(h.writer.willRender("same\n")).toBe(false);
    expect(h.writer("same\n")).toBe(false);
  });

  it("after clear() the next frame is drawn whole, even when it is the same text (Ink syncs the old one)", async () => {
    const h = new Harness(80, 24);
    await h.frame(["one", "two"], { x: 1, y: 1 });
    h.writer.clear();
    h.writer.sync("one\ntwo\n");
    await play(h.term, h.chunks.splice(0).join(""));
    expect(text(h.term).slice(0, 2)).toEqual(["", ""]);
    await h.frame(["one", "two"], { x: 1, y: 1 });
    expect(text(h.term).slice(0, 2)).toEqual(["one", "two"]);
  });

  it("done() shows the cursor it hid", () => {
    const h = new Harness(80, 24);
    h.writer("x\n");
    h.writer.done();
    expect(h.all().endsWith("\x1b[?25h")).toBe(true);
  });
});

describe("the cell writer against random frames", () => {
  // A small deterministic generator: the same frames on every run.
  function rng(seed: number) {
    let s = seed >>> 0;
    return () => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
  }
  const pieces = ["a", "b", " ", "word", "中", "字", "😀", "🚀", "é", "e\u0301", "│", "✓", "─"];
  const styles = [
    "",
    "1",
    "2",
    "3",
    "4",
    "7",
    "9",
    "31",
    "42",
    "38;5;117",
    "48;2;40;40;40",
    "1;33;44",
    "22",
    "39",
    "0",
  ];

  function line(r: () => number, cols: number): string {
    let out = "";
    let width = 0;
    const target = Math.floor(r() * (cols + 1));
    while (width < target) {
      if (r() < 0.25) out += `\x1b[${styles[Math.floor(r() * styles.length)]}m`;
      const p = pieces[Math.floor(r() * pieces.length)]!;
      const w = /[中字😀🚀]/u.test(p) ? 2 : p.length;
      if (width + w > cols) break;
      out += p;
      width += w;
    }
    return out;
  }

  it.each(SIZES)("%ix%i: 150 frames of mutated lines match a plain repaint after every step", async (cols, rows) => {
    const r = rng(cols * 1000 + rows);
    const h = new Harness(cols, rows);
    let lines = Array.from({ length: rows - 1 }, () => line(r, cols));
    let cursor: CursorPosition | undefined;
    let restored = 0;
    for (let step = 0; step < 150; step++) {
      const roll = r();
      if (roll < 0.1)
        lines = lines.slice(1).concat(line(r, cols)); // a shift up
      else if (roll < 0.15)
        lines = lines.slice(0, Math.floor(r() * lines.length)); // fewer rows
      else if (roll < 0.2) while (lines.length < rows - 1) lines.push(line(r, cols));
      else {
        const n = 1 + Math.floor(r() * 3);
        for (let k = 0; k < n && lines.length; k++) {
          const i = Math.floor(r() * lines.length);
          const old = lines[i]!;
          // Half the time an edit of the old line (grow, shrink, change in the middle).
          const prefix = Array.from(old)
            .slice(0, Math.floor(r() * old.length))
            .join("")
            .replace(/\x1b(\[[0-9;]*)?$/, "");
          const edited = prefix + line(r, 8);
          lines[i] = r() < 0.5 || stringWidth(edited) > cols ? line(r, cols) : edited;
        }
      }
      // Half the frames keep the cursor where it was (the composer while a reply streams), which
      // the writer restores from the terminal's saved cursor.
      const roll2 = r();
      if (roll2 < 0.25) cursor = undefined;
      else if (roll2 < 0.5 || !cursor) cursor = { x: Math.floor(r() * cols), y: Math.floor(r() * (rows - 1)) };
      await h.frame(lines, cursor);
      if (h.last.includes("\x1b8")) restored++;
    }
    expect(h.all().split("\x1b[2J").length).toBe(1);
    expect(restored).toBeGreaterThan(10);
  });
});
