// The seed's tokenizer for mixed CJK and English text, shared by memory retrieval and session
// search: ASCII words lower-cased (length >= 2), CJK runs as bigrams (a lone character kept).

/**
 * CJK code points: Han (unified, extensions A-G, compatibility ideographs), kana (with the
 * half-width forms and phonetic extensions), Hangul (syllables, jamo, compatibility jamo), and
 * the CJK symbols block's iteration marks.
 */
export function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) || // unified ideographs
    (cp >= 0x3400 && cp <= 0x4dbf) || // extension A
    (cp >= 0x20000 && cp <= 0x3134f) || // extensions B-G
    (cp >= 0xf900 && cp <= 0xfaff) || // compatibility ideographs
    (cp >= 0x2f800 && cp <= 0x2fa1f) || // compatibility supplement
    (cp >= 0x3040 && cp <= 0x30ff) || // hiragana, katakana
    (cp >= 0x31f0 && cp <= 0x31ff) || // katakana phonetic extensions
    (cp >= 0xff66 && cp <= 0xff9f) || // half-width katakana
    (cp >= 0xac00 && cp <= 0xd7af) || // Hangul syllables
    (cp >= 0x1100 && cp <= 0x11ff) || // Hangul jamo
    (cp >= 0x3130 && cp <= 0x318f) || // Hangul compatibility jamo
    (cp >= 0xa960 && cp <= 0xa97f) || // jamo extended A
    (cp >= 0xd7b0 && cp <= 0xd7ff) || // jamo extended B
    cp === 0x3005 || // 々
    cp === 0x30fc // ー (also in the katakana block; listed for clarity)
  );
}

const isAsciiWordChar = (cp: number) =>
  (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);

/**
 * Contract: pure; returns tokens in text order with repeats (term frequencies matter to BM25).
 * "上下文压缩" -> 上下 下文 文压 压缩; "Fix the CLI" -> fix the cli; "a" alone is dropped.
 * Anything else (punctuation, accented letters, emoji) separates tokens.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let word = "";
  let run: string[] = [];
  const flushWord = () => {
    if (word.length >= 2) tokens.push(word.toLowerCase());
    word = "";
  };
  const flushRun = () => {
    if (run.length === 1) tokens.push(run[0]!);
    for (let i = 0; i + 1 < run.length; i++) tokens.push(run[i]! + run[i + 1]!);
    run = [];
  };
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (isAsciiWordChar(cp)) {
      flushRun();
      word += ch;
    } else if (isCjk(cp)) {
      flushWord();
      run.push(ch);
    } else {
      flushWord();
      flushRun();
    }
  }
  flushWord();
  flushRun();
  return tokens;
}
