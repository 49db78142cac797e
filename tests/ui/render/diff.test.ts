// The Changes view: hunks and line numbers, word highlights inside changed pairs, hunk starts,
// wrapping under a blank gutter, and the whole-file cases (new, deleted, identical, binary, huge).
import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import {
  DIFF_LIMITS,
  defaultDiffStyles,
  diffFile,
  diffLines,
  plainDiffStyles,
  renderDiff,
  type DiffStyles,
} from "../../../src/ui/render/diff.js";
import { visibleWidth } from "../../../src/ui/render/wrap.js";

/** git --word-diff style markers, so word highlights are visible in plain strings. */
const marked: DiffStyles = { ...plainDiffStyles, delWord: (s) => `[-${s}-]`, addWord: (s) => `{+${s}+}` };
const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`): string =>
  Array.from({ length: n }, (_, i) => `${f(i + 1)}\n`).join("");
const render = (oldText: string | null, newText: string | null, width = 80, styles = marked) =>
  renderDiff(diffFile(oldText, newText), { width, styles, path: "src/a.ts" });

describe("diffLines", () => {
  it("numbers lines on both sides and keeps three lines of context", () => {
    const before = lines(20);
    const after = before.replace("line 10\n", "line ten\n");
    const hunks = diffLines(before, after);
    expect(hunks).toHaveLength(1);
    const [h] = hunks;
    expect(h?.oldStart).toBe(7);
    expect(h?.lines.map((l) => l.kind)).toEqual([
      "context",
      "context",
      "context",
      "del",
      "add",
      "context",
      "context",
      "context",
    ]);
    expect(h?.lines[3]).toEqual({ kind: "del", text: "line 10", oldNo: 10 });
    expect(h?.lines[4]).toEqual({ kind: "add", text: "line ten", newNo: 10 });
    expect(h?.lines[5]).toEqual({ kind: "context", text: "line 11", oldNo: 11, newNo: 11 });
  });

  it("shifts new-side numbers after an insertion", () => {
    const [h] = diffLines("a\nb\nc\n", "a\nx\ny\nb\nc\n");
    expect(h?.lines.filter((l) => l.kind === "context").map((l) => [l.oldNo, l.newNo])).toEqual([
      [1, 1],
      [2, 4],
      [3, 5],
    ]);
  });

  it("reports a missing final newline as a note", () => {
    const [h] = diffLines("a\n", "a\nb");
    expect(h?.lines.at(-1)).toEqual({ kind: "note", text: "\\ No newline at end of file".slice(2) });
  });

  it("drops the carriage return of CRLF lines", () => {
    const [h] = diffLines("a\r\nb\r\n", "a\r\nc\r\n");
    expect(h?.lines.map((l) => l.text)).toEqual(["a", "b", "c"]);
  });
});

describe("renderDiff", () => {
  it("highlights the changed words of a removed/added pair", () => {
    const { lines: out } = render("const total = price * count;\n", "const total = price * amount;\n");
    expect(out).toContain("1   - const total = price * [-count-];");
    expect(out).toContain("  1 + const total = price * {+amount+};");
  });

  it("pairs several removed lines with the added lines that replace them", () => {
    const { lines: out } = render("let a = 1;\nlet b = 2;\n", "let a = 10;\nlet b = 20;\n");
    expect(out.filter((l) => l.includes("[-"))).toHaveLength(2);
    expect(out.filter((l) => l.includes("{+"))).toHaveLength(2);
    expect(out).toContain("  2 + let b = {+20+};");
  });

  it("does not highlight words of a line rewritten from scratch", () => {
    const { lines: out } = render("alpha beta gamma\n", "completely different words here\n");
    expect(out.join("\n")).not.toMatch(/\[-|\{\+/);
    expect(out).toContain("1   - alpha beta gamma");
  });

  it("does not word-highlight a lone addition", () => {
    const { lines: out } = render("a\nc\n", "a\nb\nc\n");
    expect(out).toContain("  2 + b");
  });

  it("marks every hunk header in hunkStarts", () => {
    const before = lines(60);
    const after = before.replace("line 5\n", "line five\n").replace("line 50\n", "line fifty\n");
    const { lines: out, hunkStarts } = render(before, after);
    expect(hunkStarts).toHaveLength(2);
    expect(hunkStarts.map((i) => out[i])).toEqual(["@@ -2,7 +2,7 @@", "@@ -47,7 +47,7 @@"]);
    expect(hunkStarts[0]).toBe(1);
  });

  it("starts with a header naming the file and the counts", () => {
    const { lines: out } = render("a\nb\n", "a\nc\nd\n");
    expect(out[0]).toBe("src/a.ts +2 -1");
  });

  it("wraps long lines with a blank gutter on continuation lines", () => {
    const long = `x = "${"abcdefghij".repeat(6)}"`;
    const { lines: out } = render("x = 1\n", `${long}\n`, 40);
    const start = out.findIndex((l) => l.startsWith("  1 + x ="));
    expect(start).toBeGreaterThan(0);
    // Blank gutter (4 columns) and sign column (2), then the text.
    expect(out[start + 1]).toMatch(/^ {6}["a-j]/);
    for (const l of out) expect(visibleWidth(l)).toBeLessThanOrEqual(40);
  });

  it("never exceeds the width, from 1 to 120 columns", () => {
    const before = `${lines(30)}\tindented\t\n日本語の行\n`;
    const after = `${before.replace("line 3\n", `line 3 ${"long ".repeat(40)}\n`).replace("日本語の行", "日本語の新しい行 🚀")}extra\n`;
    const diff = diffFile(before, after);
    for (let width = 1; width <= 120; width++) {
      const { lines: out } = renderDiff(diff, { width, styles: marked, path: "a/really/long/path/to/some/file.ts" });
      for (const l of out) expect(visibleWidth(l), `width ${width}: ${l}`).toBeLessThanOrEqual(width);
    }
  });

  it("expands tabs in code", () => {
    const { lines: out } = render("a\n", "\tb\n");
    expect(out).toContain("  1 +     b");
    expect(render("a\n", "ab\tc\n").lines).toContain("  1 + ab  c");
  });

  it("shows control characters in the file as pictures instead of sending them to the terminal", () => {
    const { lines: out } = render("a\n", "\x1b[31mred\x07\n");
    expect(out).toContain("  1 + ␛[31mred␇");
  });

  it("accepts bare hunks and counts their lines", () => {
    const out = renderDiff(diffLines("a\n", "b\n"), { width: 80, styles: marked, path: "f" });
    expect(out.lines[0]).toBe("f +1 -1");
    expect(out.hunkStarts).toEqual([1]);
    expect(renderDiff([], { width: 80, styles: marked, path: "f" }).lines).toEqual(["f", "no changes"]);
  });

  it("colours added and removed lines and inverts the changed words", () => {
    const chalk = new Chalk({ level: 1 });
    const { lines: out } = render("a = 1\n", "a = 2\n", 80, defaultDiffStyles(chalk));
    const add = out.find((l) => l.includes("+ a"));
    expect(add).toBe(`${chalk.dim("  1 ")}${chalk.green(`+ a = ${chalk.inverse("2")}`)}`);
    expect(out.some((l) => l.includes("\x1b[31m- a = \x1b[7m1"))).toBe(true);
  });
});

describe("whole-file cases", () => {
  it("shows a new file as all added lines", () => {
    const d = diffFile(null, "one\ntwo\n");
    expect(d).toMatchObject({ kind: "changes", status: "added", added: 2, removed: 0 });
    const { lines: out } = render(null, "one\ntwo\n");
    expect(out).toEqual(["src/a.ts (new file) +2 -0", "@@ -0,0 +1,2 @@", "  1 + one", "  2 + two"]);
  });

  it("shows a deleted file as all removed lines", () => {
    const { lines: out } = render("one\ntwo\n", null);
    expect(out).toEqual(["src/a.ts (deleted) +0 -2", "@@ -1,2 +0,0 @@", "1   - one", "2   - two"]);
  });

  it("says there are no changes for identical texts", () => {
    expect(diffFile("same\n", "same\n")).toEqual({ kind: "identical" });
    expect(render("same\n", "same\n")).toEqual({ lines: ["src/a.ts", "no changes"], hunkStarts: [] });
  });

  it("summarises a binary file", () => {
    expect(diffFile("a\0b", "a\0c")).toEqual({ kind: "binary" });
    expect(render("a\0b", "c").lines).toEqual(["src/a.ts", "binary file, not shown"]);
  });

  it("summarises inputs over 1 MB without diffing them", () => {
    const big = "x".repeat(DIFF_LIMITS.bytes + 10);
    const d = diffFile("small\n", big);
    expect(d).toMatchObject({ kind: "too-large" });
    expect(render("small\n", big).lines[1]).toBe("too large to diff (1.0 MB, 1 lines)");
  });

  it("summarises inputs over 20,000 lines", () => {
    const many = lines(DIFF_LIMITS.lines + 1, () => "y");
    expect(diffFile(many, `${many}z\n`)).toEqual({
      kind: "too-large",
      bytes: 2 * (DIFF_LIMITS.lines + 1) + 2,
      lines: DIFF_LIMITS.lines + 2,
    });
  });

  it("describes an empty new file", () => {
    expect(render(null, "").lines).toEqual(["src/a.ts", "new empty file"]);
  });
});
