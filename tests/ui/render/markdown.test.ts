// Rendering finished blocks with the full renderer (marked + marked-terminal + cli-highlight):
// each Markdown construct, tables fitted to the width, highlighting, and the width guarantee.
import { Chalk } from "chalk";
import { beforeAll, describe, expect, it } from "vitest";
import {
  defaultStyles,
  isMarkdownLoaded,
  loadMarkdown,
  plainStyles,
  renderBlock,
  renderMarkdown,
  renderUnwrapped,
} from "../../../src/ui/render/markdown.js";
import { layoutBlock } from "../../../src/ui/render/markdown-layout.js";
import { visibleWidth } from "../../../src/ui/render/wrap.js";
import { SAMPLE, stripAnsi, tagStyles } from "./fixtures.js";

const plain = (width: number) => ({ width, styles: plainStyles, highlight: true });
const tagged = (width: number) => ({ width, styles: tagStyles, highlight: true });

beforeAll(async () => {
  await loadMarkdown();
});

describe("loadMarkdown", () => {
  it("loads once and switches renderBlock to the full renderer", async () => {
    expect(isMarkdownLoaded()).toBe(true);
    expect(loadMarkdown()).toBe(loadMarkdown());
    // Tables only exist in the full renderer.
    expect(renderBlock("| a |\n|---|\n| 1 |", plain(40))[0]).toBe("┌───┐");
  });
});

describe("renderBlock with the full renderer", () => {
  it("draws headings in the heading style without their # marks", () => {
    expect(renderBlock("# Top", tagged(40))).toEqual(["<h>Top</h>"]);
    expect(renderBlock("### Deep *em*", tagged(40))).toEqual(["<h>Deep <i>em</i></h>"]);
  });

  it("keeps the # marks where the heading style draws nothing (NO_COLOR)", () => {
    expect(renderBlock("## Plan", { width: 40, styles: plainStyles, highlight: true })).toEqual(["## Plan"]);
  });

  it("draws emphasis, inline code and links as text plus URL", () => {
    expect(renderBlock("**b** *i* `c` [text](http://u.rl) <http://auto.link>", tagged(200))).toEqual([
      "<b>b</b> <i>i</i> <c>c</c> text (<u>http://u.rl</u>) <u>http://auto.link</u>",
    ]);
  });

  it("keeps inline styles in tight list items and nests lists under their text", () => {
    expect(renderBlock("- **a**\n  - `b`\n- c", tagged(80))).toEqual([
      "<li>•</li> <b>a</b>",
      "  <li>•</li> <c>b</c>",
      "<li>•</li> c",
    ]);
  });

  it("numbers an ordered list from its start and marks tasks", () => {
    expect(renderBlock("7. seven\n8. eight", plain(40))).toEqual(["7. seven", "8. eight"]);
    expect(renderBlock("- [x] done\n- [ ] todo", plain(40))).toEqual(["[x] done", "[ ] todo"]);
  });

  it("hangs wrapped list text under the item's text", () => {
    expect(renderBlock("- one two three four five", plain(12))).toEqual(["• one two", "  three four", "  five"]);
  });

  it("draws block quotes with a bar repeated on wrapped lines", () => {
    expect(renderBlock("> one two three four", plain(14))).toEqual(["│ one two", "│ three four"]);
    const dim = new Chalk({ level: 1 }).dim;
    const lines = renderBlock("> one two three four", { width: 14, styles: { ...plainStyles, dim }, highlight: true });
    expect(lines).toEqual([`${dim("│")} one two`, `${dim("│")} three four`]);
  });

  it("fills a rule to the width", () => {
    expect(renderBlock("***", tagged(10))).toEqual([`<hr>${"─".repeat(10)}</hr>`]);
  });

  it("draws a table at its natural width when it fits", () => {
    expect(renderBlock("| a | bb |\n|---|---:|\n| 1 | 2 |", plain(40))).toEqual([
      "┌───┬────┐",
      "│ a │ bb │",
      "├───┼────┤",
      "│ 1 │  2 │",
      "└───┴────┘",
    ]);
  });

  it("wraps table cells to fit a narrow width, keeping short columns whole", () => {
    const lines = renderBlock("| id | text |\n|---|---|\n| 1 | a long cell that has to wrap |", plain(20));
    expect(lines[0]).toBe("┌────┬─────────────┐");
    expect(lines.length).toBeGreaterThan(5);
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(20);
    expect(lines.join("\n")).toContain("│ 1  │ a long cell │");
  });

  it("stacks a table as header: value lines when columns cannot fit", () => {
    const lines = renderBlock("| alpha | beta | gamma | delta |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |", plain(14));
    expect(lines).toEqual(["alpha: 1", "beta: 2", "gamma: 3", "delta: 4"]);
  });

  it("indents fenced code and uses the codeBlock style when the styles have no syntax colours", () => {
    expect(renderBlock("```js\nlet a = 1;\n```", tagged(40))).toEqual(["  <pre>let a = 1;</pre>"]);
  });

  it("applies the codeBlock style when not highlighting", () => {
    expect(renderBlock("```js\nlet a = 1;\n```", { width: 40, styles: tagStyles, highlight: false })).toEqual([
      "  <pre>let a = 1;</pre>",
    ]);
    expect(renderBlock("```nosuchlang\nx\n```", tagged(40))).toEqual(["  <pre>x</pre>"]);
  });

  it("strips escape sequences the model wrote, so it cannot drive the terminal", () => {
    expect(renderBlock("a \x1b[31mred\x1b[0m \x1b]8;;http://x\x07b", plain(40))).toEqual([
      "a [31mred[0m ]8;;http://xb",
    ]);
  });

  it("re-lays out from the unwrapped render at any width", () => {
    const rendered = renderUnwrapped(SAMPLE, plainStyles, true);
    for (const width of [20, 40, 80])
      expect(layoutBlock(rendered, width, plainStyles)).toEqual(renderBlock(SAMPLE, plain(width)));
  });

  for (const width of [20, 40, 80, 120]) {
    it(`never exceeds ${width} columns, with and without colour`, () => {
      const styles = [plainStyles, defaultStyles(new Chalk({ level: 3 }))];
      for (const s of styles) {
        const lines = renderMarkdown(SAMPLE, { width, styles: s, highlight: true });
        expect(lines.length).toBeGreaterThan(15);
        for (const line of lines) expect(visibleWidth(line), JSON.stringify(line)).toBeLessThanOrEqual(width);
      }
    });
  }

  it("keeps all the text of the sample at a wide width", () => {
    const text = stripAnsi(renderMarkdown(SAMPLE, plain(200)).join("\n"));
    for (const word of [
      "heading",
      "averyveryveryverylongwordthatmustbecut",
      "nested item",
      "display-width",
      "veryLongFunctionName",
      "Final paragraph.",
    ]) {
      expect(text).toContain(word);
    }
  });
});

