// An instruction file the user wrote (AGENTS.md, a skill's SKILL.md) read as text for a prompt:
// a bounded prefix, binary and invalid UTF-8 refused, characters that can hide instructions removed.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { binaryKind } from "./binary.js";

/**
 * Invisible characters that can carry instructions a reviewer does not see: zero-width spaces and
 * joiners, the word joiner, a byte-order mark anywhere but the start, bidi embeddings, overrides
 * and isolates, and Unicode tag characters (U+E0000-U+E007F, used for "ASCII smuggling").
 */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069]|\u{E0000}|[\u{E0001}-\u{E007F}]/gu;

/** `text` without hidden characters (a leading byte-order mark is dropped silently), and how many were removed. */
export function stripInvisible(text: string): { text: string; removed: number } {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let removed = 0;
  const clean = body.replace(INVISIBLE, () => {
    removed++;
    return "";
  });
  return { text: clean, removed };
}

/** A text file's first bytes, or why it could not be read as text. */
export type TextPrefix =
  | { ok: true; text: string /** false when the file goes on past `maxBytes` */; complete: boolean }
  | { ok: false; missing: boolean; reason: string };

/**
 * Contract: reads at most `maxBytes` (+1 to see whether there is more) of a file as UTF-8 and never
 * throws. A multi-byte character cut at the limit is dropped; binary data and invalid UTF-8 are
 * reported, as are directories and unreadable files. Line endings are normalised to "\n".
 */
export function readTextPrefix(path: string, maxBytes: number): TextPrefix {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      ok: false,
      missing: code === "ENOENT" || code === "ENOTDIR",
      reason: `cannot read (${code ?? String(err)})`,
    };
  }
  try {
    if (fstatSync(fd).isDirectory()) return { ok: false, missing: false, reason: "is a directory, not a file" };
    const buf = Buffer.alloc(maxBytes + 1);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    return decodeTextPrefix(buf.subarray(0, Math.min(got, maxBytes)), got <= maxBytes);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, missing: false, reason: `cannot read (${code ?? String(err)})` };
  } finally {
    closeSync(fd);
  }
}

/** Decodes a file's first bytes (`complete` when they are the whole file) as `readTextPrefix` does. */
export function decodeTextPrefix(bytes: Uint8Array, complete: boolean): TextPrefix {
  const kind = binaryKind(bytes);
  if (kind) return { ok: false, missing: false, reason: `looks like ${kind}, not text` };
  let text: string;
  try {
    // stream: a character cut at the limit is held back instead of failing the decode.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: !complete });
  } catch {
    return { ok: false, missing: false, reason: "is not valid UTF-8 text" };
  }
  return { ok: true, text: text.replace(/\r\n?/g, "\n"), complete };
}

/** `text` cut to `max` characters (never between a surrogate pair), with `note` on its own line. */
export function capChars(text: string, max: number, note: string): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return { text: `${text.slice(0, end).trimEnd()}\n\n${note}`, cut: true };
}
