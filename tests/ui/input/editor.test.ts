import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import {
  applyEditorAction,
  createEditor,
  editorText,
  insertText,
  isEmpty,
  layout,
  type EditorAction,
  type EditorState,
} from "../../../src/ui/input/editor.js";

/** "ab|c\nd": the text with "|" where the cursor is (column in code points). */
function st(marked: string): EditorState {
  const lines = marked.split("\n");
  const line = lines.findIndex((l) => l.includes("|"));
  const col = Array.from(lines[line] ?? "").indexOf("|");
  return { lines: lines.map((l) => l.replace("|", "")), line, col, goal: null };
}
function mark(s: EditorState): string {
  return s.lines.map((l, i) => (i === s.line ? Array.from(l).toSpliced(s.col, 0, "|").join("") : l)).join("\n");
}
type Op = EditorAction | { insert: string };
const run = (s: EditorState, ops: readonly Op[]) =>
  ops.reduce((acc, op) => (typeof op === "string" ? applyEditorAction(acc, op) : insertText(acc, op.insert)), s);

describe("editor: inserting", () => {
  it.each<[string, string, string]>([
    ["ab|", "c", "abc|"],
    ["a|b", "x\ny", "ax\ny|b"],
    ["|", "l1\r\nl2\rl3", "l1\nl2\nl3|"],
    ["a|", "\x1b[31mred\x07", "a[31mred|"],
    ["日|本", "語", "日語|本"],
    ["|x", "👨‍👩‍👧", "👨‍👩‍👧|x"],
    ["a|b", "", "a|b"],
  ])("%j + %j -> %j", (before, text, after) => {
    expect(mark(insertText(st(before), text))).toBe(after);
  });

  it("creates an editor with the cursor at the end", () => {
    expect(mark(createEditor("one\ntwo"))).toBe("one\ntwo|");
    expect(isEmpty(createEditor())).toBe(true);
    expect(editorText(createEditor("a\r\nb"))).toBe("a\nb");
  });

  it("returns new values and leaves the old one alone", () => {
    const s = st("ab|");
    const t = insertText(s, "c");
    expect(mark(s)).toBe("ab|");
    expect(mark(t)).toBe("abc|");
  });
});

describe("editor: edits and moves", () => {
  it.each<[string, string, Op[], string]>([
    ["backspace", "ab|", ["backspace"], "a|"],
    ["backspace joins lines", "a\n|b", ["backspace"], "a|b"],
    ["backspace at start", "|ab", ["backspace"], "|ab"],
    ["backspace CJK", "日本|", ["backspace"], "日|"],
    ["backspace emoji (surrogate pair)", "a👍|", ["backspace"], "a|"],
    ["backspace ZWJ family", "x👨‍👩‍👧|", ["backspace"], "x|"],
    ["backspace combining accent", "e\u0301|", ["backspace"], "|"],
    ["delete", "|ab", ["deleteForward"], "|b"],
    ["delete joins lines", "a|\nb", ["deleteForward"], "a|b"],
    ["delete emoji", "|👍x", ["deleteForward"], "|x"],
    ["delete at end", "ab|", ["deleteForward"], "ab|"],
    ["left", "ab|", ["left"], "a|b"],
    ["left over a line break", "a\n|b", ["left"], "a|\nb"],
    ["left at start", "|a", ["left"], "|a"],
    ["right over a line break", "a|\nb", ["right"], "a\n|b"],
    ["right at end", "a|", ["right"], "a|"],
    ["right over a ZWJ family", "|👨‍👩‍👧x", ["right"], "👨‍👩‍👧|x"],
    ["left over CJK", "日本|", ["left"], "日|本"],
    ["left over a flag", "a🇯🇵|", ["left"], "a|🇯🇵"],
    ["word left", "foo bar|", ["wordLeft"], "foo |bar"],
    ["word left over spaces", "foo bar  |", ["wordLeft"], "foo |bar  "],
    ["word left stops at punctuation", "foo.bar|", ["wordLeft"], "foo.|bar"],
    ["word left at line start", "a\n|b", ["wordLeft"], "a|\nb"],
    ["word left twice", "one two three|", ["wordLeft", "wordLeft"], "one |two three"],
    ["word right", "|foo bar", ["wordRight"], "foo| bar"],
    ["word right again", "foo| bar", ["wordRight"], "foo bar|"],
    ["word right at line end", "a|\nb", ["wordRight"], "a\n|b"],
    ["word left over CJK", "日本語 テスト|", ["wordLeft"], "日本語 |テスト"],
    ["delete word back", "git commit -m|", ["deleteWordBackward"], "git commit -|"],
    ["delete word back over spaces", "hello world  |", ["deleteWordBackward"], "hello |"],
    ["delete word back CJK", "日本語 テスト|", ["deleteWordBackward"], "日本語 |"],
    ["delete word back joins", "a\n|b", ["deleteWordBackward"], "a|b"],
    ["delete word forward", "|foo bar", ["deleteWordForward"], "| bar"],
    ["delete to line start", "abc|def", ["deleteToLineStart"], "|def"],
    ["delete to line start, second line", "a\nbc|d", ["deleteToLineStart"], "a\n|d"],
    ["delete to line start at start joins", "a\n|b", ["deleteToLineStart"], "a|b"],
    ["delete to line end", "abc|def", ["deleteToLineEnd"], "abc|"],
    ["delete to line end at end joins", "ab|\ncd", ["deleteToLineEnd"], "ab|cd"],
    ["line start", "a\nb|c", ["lineStart"], "a\n|bc"],
    ["line end", "a\nb|c\nd", ["lineEnd"], "a\nbc|\nd"],
    ["doc start", "a\nb|c", ["docStart"], "|a\nbc"],
    ["doc end", "a|\nbc", ["docEnd"], "a\nbc|"],
    ["newline", "ab|cd", ["newline"], "ab\n|cd"],
    ["up keeps the column", "abc\nab|c", ["up"], "ab|c\nabc"],
    ["up on the first line stays", "a|b\nc", ["up"], "a|b\nc"],
    ["down on the last line stays", "a\nb|", ["down"], "a\nb|"],
    ["down through a short line keeps the goal", "abcdef|\nab\nabcdef", ["down", "down"], "abcdef\nab\nabcdef|"],
    ["goal survives up and down", "abcd|\nx\nabcd", ["down", "down", "up", "up"], "abcd|\nx\nabcd"],
    ["a horizontal move drops the goal", "abcd|\nx\nabcd", ["down", "left", "down"], "abcd\nx\n|abcd"],
    ["down by display column into CJK", "ab|cd\n日本語", ["down"], "abcd\n日|本語"],
    ["down from CJK into ASCII", "日本|\nabcdef", ["down"], "日本\nabcd|ef"],
    ["down into the middle of a wide char", "a|bc\n日本", ["down"], "abc\n|日本"],
    ["paste then type", "|", [{ insert: "one\ntwo" }, "up", "left", { insert: "X" }], "onX|e\ntwo"],
  ])("%s: %j -> %j", (_, before, ops, after) => {
    expect(mark(run(st(before), ops))).toBe(after);
  });
});

