// splitStable: a table of streaming cases, then the invariants checked on every prefix of a few
// documents fed one character at a time (blocks only ever become stable, nothing is lost).
import { describe, expect, it } from "vitest";
import { closesFence, fenceOpener, scanBlocks, splitAll, splitStable } from "../../../src/ui/render/markdown-split.js";

interface Case {
  name: string;
  text: string;
  stable: string[];
  tail: string;
}

const CASES: Case[] = [
  { name: "empty text", text: "", stable: [], tail: "" },
  { name: "one paragraph still being written", text: "Hello wor", stable: [], tail: "Hello wor" },
  { name: "a paragraph ended by a newline is not finished yet", text: "Hello\n", stable: [], tail: "Hello\n" },
  { name: "a blank line finishes a paragraph", text: "One\n\nTwo", stable: ["One"], tail: "\n\nTwo" },
  { name: "a whitespace-only line is blank", text: "One\n  \t\nTwo", stable: ["One"], tail: "\n  \t\nTwo" },
  { name: "several blank lines are one separator", text: "A\n\n\n\nB\n\n", stable: ["A", "B"], tail: "\n\n" },
  { name: "a half-typed blank line does not finish", text: "A\n  ", stable: [], tail: "A\n  " },
  { name: "a list continues across single newlines", text: "- a\n- b\n- c", stable: [], tail: "- a\n- b\n- c" },
  { name: "a finished list", text: "- a\n- b\n\nNext", stable: ["- a\n- b"], tail: "\n\nNext" },
  {
    name: "a table continues across single newlines",
    text: "| a | b |\n|---|---|\n| 1 | 2 |\n",
    stable: [],
    tail: "| a | b |\n|---|---|\n| 1 | 2 |\n",
  },
  { name: "a finished table", text: "| a |\n|---|\n| 1 |\n\nx", stable: ["| a |\n|---|\n| 1 |"], tail: "\n\nx" },
  { name: "an open fence is the tail", text: "```ts\nconst a = 1;\n", stable: [], tail: "```ts\nconst a = 1;\n" },
  { name: "blank lines inside a fence do not split", text: "```\na\n\n\nb\n", stable: [], tail: "```\na\n\n\nb\n" },
  { name: "a fence is finished by its closing line", text: "```ts\nx\n```\n", stable: ["```ts\nx\n```"], tail: "\n" },
  {
    name: "a closing fence without its newline is not yet final",
    text: "```ts\nx\n```",
    stable: [],
    tail: "```ts\nx\n```",
  },
  { name: "text right after a closed fence", text: "```\nx\n```\nafter", stable: ["```\nx\n```"], tail: "\nafter" },
  {
    name: "tilde fences with an info string",
    text: "~~~python title\nprint(1)\n```\n~~~\n",
    stable: ["~~~python title\nprint(1)\n```\n~~~"],
    tail: "\n",
  },
  {
    name: "a shorter fence does not close a longer one",
    text: "````md\n```\ninner\n```\n````\n",
    stable: ["````md\n```\ninner\n```\n````"],
    tail: "\n",
  },
  {
    name: "a fence opened mid-paragraph cuts the paragraph",
    text: "Look:\n```js\nf()\n",
    stable: ["Look:"],
    tail: "\n```js\nf()\n",
  },
  {
    name: "an indented fence stays in its list item",
    text: "- item\n  ```sh\n  ls\n\n  pwd\n  ```\n- next\n",
    stable: [],
    tail: "- item\n  ```sh\n  ls\n\n  pwd\n  ```\n- next\n",
  },
  {
    name: "a list item with a fence, finished",
    text: "1. run\n   ```\n   x\n   ```\n\nDone",
    stable: ["1. run\n   ```\n   x\n   ```"],
    tail: "\n\nDone",
  },
  { name: "a heading is a block as soon as its line ends", text: "# Title\nText", stable: ["# Title"], tail: "\nText" },
  { name: "a heading cuts the paragraph above it", text: "para\n## Sub\n", stable: ["para", "## Sub"], tail: "\n" },
  { name: "a heading still being typed is the tail", text: "para\n\n## Su", stable: ["para"], tail: "\n\n## Su" },
  { name: "an indented hash line is not a heading cut", text: "- a\n  # b\n", stable: [], tail: "- a\n  # b\n" },
  {
    name: "backticks with a backtick in the info string are not a fence",
    text: "```a`b\n\nnext",
    stable: ["```a`b"],
    tail: "\n\nnext",
  },
  { name: "CRLF blank lines", text: "A\r\n\r\nB", stable: ["A\r"], tail: "\n\r\nB" },
  { name: "CJK paragraphs", text: "日本語の段落。\n\n第二段落", stable: ["日本語の段落。"], tail: "\n\n第二段落" },
];

