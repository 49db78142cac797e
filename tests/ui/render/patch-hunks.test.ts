// git's hunks read into the diff view's hunks: ranges, line numbers on each side, the
// no-newline note, an empty range, and what is not a hunk line.
import { describe, expect, it } from "vitest";
import { parseHunks } from "../../../src/ui/render/patch-hunks.js";

describe("parseHunks", () => {
  it("numbers context, removed and added lines from the header's starts", () => {
    const [h] = parseHunks("@@ -10,3 +10,3 @@ function f() {\n a\n-b\n+B\n c\n");
    expect(h).toMatchObject({ oldStart: 10, oldLines: 3, newStart: 10, newLines: 3 });
    expect(h!.lines).toEqual([
      { kind: "context", text: "a", oldNo: 10, newNo: 10 },
      { kind: "del", text: "b", oldNo: 11 },
      { kind: "add", text: "B", newNo: 11 },
      { kind: "context", text: "c", oldNo: 12, newNo: 12 },
    ]);
  });

  it("a new file's empty old range, a single-line range without a count, the no-newline note", () => {
    const hunks = parseHunks("@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file\n@@ -5 +6 @@\n-p\n+q\n");
    expect(hunks).toHaveLength(2);
    expect(hunks[0]!.lines.map((l) => [l.kind, l.newNo])).toEqual([
      ["add", 1],
      ["add", 2],
      ["note", undefined],
    ]);
    expect(hunks[1]).toMatchObject({ oldStart: 5, oldLines: 1, newStart: 6, newLines: 1 });
    expect(hunks[1]!.lines).toEqual([
      { kind: "del", text: "p", oldNo: 5 },
      { kind: "add", text: "q", newNo: 6 },
    ]);
  });

  it("skips what comes before the first header and lines of no kind", () => {
    expect(parseHunks("diff --git a/x b/x\nindex 1..2\n")).toEqual([]);
    expect(parseHunks("@@ -1 +1 @@\n-a\r\n+b\nnot a line\n")[0]!.lines).toEqual([
      { kind: "del", text: "a", oldNo: 1 },
      { kind: "add", text: "b", newNo: 1 },
    ]);
  });
});