describe("editor: layout", () => {
  it.each<[string, string, number, string[], number, number]>([
    ["no wrap", "abc|def", 10, ["abcdef"], 0, 3],
    ["wraps after a space", "hello world|", 6, ["hello ", "world"], 1, 5],
    ["cursor at a wrap point goes to the next row", "abc|def", 3, ["abc", "def"], 1, 0],
    ["cursor after a full last row gets its own row", "abcdef|", 3, ["abc", "def", ""], 2, 0],
    ["cursor before the wrap point", "ab|cdef", 3, ["abc", "def"], 0, 2],
    ["long word breaks hard", "a bcdefgh|", 4, ["a ", "bcde", "fgh"], 2, 3],
    ["CJK is two columns", "日本語です|", 5, ["日本", "語で", "す"], 2, 2],
    ["CJK wrap point", "日本|語", 4, ["日本", "語"], 1, 0],
    ["CJK full row at the end", "日本|", 4, ["日本", ""], 1, 0],
    ["emoji", "👍👍👍|", 4, ["👍👍", "👍"], 1, 2],
    ["logical lines", "ab\ncd|", 10, ["ab", "cd"], 1, 2],
    ["cursor on an earlier line", "a|b\ncd", 10, ["ab", "cd"], 0, 1],
    ["rows before the cursor line count", "abcdef\nx|", 3, ["abc", "def", "x"], 2, 1],
    ["empty", "|", 10, [""], 0, 0],
    ["tab shows as spaces", "a\tb|", 10, ["a    b"], 0, 6],
    ["wide char in a 1-column pane", "日|", 1, ["日", ""], 1, 0],
    ["zero width clamps to one", "ab|", 0, ["a", "b", ""], 2, 0],
  ])("%s", (_, marked, width, lines, row, col) => {
    expect(layout(st(marked), width)).toEqual({ lines, cursorRow: row, cursorCol: col });
  });

  it("never makes a row wider than the width (except a lone wide grapheme) and loses no text", () => {
    const texts = [
      "The quick brown fox jumps",
      "日本語のテキストと English mixed",
      "👍 a👨‍👩‍👧b 🇯🇵 e\u0301e\u0301 x",
      "aaaaaaaaaaaaaaaaaaaa",
    ];
    for (const text of texts) {
      for (let width = 1; width <= 14; width++) {
        const { lines, cursorRow } = layout(createEditor(text), width);
        for (const row of lines) {
          const w = stringWidth(row);
          if (w > width) expect(Array.from(new Intl.Segmenter().segment(row)).length, `${text} @${width}`).toBe(1);
        }
        expect(lines.join(""), `${text} @${width}`).toBe(text);
        expect(cursorRow).toBeLessThan(lines.length);
      }
    }
  });
});