describe("splitStable cases", () => {
  it.each(CASES)("$name", ({ text, stable, tail }) => {
    expect(splitStable(text)).toEqual({ stable, tail });
  });
});

describe("fence helpers", () => {
  it("recognises openers and their closers", () => {
    expect(fenceOpener("  ```ts")).toEqual({ char: "`", len: 3, indent: 2 });
    expect(fenceOpener("~~~~")).toEqual({ char: "~", len: 4, indent: 0 });
    expect(fenceOpener("``")).toBeNull();
    const fence = { char: "`" as const, len: 4 };
    expect(closesFence("````", fence)).toBe(true);
    expect(closesFence("  `````  ", fence)).toBe(true);
    expect(closesFence("```", fence)).toBe(false);
    expect(closesFence("```` x", fence)).toBe(false);
    expect(closesFence("~~~~", fence)).toBe(false);
  });
});

describe("scanBlocks", () => {
  it("resumes from the end of a block and finds the same blocks", () => {
    const text = "A\n\nB\n\n```\nc\n\nd\n```\nE\n\nF";
    const whole = scanBlocks(text);
    const first = scanBlocks(text.slice(0, 6));
    expect(first.blocks).toEqual(["A", "B"]);
    const rest = scanBlocks(text, first.tailStart);
    expect([...first.blocks, ...rest.blocks]).toEqual(whole.blocks);
    expect(rest.tailStart).toBe(whole.tailStart);
  });

  it("reports block end offsets into the text", () => {
    const text = "A\n\nBB\n\nC";
    const { blocks, ends } = scanBlocks(text);
    blocks.forEach((b, i) => expect(text.slice((ends[i] ?? 0) - b.length, ends[i])).toBe(b));
  });
});

describe("splitAll", () => {
  it("adds the trimmed tail of a finished message as the last block", () => {
    expect(splitAll("A\n\n```js\nx\n```")).toEqual(["A", "```js\nx\n```"]);
    expect(splitAll("A\n\n\n")).toEqual(["A"]);
  });
});

const DOCS: Record<string, string> = {
  mixed: [
    "# Plan",
    "Some intro text with `code` and **bold**.",
    "",
    "1. First step",
    "2. Second step",
    "   ```bash",
    "   npm test",
    "",
    "   npm run build",
    "   ```",
    "3. Third",
    "",
    "| file | change |",
    "|------|--------|",
    "| a.ts | added |",
    "",
    "Then:",
    "```ts",
    "export const x = 1;",
    "",
    "```",
    "Done.",
    "",
  ].join("\n"),
  cjk: "## 概要\n\n日本語の説明です。🚀\n中文的句子。\n\n- 項目一\n- 項目二\n\n~~~\n코드\n~~~\n\n終わり",
  nested: "> quote\n> ```\n> x\n> ```\n\n- a\n  - b\n\n    indented code\n\n````md\n```\ninner\n```\n````\ntext",
};

const nonBlank = (s: string): string[] => s.split("\n").filter((l) => l.trim() !== "");

describe("splitStable invariants on every prefix", () => {
  for (const [name, doc] of Object.entries(DOCS)) {
    it(`${name}: stable blocks only grow, reassemble the text, and never end inside a fence`, () => {
      let previous: string[] = [];
      for (let n = 0; n <= doc.length; n++) {
        const prefix = doc.slice(0, n);
        const { stable, tail } = splitStable(prefix);
        expect(stable.slice(0, previous.length), `prefix ${n}`).toEqual(previous);
        expect(nonBlank(stable.join("\n\n") + tail)).toEqual(nonBlank(prefix));
        expect(prefix.endsWith(tail)).toBe(true);
        for (const block of stable) {
          expect(block.trim()).not.toBe("");
          let fence: ReturnType<typeof fenceOpener> = null;
          for (const line of block.split("\n")) {
            if (fence) fence = closesFence(line, fence) ? null : fence;
            else fence = fenceOpener(line);
          }
          expect(fence, `open fence in ${JSON.stringify(block)}`).toBeNull();
        }
        previous = stable;
      }
    });
  }

  it("gives the same blocks whatever the chunk sizes", () => {
    const doc = DOCS.mixed ?? "";
    const final = splitStable(doc).stable;
    for (const size of [1, 2, 3, 7, 64]) {
      let seen: string[] = [];
      for (let n = 0; n < doc.length; n += size) seen = splitStable(doc.slice(0, n)).stable;
      expect(final.slice(0, seen.length)).toEqual(seen);
    }
  });
});
