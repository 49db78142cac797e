// A finished reply in the transcript: its closing block (a table with nothing after it) renders in
// full, fenced code is highlighted with the theme's syntax colours, a diff fence is red and green,
// and headings lose their # marks. At 40, 80 and 120 columns.
import { beforeAll, describe, expect, it } from "vitest";
import { loadMarkdown } from "../../../src/ui/render/markdown.js";
import { builtinTheme } from "../../../src/ui/theme/load.js";
import { makePalette } from "../../../src/ui/theme/palette.js";
import { markdownStyles } from "../../../src/ui/view/panes.js";
import { TranscriptRenderer } from "../../../src/ui/view/transcript-view.js";
import type { Block } from "../../../src/ui/state/transcript.js";
import { stripAnsi } from "./fixtures.js";

const palette = makePalette(builtinTheme("dark"), 4);
const reply = (text: string, done: boolean): Block => ({ kind: "assistant", id: `a${done}`, text, done });
const answer =
  "## Plan\n\nThe numbers:\n\n```ts\nconst x = 1; // one\n```\n\n```diff\n- old\n+ new\n```\n\n| Name | Value |\n|------|-------|\n| alpha | 1 |";

beforeAll(async () => {
  await loadMarkdown();
});

describe.each([40, 80, 120])("a finished reply at %i columns", (width) => {
  const lines = () => new TranscriptRenderer(palette, markdownStyles(palette), false).lines(reply(answer, true), width);

  it("renders a table that ends the reply as a table, not as pipes", () => {
    const text = lines().map(stripAnsi);
    expect(text.some((l) => l.includes("| alpha | 1 |"))).toBe(false);
    expect(text.some((l) => /alpha\s+│\s+1/.test(l) || /alpha\s+1/.test(l))).toBe(true);
  });

  it("drops the heading's # marks and styles it", () => {
    const all = lines();
    const heading = all.find((l) => stripAnsi(l).trim() === "Plan");
    expect(heading).toBeDefined();
    expect(heading).toContain("\x1b[");
    expect(all.some((l) => stripAnsi(l).includes("## Plan"))).toBe(false);
  });

  it("highlights code by language and colours a diff fence red and green", () => {
    const all = lines();
    const code = all.find((l) => stripAnsi(l).includes("const x = 1;")) ?? "";
    expect(code).toContain(palette.syntaxKeyword("const"));
    expect(code).toContain(palette.syntaxComment("// one"));
    expect(all.find((l) => stripAnsi(l).includes("+ new"))).toContain(palette.diffAdd("+ new"));
    expect(all.find((l) => stripAnsi(l).includes("- old"))).toContain(palette.diffDel("- old"));
  });
});

describe("a reply still streaming", () => {
  it("keeps its unfinished last block cheap (the finished-block cache is unchanged)", () => {
    const r = new TranscriptRenderer(palette, markdownStyles(palette), false);
    const streaming = r.lines(reply(answer, false), 80).map(stripAnsi);
    expect(streaming.some((l) => l.includes("| alpha | 1 |"))).toBe(true);
  });
});
