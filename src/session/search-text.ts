// The pure text side of session search: what a message puts in the index's two columns, how a
// typed query becomes an FTS5 MATCH expression that cannot be a syntax error, and the snippet.
import { contentText, type ChatMessage } from "../protocol/messages.js";
import { isCjk, tokenize } from "../memory/tokenize.js";

/** Tool results are noisy (file dumps, logs): their start says what they were. */
export const TOOL_RESULT_CHARS = 2_000;
/** A pasted log or a long summary is still found by its first pages. */
export const MESSAGE_CHARS = 20_000;
/** The snippet around the match, in characters (before the marks). */
export const SNIPPET_CHARS = 160;

/** Cuts to `max` UTF-16 units without splitting a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text[max - 1] ?? "") ? max - 1 : max;
  return text.slice(0, end);
}

/** Command output keeps its colours (ANSI escapes); they and other control characters are not text. */
function plain(text: string): string {
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, "").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, " ");
}

/** The searchable text of one message, or "" when it has none. Tool calls count as what the model did. */
export function messageText(m: ChatMessage): string {
  return plain(rawText(m));
}

function rawText(m: ChatMessage): string {
  switch (m.role) {
    case "system":
      return cut(m.content, MESSAGE_CHARS);
    case "user":
      return cut(contentText(m.content), MESSAGE_CHARS);
    case "assistant": {
      const calls = (m.tool_calls ?? []).map(
        (c) => `${c.function.name} ${cut(c.function.arguments, TOOL_RESULT_CHARS)}`,
      );
      return cut([m.content ?? "", ...calls].filter((s) => s !== "").join("\n"), MESSAGE_CHARS);
    }
    case "tool":
      return cut(m.content, TOOL_RESULT_CHARS);
    default:
      return m satisfies never;
  }
}

/** The runs of CJK characters in `text`, in order. */
export function cjkRuns(text: string): string[] {
  const runs: string[] = [];
  let run = "";
  for (const ch of text) {
    if (isCjk(ch.codePointAt(0)!)) run += ch;
    else if (run) {
      runs.push(run);
      run = "";
    }
  }
  if (run) runs.push(run);
  return runs;
}

/**
 * The text column: the text with a space where CJK meets other letters ("使用API接口" -> "使用 API
 * 接口"), because unicode61 sees letters of any script as one word and "API" would not be found.
 */
export function textColumn(text: string): string {
  let out = "";
  let previous: "cjk" | "word" | null = null;
  for (const ch of text) {
    const kind = isCjk(ch.codePointAt(0)!) ? "cjk" : /[\p{L}\p{N}]/u.test(ch) ? "word" : null;
    if (kind && previous && kind !== previous) out += " ";
    previous = kind;
    out += ch;
  }
  return out;
}

/**
 * The CJK column: each run's bigrams (the shared tokenizer), then the run's last character alone,
 * so that every character starts some token and a one-character query can find it by prefix.
 * FTS5's unicode61 would otherwise see a whole run ("上下文压缩") as one token.
 */
export function cjkColumn(text: string): string {
  const out: string[] = [];
  for (const run of cjkRuns(text)) {
    out.push(...tokenize(run));
    const chars = [...run];
    if (chars.length > 1) out.push(chars[chars.length - 1]!);
  }
  return out.join(" ");
}

