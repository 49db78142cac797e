// AGENTS.md: the user's standing instructions (global in the settings folder, then the workspace's),
// read once per session into a prompt section, with characters that can hide instructions removed.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { binaryKind } from "../tools/binary.js";

/** Characters per file; the rest is cut with a note. */
export const MAX_AGENTS_MD = 20_000;

export interface AgentsMd {
  /** The prompt section, or "" when there is no instruction file with content. */
  text: string;
  /** The files that went into `text`, global first. */
  files: string[];
  /** For the user: removed hidden characters, files skipped as unreadable or binary. */
  warnings: string[];
}

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
  | { ok: true; text: string; /** false when the file goes on past `maxBytes` */ complete: boolean }
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
    return { ok: false, missing: code === "ENOENT" || code === "ENOTDIR", reason: `cannot read (${code ?? String(err)})` };
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

/**
 * Contract: synchronous, never throws; a missing file is not a warning. The workspace file comes
 * last so its more specific instructions have the final word.
 */
export function loadAgentsMd(opts: { workspace: string; home: string }): AgentsMd {
  const candidates = [
    { path: join(opts.home, "AGENTS.md"), label: "global" },
    { path: join(opts.workspace, "AGENTS.md"), label: "workspace" },
  ];
  const files: string[] = [];
  const warnings: string[] = [];
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const { path, label } of candidates) {
    if (seen.has(path)) continue;
    seen.add(path);
    // 4 bytes per character at most, so this always holds more than the cap when the file does.
    const read = readTextPrefix(path, MAX_AGENTS_MD * 4 + 4);
    if (!read.ok) {
      if (!read.missing) warnings.push(`${path} ${read.reason}; skipped`);
      continue;
    }
    const stripped = stripInvisible(read.text);
    if (stripped.removed > 0) {
      warnings.push(`removed ${stripped.removed} invisible character${stripped.removed === 1 ? "" : "s"} (zero-width or bidi controls that can hide instructions) from ${path}`);
    }
    const content = stripped.text.trim();
    if (content === "") continue;
    const note = `[${path} cut at ${MAX_AGENTS_MD} characters]`;
    let capped = capChars(content, MAX_AGENTS_MD, note);
    // Only possible when most of what was read were hidden characters: the file still goes on.
    if (!capped.cut && !read.complete) capped = { text: `${content}\n\n${note}`, cut: true };
    if (capped.cut) warnings.push(`${path} is longer than ${MAX_AGENTS_MD} characters; only the start is used`);
    files.push(path);
    parts.push(`## ${path} (${label})`, "", capped.text, "");
  }
  if (parts.length === 0) return { text: "", files, warnings };
  const intro =
    files.length > 1
      ? "Standing instructions from the user's AGENTS.md files. Follow them; where they disagree, the workspace file (last) wins."
      : "Standing instructions from the user's AGENTS.md file. Follow them.";
  return { text: ["# Project instructions (AGENTS.md)", intro, "", ...parts].join("\n").trimEnd(), files, warnings };
}
