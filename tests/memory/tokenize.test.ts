// The shared tokenizer on mixed scripts: ASCII words lower-cased (length >= 2), CJK runs as
// bigrams with a lone character kept, everything else a separator.
import { describe, expect, it } from "vitest";
import { isCjk, tokenize } from "../../src/memory/tokenize.js";

describe("tokenize", () => {
  it.each([
    ["Chinese run as bigrams", "上下文压缩", ["上下", "下文", "文压", "压缩"]],
    ["English lower-cased", "Fix the CLI", ["fix", "the", "cli"]],
    ["one-letter words dropped", "a b I am", ["am"]],
    ["lone CJK characters kept", "用TypeScript写CLI工具", ["用", "typescript", "写", "cli", "工具"]],
    [
      "Japanese kanji, hiragana and katakana in one run",
      "日本語のテキスト",
      ["日本", "本語", "語の", "のテ", "テキ", "キス", "スト"],
    ],
    ["the long vowel mark stays in the run", "コーヒー", ["コー", "ーヒ", "ヒー"]],
    ["half-width katakana", "ﾃｽﾄ", ["ﾃｽ", "ｽﾄ"]],
    ["the iteration mark", "人々", ["人々"]],
    ["Korean syllables, space-separated", "한국어 텍스트", ["한국", "국어", "텍스", "스트"]],
    ["digits are word characters; a lone digit is dropped", "v2 release 2024年 7 x", ["v2", "release", "2024", "年"]],
    ["CJK punctuation separates", "你好，世界！", ["你好", "世界"]],
    ["ASCII punctuation separates", "don't-stop: e.g.", ["don", "stop"]],
    ["emoji separate", "部署🚀成功 ok👍ok", ["部署", "成功", "ok", "ok"]],
    ["accented letters separate", "café naïve", ["caf", "na", "ve"]],
    ["full-width Latin letters are neither", "ＡＢＣ测试", ["测试"]],
    ["astral ideographs (extension B) pair as whole characters", "𠀀𠀁𠀂", ["𠀀𠀁", "𠀁𠀂"]],
    [
      "mixed everything",
      "我之前纠正过什么? Use pnpm!",
      ["我之", "之前", "前纠", "纠正", "正过", "过什", "什么", "use", "pnpm"],
    ],
    ["repeats kept (term frequency)", "test test 测试测试", ["test", "test", "测试", "试测", "测试"]],
    ["nothing", "", []],
    ["only separators", " ,.!?🙂 ", []],
  ])("%s", (_name, text, tokens) => {
    expect(tokenize(text)).toEqual(tokens);
  });

  it("classifies code points", () => {
    const yes = ["中", "㐀", "𠀀", "豈", "あ", "ア", "ｱ", "가", "ᄀ", "ㄱ", "々", "ー"];
    const no = ["A", "1", "，", "。", "é", "🚀", "Ａ", " "];
    for (const ch of yes) expect(isCjk(ch.codePointAt(0)!), ch).toBe(true);
    for (const ch of no) expect(isCjk(ch.codePointAt(0)!), ch).toBe(false);
  });
});
