// Display-width wrapping: ASCII, ANSI styles carried across breaks, CJK, emoji and ZWJ
// sequences at every width from 1 to 120, plus truncation and padding.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Chalk } from "chalk";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { padToWidth, splitAnsiLines, truncateToWidth, visibleWidth, wrapLine } from "../../../src/ui/render/wrap.js";

const strip = (s: string): string => s.replace(/\x1b\[[0-9;:]*m/g, "");
const color = new Chalk({ level: 3 });

/** True when no SGR attribute is still open at the end of `line` (chalk's codes only). */
function closesItsStyles(line: string): boolean {
  const open = new Set<string>();
  const closers: Record<string, string[]> = {
    "22": ["1", "2"],
    "23": ["3"],
    "24": ["4"],
    "27": ["7"],
    "29": ["9"],
    "39": ["fg"],
    "49": ["bg"],
  };
  for (const m of line.matchAll(/\x1b\[([0-9;]*)m/g)) {
    const params = (m[1] ?? "").split(";");
    for (let i = 0; i < params.length; i++) {
      const p = params[i] ?? "";
      if (p === "" || p === "0") open.clear();
      else if (closers[p]) for (const c of closers[p]) open.delete(c);
      else if (p === "38" || p === "48") open.add(p === "38" ? "fg" : "bg"), (i += params[i + 1] === "5" ? 2 : 4);
      else if (/^(3|9)[0-7]$/.test(p)) open.add("fg");
      else if (/^(4|10)[0-7]$/.test(p)) open.add("bg");
      else open.add(p);
    }
  }
  return open.size === 0;
}

const SAMPLES: Record<string, string> = {
  ascii: "The quick brown fox jumps over the lazy dog, again and again, until the line is long.",
  ansi: `plain ${color.red("red text that runs on")} then ${color.bold.underline("bold underlined words")} end`,
  cjk: "日本語のテキストはそれぞれ二列を占めます。中文也是如此，한국어도 마찬가지입니다。",
  emoji: "ship it 🚀 now 🎉 and 👍🏽 then 🇯🇵 flags 😀😃😄😁",
  zwj: "family 👨‍👩‍👧‍👦 and 👩‍💻 coder and 🏳️‍🌈 flag, e\u0301 combining",
  mixed: `${color.green("緑の")} text ${color.bgBlue.white(" 🚀 launch ")} 한국어 ${color.dim("dim ascii")}`,
};

describe("visibleWidth", () => {
  it.each([
    ["abc", 3],
    ["日本", 4],
    ["🚀", 2],
    ["👨‍👩‍👧‍👦", 2],
    ["e\u0301", 1],
    [color.red("ab") + color.bold("日"), 4],
    ["", 0],
  ])("%j is %i columns", (s, w) => {
    expect(visibleWidth(s)).toBe(w);
  });

  it("measures the UI's glyphs (scripts/narrow-chars.json) as string-width does, alone and next to joiners", () => {
    const { ranges } = JSON.parse(
      readFileSync(resolve(import.meta.dirname, "../../../scripts/narrow-chars.json"), "utf8"),
    ) as { ranges: [string, string][] };
    for (const [from, to] of ranges)
      for (let c = Number.parseInt(from, 16); c <= Number.parseInt(to, 16); c++) {
        const s = `│ ${String.fromCharCode(c)} é 日 ─`;
        expect(visibleWidth(s), c.toString(16)).toBe(stringWidth(s));
        // A combining mark, a variation selector or a joiner after it: measured by graphemes.
        for (const joined of ["\u0301", "\ufe0f", "\u200d🚀"])
          expect(visibleWidth(`─${String.fromCharCode(c)}${joined}`), c.toString(16)).toBe(
            stringWidth(`─${String.fromCharCode(c)}${joined}`),
          );
      }
  });
});

describe("wrapLine", () => {
  it("returns short ASCII unchanged", () => {
    expect(wrapLine("hello", 10)).toEqual(["hello"]);
    expect(wrapLine("", 10)).toEqual([""]);
  });

  it("hard-wraps ASCII by columns", () => {
    expect(wrapLine("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
  });

  it("breaks at spaces in word mode and drops the spaces at the break", () => {
    expect(wrapLine("the quick brown fox", 10, { words: true })).toEqual(["the quick", "brown fox"]);
    expect(wrapLine("aaaa    bbb", 5, { words: true })).toEqual(["aaaa", "bbb"]);
  });

  it("cuts a word longer than the line in word mode", () => {
    expect(wrapLine("a abcdefghijkl b", 5, { words: true })).toEqual(["a", "abcde", "fghij", "kl b"]);
  });

  it("keeps leading indentation and applies the hanging indent", () => {
    expect(wrapLine("  - one two three four", 10, { words: true, indent: 4 })).toEqual([
      "  - one",
      "    two",
      "    three",
      "    four",
    ]);
  });

  it("ignores a hanging indent wider than half the line", () => {
    expect(wrapLine("abcdefgh", 4, { indent: 3 })).toEqual(["abcd", "efgh"]);
  });

  it("wraps CJK by display width, never splitting a character", () => {
    expect(wrapLine("日本語です", 5)).toEqual(["日本", "語で", "す"]);
    expect(wrapLine("a日本", 2)).toEqual(["a", "日", "本"]);
  });

  it("keeps emoji and ZWJ sequences whole", () => {
    expect(wrapLine("👨‍👩‍👧‍👦👨‍👩‍👧‍👦x", 3)).toEqual(["👨‍👩‍👧‍👦", "👨‍👩‍👧‍👦x"]);
    expect(wrapLine("🇯🇵🇫🇷", 2)).toEqual(["🇯🇵", "🇫🇷"]);
  });

  it("replaces a wide grapheme that cannot fit at width 1", () => {
    expect(wrapLine("a日b", 1)).toEqual(["a", "…", "b"]);
  });

  it("reopens styles on the next line and closes them at the break", () => {
    const lines = wrapLine(color.red("abcdef"), 3);
    expect(lines).toEqual(["\x1b[31mabc\x1b[0m", "\x1b[31mdef\x1b[39m"]);
  });

  it("carries nested styles, including 256 and true colour, across breaks", () => {
    const text = color.bold(`ab${color.ansi256(208)("cd")}${color.rgb(1, 2, 3)("ef")}`);
    const lines = wrapLine(text, 3);
    expect(lines.map(strip)).toEqual(["abc", "def"]);
    expect(lines[1]?.startsWith("\x1b[1;38;5;208m")).toBe(true);
    expect(lines[1]).toContain("\x1b[38;2;1;2;3m");
  });

  it("does not carry a style that was closed before the break", () => {
    const lines = wrapLine(`${color.red("ab")}cdef`, 3);
    expect(lines[1]).toBe("def");
  });

  it("passes OSC hyperlinks through at zero width", () => {
    const link = "\x1b]8;;http://x\x07link\x1b]8;;\x07";
    expect(wrapLine(link, 4)).toEqual([link]);
  });

  it("treats an embedded newline as a break and carries styles over it", () => {
    expect(wrapLine(color.red("ab\ncd"), 10).map((l) => l.startsWith("\x1b[31m"))).toEqual([true, true]);
  });

  it("expands tabs to tab stops and drops control characters", () => {
    expect(wrapLine("a\tb\r\x07c", 20)).toEqual(["a   bc"]);
    expect(wrapLine("\t日", 20)).toEqual(["    日"]);
  });

  it("places escapes the same way on the styled-ASCII fast path as on the grapheme path", () => {
    // "×" is one column like "x" but not ASCII, so it forces the general path.
    let seed = 7;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const styles = [color.red, color.bold, color.bgBlue, color.underline.green, color.dim];
    for (let t = 0; t < 200; t++) {
      let text = "";
      while (text.length < 120) {
        const word = "x".repeat(1 + rand(9));
        text += (rand(3) === 0 ? (styles[rand(styles.length)] ?? color.red)(word) : word) + " ".repeat(1 + rand(2));
      }
      const width = 3 + rand(40);
      for (const words of [false, true]) {
        const fast = wrapLine(text, width, { words, indent: 2 });
        const general = wrapLine(text.replace(/x/g, "×"), width, { words, indent: 2 }).map((l) => l.replace(/×/g, "x"));
        expect(fast, JSON.stringify({ text, width, words })).toEqual(general);
      }
    }
  });

  it("agrees with string-width on every code point it measures without it", () => {
    const ranges: [number, number][] = [
      [0xa0, 0x2ff],
      [0x391, 0x3c9],
      [0x400, 0x45f],
      [0x3001, 0x3011],
      [0x3041, 0x30fa],
      [0x3400, 0x3500],
      [0x4e00, 0x9fff],
      [0xac00, 0xd7a3],
      [0xff01, 0xff60],
    ];
    for (const [from, to] of ranges) {
      for (let c = from; c <= to; c++) {
        const s = String.fromCharCode(c);
        expect(visibleWidth(s), c.toString(16)).toBe(stringWidth(s));
      }
    }
  });

  it("sums grapheme widths exactly as string-width measures the whole", () => {
    for (const s of Object.values(SAMPLES)) {
      expect(
        wrapLine(s, 1000)
          .map(visibleWidth)
          .reduce((a, b) => a + b, 0),
      ).toBe(stringWidth(s));
    }
  });

  for (const [name, text] of Object.entries(SAMPLES)) {
    for (const words of [false, true]) {
      it(`${name} (${words ? "words" : "hard"}): no line exceeds the width at 1..120 and no visible text is lost`, () => {
        const flat = strip(text).replace(/ /g, "");
        for (let width = 1; width <= 120; width++) {
          const lines = wrapLine(text, width, { words, indent: 2 });
          for (const line of lines)
            expect(visibleWidth(line), `width ${width}: ${JSON.stringify(line)}`).toBeLessThanOrEqual(width);
          if (width >= 2) expect(strip(lines.join("")).replace(/ /g, "")).toBe(flat);
          // Every line is self-contained: it ends with no style open.
          for (const line of lines) expect(closesItsStyles(line), JSON.stringify(line)).toBe(true);
        }
      });
    }
  }
});

describe("splitAnsiLines", () => {
  it("splits plain text on newlines", () => {
    expect(splitAnsiLines("a\nb\n")).toEqual(["a", "b", ""]);
  });

  it("closes and reopens a style that spans lines", () => {
    expect(splitAnsiLines("\x1b[2mone\ntwo\x1b[22m")).toEqual(["\x1b[2mone\x1b[0m", "\x1b[2mtwo\x1b[22m"]);
  });
});

describe("truncateToWidth", () => {
  it.each([
    ["hello world", 5, "hell…"],
    ["hello", 5, "hello"],
    ["日本語", 4, "日…"],
    ["日本語", 5, "日本…"],
    ["abc", 0, ""],
    ["abc", 1, "…"],
  ])("%j at %i is %j", (s, w, expected) => {
    expect(truncateToWidth(s, w)).toBe(expected);
  });

  it("closes styles it cut off and honours a custom ellipsis", () => {
    const out = truncateToWidth(color.red("abcdef"), 4, "..");
    expect(out).toBe("\x1b[31mab\x1b[0m..");
    expect(visibleWidth(out)).toBe(4);
  });
});

describe("padToWidth", () => {
  it("pads by display width with the requested alignment", () => {
    expect(padToWidth("日", 5)).toBe("日   ");
    expect(padToWidth("ab", 5, "right")).toBe("   ab");
    expect(padToWidth("ab", 6, "center")).toBe("  ab  ");
    expect(padToWidth("abcdef", 3)).toBe("abcdef");
  });
});
