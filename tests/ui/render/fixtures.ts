// Shared Markdown documents and helpers for the rendering tests.
import type { MarkdownStyles } from "../../../src/ui/render/markdown.js";

export const stripAnsi = (s: string): string => s.replace(/\x1b\[[0-9;:]*m/g, "");

/** Styles that tag what they style, so a test can see which style was applied where. */
export const tagStyles: MarkdownStyles = {
  heading: (s) => `<h>${s}</h>`,
  strong: (s) => `<b>${s}</b>`,
  em: (s) => `<i>${s}</i>`,
  code: (s) => `<c>${s}</c>`,
  codeBlock: (s) => `<pre>${s}</pre>`,
  link: (s) => `<u>${s}</u>`,
  quote: (s) => `<q>${s}</q>`,
  listBullet: (s) => `<li>${s}</li>`,
  hr: (s) => `<hr>${s}</hr>`,
  tableBorder: (s) => s,
  dim: (s) => `<d>${s}</d>`,
};

/** One of everything, with long words, URLs, CJK and emoji to stress the widths. */
export const SAMPLE = [
  "# A heading that is rather long for a narrow pane",
  "",
  "Paragraph with **bold**, *em*, `inline code`, a [link](https://example.com/a/very/long/path/that/does/not/fit) and averyveryveryverylongwordthatmustbecut.",
  "",
  "- first item with enough words to wrap at narrow widths",
  "- second with `code`",
  "  - nested item 日本語のテキスト 🚀",
  "- [x] done task",
  "",
  "3. three",
  "4. four",
  "",
  "> A quote that goes on for a while so that it has to wrap inside its bar.",
  "",
  "| Name | Description | Size |",
  "|------|-------------|-----:|",
  "| wrap.ts | display-width wrapping of ANSI text | 275 |",
  "| 日本語 | 幅の広い文字 | 3 |",
  "",
  "---",
  "",
  "```ts",
  "export function veryLongFunctionName(parameterOne: string, parameterTwo: number): string { return parameterOne.repeat(parameterTwo); }",
  "\tconst tabbed = true;",
  "```",
  "",
  "```unknownlang",
  "plain text in an unknown language",
  "```",
  "",
  "Final paragraph.",
].join("\n");

/** A long assistant message built from varied sections, about `lines` lines. */
export function longDocument(lines: number): string {
  const out: string[] = [];
  for (let s = 0; out.length < lines; s++) {
    out.push(
      `## Section ${s}`,
      "",
      `Intro paragraph ${s} with **bold** and \`code\`, then some more words to wrap.`,
      "",
    );
    switch (s % 5) {
      case 0:
        out.push("- item one", "- item two", "  - nested", "- item three", "");
        break;
      case 1:
        out.push("```ts", `const value${s} = ${s};`, "", `function f${s}() { return value${s} * 2; }`, "```", "");
        break;
      case 2:
        out.push("| col | value |", "|-----|-------|", `| a | ${s} |`, "| b | 日本語 |", "");
        break;
      case 3:
        out.push("> quoted line one", "> quoted line two", "", "1. first", "2. second", "");
        break;
      default:
        out.push("中文段落，包含一些宽字符。🚀 Emoji too.", "Second line of the same paragraph.", "");
    }
  }
  return out.slice(0, lines).join("\n");
}
