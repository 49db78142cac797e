// The strict applier of the dependency diffs (scripts/unified-diff.mjs): a hunk applies at its own
// line with its exact context or not at all; errors name the diff, the hunk and the line.
import { describe, expect, it } from "vitest";
import { applyDiff, parseDiff } from "../../scripts/unified-diff.mjs";

const file = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";
const diff = (body: string, header = "Why: a reason for people.\n\n") =>
  `${header}--- a/lib/x.js\n+++ b/lib/x.js\n${body}`;
const apply = (text: string, d: string) => applyDiff(text, parseDiff(d, "x.diff"), "x.diff (for x@1.0.0)");

describe("parseDiff", () => {
  it("skips the header, reads the file and the hunks", () => {
    const parsed = parseDiff(diff("@@ -2,2 +2,3 @@\n two\n+two and a half\n three\n"), "x.diff");
    expect(parsed.file).toBe("lib/x.js");
    expect(parsed.header).toBe("Why: a reason for people.");
    expect(parsed.hunks).toHaveLength(1);
    expect(parsed.hunks[0]).toMatchObject({ oldStart: 2, oldLines: ["two", "three"] });
  });

  it.each([
    ["no file lines", "just words\n", /not a unified diff/],
    [
      "a hunk count that lies",
      diff("@@ -2,3 +2,3 @@\n two\n three\n"),
      /announces 3 old and 3 new lines, holds 2 and 2/,
    ],
    ["a stray line", diff("@@ -2,1 +2,1 @@\n two\n?what\n"), /expected a hunk header/],
    ["two files", "--- a/x.js\n+++ b/y.js\n@@ -1 +1 @@\n-a\n+b\n", /one diff, one file/],
  ])("refuses %s, naming the diff", (_, text, error) => {
    expect(() => parseDiff(text, "x.diff")).toThrow(error);
    expect(() => parseDiff(text, "x.diff")).toThrow(/^x\.diff: /);
  });
});

describe("applyDiff", () => {
  it("replaces, inserts and removes at each hunk's line, shifted by the hunks before it", () => {
    const d = diff("@@ -1,3 +1,4 @@\n one\n+one and a half\n two\n three\n@@ -5,3 +6,2 @@\n five\n-six\n seven\n");
    expect(apply(file, d)).toBe("one\none and a half\ntwo\nthree\nfour\nfive\nseven\n");
  });

  it("inserts after the line a zero-length hunk names", () => {
    expect(apply("a\nb\n", diff("@@ -1,0 +2 @@\n+between\n"))).toBe("a\nbetween\nb\n");
    expect(apply("a\nb\n", diff("@@ -0,0 +1 @@\n+first\n"))).toBe("first\na\nb\n");
  });

  it("keeps or drops the last newline as the diff says", () => {
    expect(apply("a\nb", diff("@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+c\n"))).toBe("a\nc\n");
    expect(apply("a\nb\n", diff("@@ -2 +2 @@\n-b\n+c\n\\ No newline at end of file\n"))).toBe("a\nc");
    expect(() => apply("a\nb\n", diff("@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+c\n"))).toThrow(
      /without a newline; the file does not/,
    );
  });

  it("does not look elsewhere: the same lines one further down fail, naming the hunk and the line", () => {
    const d = diff("@@ -2,2 +2,2 @@\n two\n-three\n+THREE\n");
    expect(() => apply(`zero\n${file}`, d)).toThrow(
      'x.diff (for x@1.0.0): hunk 1 of 1 (@@ -2,2 +2,2 @@) no longer applies: line 2 reads "one" where the diff expects "two"',
    );
  });

  it("fails on a changed context line, not only a changed removed line", () => {
    const d = diff("@@ -3,3 +3,3 @@\n three\n-four\n+FOUR\n five\n");
    expect(() => apply(file.replace("five", "5"), d)).toThrow(/line 5 reads "5" where the diff expects "five"/);
  });

  it("fails on a file shorter than the hunk", () => {
    expect(() => apply("one\n", diff("@@ -1,2 +1,2 @@\n one\n-two\n+2\n"))).toThrow(/reads lines 1-2, the file has 1/);
  });
});