describe("with colours on", () => {
  const chalk = new Chalk({ level: 1 });
  const styles = defaultStyles(chalk);

  it("styles headings, inline code and links with ANSI named colours", () => {
    const [heading] = renderBlock("# Title", { width: 40, styles, highlight: true });
    expect(heading).toBe("\x1b[1m\x1b[4mTitle\x1b[24m\x1b[22m");
    expect(renderBlock("## Part", { width: 40, styles, highlight: true })).toEqual(["\x1b[1mPart\x1b[22m"]);
    const [line] = renderBlock("`x` [t](http://u)", { width: 40, styles, highlight: true });
    expect(line).toBe("\x1b[36mx\x1b[39m t (\x1b[36m\x1b[4mhttp://u\x1b[24m\x1b[39m)");
  });

  it("highlights code in a known language, and only when asked", () => {
    const on = renderBlock('```ts\nconst s = "x"; // c\n```', { width: 80, styles, highlight: true });
    expect(on[0]).toContain("\x1b[35mconst\x1b[39m");
    expect(on[0]).toContain('\x1b[32m"x"\x1b[39m');
    const off = renderBlock('```ts\nconst s = "x"; // c\n```', { width: 80, styles, highlight: false });
    expect(off).toEqual(['  const s = "x"; // c']);
  });

  it("carries highlight colours onto wrapped continuation lines", () => {
    const lines = renderBlock('```ts\nconst s = "a string long enough to be cut in two";\n```', {
      width: 24,
      styles,
      highlight: true,
    });
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[1]).toMatch(/^ {2}\x1b\[32m/);
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(24);
  });
});