/** A query compiled for the index: the MATCH expression, and the CJK strings to mark in snippets. */
export interface CompiledQuery {
  match: string;
  /** Whether some term searches the text column (then FTS5's own snippet() marks it). */
  hasText: boolean;
  cjk: string[];
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
const hasWord = (s: string) => /[\p{L}\p{N}]/u.test(s);

/**
 * Contract: pure; null when nothing searchable is left. Quoted text is a phrase; an unquoted
 * chunk ("session/store.ts") is a phrase of its words; the last unquoted chunk matches as a prefix.
 * All terms must match (AND). Every term is an FTS5 string, so `*`, `-`, `:`, `^`, NEAR and
 * unbalanced quotes are plain text (control characters are dropped); a CJK run becomes a phrase of its bigrams on the CJK column
 * (a substring match), a single CJK character a prefix of the CJK tokens.
 */
export function compileQuery(query: string): CompiledQuery | null {
  // FTS5 reads a query up to a NUL ("unterminated string"); control characters are not text anyway.
  const clean = query.replace(/\p{Cc}/gu, " ");
  const chunks = [...clean.matchAll(/"([^"]*)"|[^\s"]+/g)].map((m) => ({
    text: m[1] ?? m[0],
    quoted: m[1] !== undefined,
  }));
  const terms: string[] = [];
  const cjk: string[] = [];
  let hasText = false;
  chunks.forEach((chunk, i) => {
    const runs = cjkRuns(chunk.text);
    const latin =
      runs.length === 0 ? chunk.text : [...chunk.text].map((ch) => (isCjk(ch.codePointAt(0)!) ? " " : ch)).join("");
    if (hasWord(latin)) {
      const prefix = i === chunks.length - 1 && !chunk.quoted;
      terms.push(`text : ${quote(latin.trim())}${prefix ? " *" : ""}`);
      hasText = true;
    }
    for (const run of runs) {
      const tokens = tokenize(run);
      terms.push(
        tokens.length === 1 && [...run].length === 1 ? `cjk : ${quote(run)} *` : `cjk : ${quote(tokens.join(" "))}`,
      );
      cjk.push(run);
    }
  });
  return terms.length === 0 ? null : { match: terms.join(" AND "), hasText, cjk };
}

/** Marks the matched text in snippets; FTS5's snippet() is given these too, then they become [ ]. */
export const MARK_OPEN = "\u0002";
export const MARK_CLOSE = "\u0003";

/** `text.slice(start, end)` moved off the middle of a surrogate pair. */
function sliceSafe(text: string, start: number, end: number): string {
  const low = (i: number) => /[\udc00-\udfff]/.test(text[i] ?? "");
  return text.slice(low(start) ? start - 1 : start, low(end) ? end - 1 : end);
}

/** Marks every occurrence of the needles, longest first so "上下文" wins over "下文". */
function markAll(text: string, needles: string[]): string {
  if (needles.length === 0) return text;
  const alternatives = [...new Set(needles)]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return text.replace(new RegExp(alternatives.join("|"), "g"), (m) => `${MARK_OPEN}${m}${MARK_CLOSE}`);
}

/** A window of about SNIPPET_CHARS around the first CJK match, for matches FTS5 cannot snippet. */
export function cjkWindow(text: string, needles: string[]): string {
  const found = needles.map((n) => text.indexOf(n)).filter((at) => at >= 0);
  const start = found.length === 0 ? 0 : Math.max(0, Math.min(...found) - Math.floor(SNIPPET_CHARS / 3));
  return `${start > 0 ? "…" : ""}${sliceSafe(text, start, start + SNIPPET_CHARS)}${start + SNIPPET_CHARS < text.length ? "…" : ""}`;
}

/** Drops a close mark with no open one (cut off) and closes an open one. */
function balanceMarks(text: string): string {
  let open = false;
  let out = "";
  for (const ch of text) {
    if (ch === MARK_OPEN) open = true;
    else if (ch === MARK_CLOSE) {
      if (!open) continue;
      open = false;
    }
    out += ch;
  }
  return open ? out + MARK_CLOSE : out;
}

/**
 * The finished snippet: CJK matches marked, on one line, cut to about SNIPPET_CHARS around the
 * first mark, marks shown as [ ]. `raw` is FTS5's snippet() (or cjkWindow) with MARK_* marks.
 */
export function finishSnippet(raw: string, cjkNeedles: string[]): string {
  let text = markAll(raw, cjkNeedles).replace(/\s+/g, " ").trim();
  const limit = SNIPPET_CHARS + 40;
  if (text.length > limit) {
    const first = Math.max(0, text.indexOf(MARK_OPEN));
    const start = Math.max(0, Math.min(first - Math.floor(SNIPPET_CHARS / 3), text.length - limit));
    text = `${start > 0 ? "…" : ""}${sliceSafe(text, start, start + limit)}${start + limit < text.length ? "…" : ""}`;
  }
  return balanceMarks(text).replaceAll(MARK_OPEN, "[").replaceAll(MARK_CLOSE, "]");
}
