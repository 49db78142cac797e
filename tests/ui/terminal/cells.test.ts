// A styled line as terminal cells: graphemes, widths, the SGR state as a canonical style.
import { describe, expect, it } from "vitest";
import { applySgr, parseLine } from "../../../src/ui/terminal/cells.js";

describe("parseLine", () => {
  it("gives a wide character two cells and a grapheme cluster one character", () => {
    expect(parseLine("a中b", 80).chars).toEqual(["a", "中", "", "b"]);
    expect(parseLine("e\u0301x", 80).chars).toEqual(["e\u0301", "x"]);
    expect(parseLine("👍🏽!", 80).chars).toEqual(["👍🏽", "", "!"]);
    expect(parseLine("│ ✓ ─", 80).chars).toEqual(["│", " ", "✓", " ", "─"]);
  });

  it("keeps styles per cell, drops other escapes and control characters, trims default blanks", () => {
    const row = parseLine("\x1b[1mB\x1b[22m\x1b[2Kx\x1b]8;;http://a\x07l\x1b]8;;\x07\t  \x1b[44m \x1b[49m  ", 80);
    expect(row.chars).toEqual(["B", "x", "l", " ", " ", " "]);
    expect(row.styles).toEqual(["1", "", "", "", "", "44"]);
  });

  it("cuts at the width, and a wide character cut in half becomes a blank", () => {
    expect(parseLine("abcdef", 4).chars).toEqual(["a", "b", "c", "d"]);
    expect(parseLine("ab中", 3).chars).toEqual(["a", "b"]);
  });
});

describe("applySgr", () => {
  it.each([
    ["", "1;31", "1;31"],
    ["1;31", "22", "31"],
    ["1;31", "0", ""],
    ["1;31", "", ""],
    ["31", "38;5;208", "38;5;208"],
    ["", "38;2;1;2;3;1", "1;38;2;1;2;3"],
    ["4", "4:0", ""],
    ["7", "27;44", "44"],
    ["2", "1", "1;2"],
  ])("%j then ESC[%sm gives %j", (from, params, to) => {
    expect(applySgr(from, params)).toBe(to);
  });
});
