// Painters at each colour depth: no escapes at 0, 24-bit codes only at 24, and Ink props that match.
import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import { builtinTheme } from "../../../src/ui/theme/load.js";
import { ansi256To16, colorAtDepth, hexToAnsi256, makePalette } from "../../../src/ui/theme/palette.js";
import { builtinThemeNames, tokenNames, type Theme } from "../../../src/ui/theme/tokens.js";

const ESC = "\x1b";

function themeWith(tokens: Partial<Theme["tokens"]>): Theme {
  const base = builtinTheme("dark");
  return { name: "test", source: "test", tokens: { ...base.tokens, ...tokens } };
}

const hexTheme = themeWith({
  accent: { fg: "#ff8800" },
  selection: { bg: "#123456" },
  code: { fg: 202 },
  error: { fg: "red", bold: true },
});

describe("makePalette", () => {
  it.each(builtinThemeNames)(
    "depth 0 with %s: every token but selection is the identity and Ink gets no style",
    (name) => {
      const p = makePalette(builtinTheme(name), 0);
      for (const t of tokenNames) {
        if (t !== "selection") expect(p[t]("hello")).toBe("hello");
        expect(p.inkProps(t)).toEqual({});
        expect(p.inkBorderProps(t)).toEqual({});
      }
    },
  );

  it('depth 0: the selection is a "› " marker that keeps the row\'s width', () => {
    const p = makePalette(builtinTheme("dark"), 0);
    // Padding gives way first; a full row loses its end.
    expect(p.selection("a row     ")).toBe("› a row   ");
    expect(p.selection("full row!!")).toBe("› full ro…");
    // The widest gap between words gives way, so a right-aligned time stays.
    expect(p.selection("1 agent  running     1m05s")).toBe("› 1 agent  running   1m05s");
    expect(p.selection("    indented body")).toBe("›     indented b…");
    // A user prompt starts with "›" of its own and still gets the marker.
    expect(p.selection("› prompt  ")).toBe("› › prompt");
    // Rows with their own "›" gutter take the style alone: nothing at depth 0.
    expect(p.selectionStyle("› turn 3")).toBe("› turn 3");
    expect(p.selection("x")).toBe("›");
    expect(p.selection("")).toBe("");
    // With colour the style marks it and the text stays as it was.
    expect(
      makePalette(builtinTheme("dark"), 4)
        .selection("a row")
        .replace(/\x1b\[[\d;]*m/g, ""),
    ).toBe("a row");
  });

  it.each(builtinThemeNames)("depth 24 with %s: every token paints something or passes text through", (name) => {
    const p = makePalette(builtinTheme(name), 24);
    for (const t of tokenNames) {
      const out = p[t]("x");
      const styled = Object.keys(builtinTheme(name).tokens[t]).length > 0;
      expect(out.includes(ESC)).toBe(styled);
      expect(out.replace(/\x1b\[[\d;]*m/g, "")).toBe("x");
    }
  });

  it("depth 4: hex and 256 colours come down to the 16 ANSI codes", () => {
    const p = makePalette(hexTheme, 4);
    for (const t of ["accent", "selection", "code"] as const) {
      const out = p[t]("x");
      expect(out).toContain(ESC);
      expect(out).not.toMatch(/[34]8;[25];/);
    }
    expect(p.accent("x")).toMatch(/\x1b\[(3[0-7]|9[0-7])m/);
    expect(p.selection("x")).toMatch(/\x1b\[(4[0-7]|10[0-7])m/);
  });

  it("depth 8: hex becomes a 256-colour index, never 24-bit", () => {
    const p = makePalette(hexTheme, 8);
    expect(p.accent("x")).toContain(`${ESC}[38;5;${hexToAnsi256("#ff8800")}m`);
    expect(p.selection("x")).toContain(`${ESC}[48;5;${hexToAnsi256("#123456")}m`);
    expect(p.code("x")).toContain(`${ESC}[38;5;202m`);
    expect(p.accent("x")).not.toContain("38;2;");
  });

  it("depth 24: hex is sent as 24-bit", () => {
    const p = makePalette(hexTheme, 24);
    expect(p.accent("x")).toContain(`${ESC}[38;2;255;136;0m`);
    expect(p.selection("x")).toContain(`${ESC}[48;2;18;52;86m`);
  });

  it("ANSI names are the same codes at every depth, so the terminal's scheme draws them", () => {
    for (const depth of [4, 8, 24] as const) {
      expect(makePalette(hexTheme, depth).error("x")).toBe(`${ESC}[31m${ESC}[1mx${ESC}[22m${ESC}[39m`);
    }
  });

  it("degrades hex exactly as chalk does at each level", () => {
    for (const hex of ["#ff8800", "#116329", "#808080", "#0969da", "#fafafa", "#000000"] as const) {
      const theme = themeWith({ accent: { fg: hex }, selection: { bg: hex } });
      for (const [depth, level] of [
        [4, 1],
        [8, 2],
        [24, 3],
      ] as const) {
        const c = new Chalk({ level });
        expect(makePalette(theme, depth).accent("x")).toBe(c.hex(hex)("x"));
        expect(makePalette(theme, depth).selection("x")).toBe(c.bgHex(hex)("x"));
      }
    }
  });

  it("styles multi-line text per line so a pane border is never coloured", () => {
    const out = makePalette(hexTheme, 4).error("a\nb");
    expect(out.split("\n").every((line) => line.startsWith(`${ESC}[31m`))).toBe(true);
  });
});

describe("inkProps", () => {
  it("passes names through and maps modifiers to Ink's prop names", () => {
    const p = makePalette(
      themeWith({
        badge: { fg: "black", bg: "cyan", bold: true, dim: true, italic: true, underline: true, inverse: true },
      }),
      4,
    );
    expect(p.inkProps("badge")).toEqual({
      color: "black",
      backgroundColor: "cyan",
      bold: true,
      dimColor: true,
      italic: true,
      underline: true,
      inverse: true,
    });
  });

  it("gives Ink colours already brought down to the depth", () => {
    expect(makePalette(hexTheme, 24).inkProps("accent")).toEqual({ color: "#ff8800" });
    expect(makePalette(hexTheme, 8).inkProps("accent")).toEqual({ color: `ansi256(${hexToAnsi256("#ff8800")})` });
    expect(makePalette(hexTheme, 4).inkProps("accent")).toEqual({ color: ansi256To16(hexToAnsi256("#ff8800")) });
    expect(makePalette(hexTheme, 4).inkProps("code")).toEqual({ color: ansi256To16(202) });
  });

  it("maps a token to Box border props", () => {
    const p = makePalette(builtinTheme("dark"), 8);
    expect(p.inkBorderProps("borderFocused")).toEqual({ borderColor: "cyan" });
    expect(p.inkBorderProps("border")).toEqual({ borderDimColor: true });
  });

  it("returns a fresh object each time", () => {
    const p = makePalette(hexTheme, 24);
    const a = p.inkProps("accent");
    a.bold = true;
    expect(p.inkProps("accent")).toEqual({ color: "#ff8800" });
  });
});

describe("colour conversion", () => {
  it.each<[number, string]>([
    [1, "red"],
    [9, "redBright"],
    [16, "black"],
    [196, "redBright"],
    [46, "greenBright"],
    [231, "whiteBright"],
    [244, "white"],
  ])("256-colour %i -> %s", (index, name) => {
    expect(ansi256To16(index)).toBe(name);
  });

  it("maps greys to the grey ramp and colours to the cube", () => {
    expect(hexToAnsi256("#000000")).toBe(16);
    expect(hexToAnsi256("#ffffff")).toBe(231);
    expect(hexToAnsi256("#808080")).toBe(244);
    expect(hexToAnsi256("#ff0000")).toBe(196);
    expect(colorAtDepth("#ff0000", 0)).toBeUndefined();
    expect(colorAtDepth(3, 24)).toEqual({ name: "yellow" });
  });
});
