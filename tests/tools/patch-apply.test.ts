// applyHunks, table-driven: file text and hunks in, new text and counts (or the error) out.
import { describe, expect, it } from "vitest";
import { ToolError } from "../../src/tools/define.js";
import { applyHunks } from "../../src/tools/patch-apply.js";
import type { Hunk } from "../../src/tools/patch-parse.js";

interface Case {
  name: string;
  before: string;
  hunks: Hunk[];
  after?: string;
  counts?: [added: number, removed: number];
  error?: string | RegExp;
}

const h = (oldLines: string[], newLines: string[], extra: Partial<Hunk> = {}): Hunk => ({
  oldLines,
  newLines,
  ...extra,
});

const cases: Case[] = [
  {
    name: "exact replacement",
    before: "a\nb\nc\n",
    hunks: [h(["a", "b"], ["a", "B"])],
    after: "a\nB\nc\n",
    counts: [1, 1],
  },
  {
    name: "context between changes is not counted",
    before: "1\n2\n3\n",
    hunks: [h(["1", "2", "3"], ["one", "2", "three"])],
    after: "one\n2\nthree\n",
    counts: [2, 2],
  },
  { name: "insert into an empty file", before: "", hunks: [h([], ["x", "y"])], after: "x\ny\n", counts: [2, 0] },
  { name: "remove every line", before: "a\nb\n", hunks: [h(["a", "b"], [])], after: "", counts: [0, 2] },
  {
    name: "mixed endings: untouched lines keep theirs, new lines get the majority",
    before: "a\r\nb\r\nc\nd\r\n",
    hunks: [h(["c"], ["C", "C2"])],
    after: "a\r\nb\r\nC\r\nC2\r\nd\r\n",
  },
  { name: "a CRLF file without final newline", before: "a\r\nb", hunks: [h(["b"], ["b", "c"])], after: "a\r\nb\r\nc" },
  {
    name: "a unified diff may add the final newline",
    before: "a",
    hunks: [h(["a"], ["a"], { finalNewline: true, endOfFile: true })],
    after: "a\n",
    counts: [0, 0],
  },
  {
    name: "a unified diff may drop the final newline",
    before: "a\nb\n",
    hunks: [h(["b"], ["c"], { finalNewline: false, endOfFile: true })],
    after: "a\nc",
  },
  {
    name: "fuzzy context keeps the file's own whitespace",
    before: "  x  \n  y\n",
    hunks: [h(["x", "y"], ["x", "z"])],
    after: "  x  \nz\n",
  },
  {
    name: "non-breaking spaces and ellipses match plain text",
    before: "wait\u00a0for it\u2026\n",
    hunks: [h(["wait for it..."], ["done"])],
    after: "done\n",
  },
  {
    name: "exact beats fuzzy: the strict match is chosen over a looser earlier one",
    before: "  v\nv\n",
    hunks: [h(["v"], ["w"])],
    after: "  v\nw\n",
  },
  {
    name: "pure insertion after a unified line number",
    before: "1\n2\n3\n",
    hunks: [h([], ["ins"], { hintLine: 2 })],
    after: "1\n2\nins\n3\n",
  },
  {
    name: "pure insertion at line 0 goes first",
    before: "1\n",
    hunks: [h([], ["0"], { hintLine: 0 })],
    after: "0\n1\n",
  },
  {
    name: "pure insertion with a missing anchor goes to the end",
    before: "1\n2\n",
    hunks: [h([], ["3"], { anchor: "no such line" })],
    after: "1\n2\n3\n",
  },
  {
    name: "a missing hint anchor (git's function name) does not sink a clear hunk",
    before: "a\nb\n",
    hunks: [h(["b"], ["B"], { anchor: "def gone():" })],
    after: "a\nB\n",
  },
  {
    name: "issue 15: a missing @@ anchor line is an error",
    before: "a\nb\n",
    hunks: [h(["b"], ["B"], { anchor: "def gone():", anchorRequired: true })],
    error: 'the anchor line "@@ def gone():" is not in the file',
  },
  {
    name: "issue 15: a missing anchor on a pure insertion is an error too",
    before: "1\n2\n",
    hunks: [h([], ["3"], { anchor: "no such line", anchorRequired: true })],
    error: "is not in the file",
  },
  {
    name: "issue 15: hunks with the same old lines take successive occurrences, in patch order",
    before: "x\ny\nx\n",
    hunks: [h(["x"], ["z"]), h(["x"], ["w"])],
    after: "z\ny\nw\n",
  },
  {
    name: "issue 15: identical old lines, as many hunks as places",
    before: "x\ny\nx\n",
    hunks: [h(["x"], ["z"]), h(["x"], ["z"])],
    after: "z\ny\nz\n",
    counts: [2, 2],
  },
  {
    name: "End of File falls back to a search when the end differs",
    before: "x\ny\nz\n",
    hunks: [h(["x"], ["X"], { endOfFile: true })],
    after: "X\ny\nz\n",
  },
  {
    name: "blank context at the edges is dropped when it does not match",
    before: "a\nb\n",
    hunks: [h(["", "a", "b", ""], ["", "a", "B", ""])],
    after: "a\nB\n",
  },
  {
    name: "the nearest of several matches to the hint line wins",
    before: "k\nk\nk\nk\n",
    hunks: [h(["k"], ["K"], { hintLine: 3 })],
    after: "k\nk\nK\nk\n",
  },
  {
    name: "an insertion and a replacement at the same place both apply",
    before: "a\nb\n",
    hunks: [h(["a"], ["A"]), h([], ["end"])],
    after: "A\nb\nend\n",
  },
  {
    name: "overlapping hunks are refused",
    before: "a\nb\nc\n",
    hunks: [h(["a", "b"], ["x"]), h(["b", "c"], ["y"])],
    error: "hunk 2 of 2 not found",
  },
  {
    name: "ambiguous hunks list where they match",
    before: "x\ny\nx\ny\nx\ny\n",
    hunks: [h(["x", "y"], ["z"])],
    error: "f.txt: hunk 1 of 1 matches 3 places (starting at lines 1, 3, 5)",
  },
  {
    name: "a missing hunk points at its first line when that exists",
    before: "one\ntwo\n",
    hunks: [h(["one", "three"], ["x"])],
    error: 'Its first line "one" is at line 1, but the lines after it differ',
  },
  {
    name: "a missing hunk says when even its first line is absent",
    before: "one\n",
    hunks: [h(["zero"], ["x"])],
    error: 'Even its first line "zero" is not in the file',
  },
  {
    name: "a hunk applied before is recognised",
    before: "a\nB\n",
    hunks: [h(["a", "b"], ["a", "B"])],
    error: "already in the file: the change may have been applied before",
  },
  {
    name: "long hunks show only their first lines",
    before: "z\n",
    hunks: [h(["1", "2", "3", "4", "5", "6", "7", "8"], [])],
    error: /the first 6 of 8\) are not in the file:\n {2}\|1\n(.*\n){4} {2}\|6\n/,
  },
];

describe("applyHunks", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    if (c.error !== undefined) {
      expect(() => applyHunks(c.before, c.hunks, "f.txt")).toThrow(ToolError);
      expect(() => applyHunks(c.before, c.hunks, "f.txt")).toThrow(c.error);
      return;
    }
    const result = applyHunks(c.before, c.hunks, "f.txt");
    expect(result.text).toBe(c.after);
    if (c.counts) expect([result.added, result.removed]).toEqual(c.counts);
  });
});
