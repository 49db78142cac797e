// How a file name that would read ambiguously in a list (a newline or a tab in it, another control
// character, bytes that are not UTF-8, a leading quote) is shown to the model, and how a file
// tool's `path` argument in that form is read back. Bytes that are not UTF-8 are held in names as
// lone surrogates (src/fs/byte-names.ts) and shown as \xNN, so a name comes back byte for byte.
import { hasRawBytes } from "../fs/byte-names.js";
import { ToolError } from "./define.js";

/** Shown quoted (besides a byte that is not UTF-8): C0 controls and DEL, the line separators, U+FFFD, a leading quote. */
const AMBIGUOUS = /[\u0000-\u001f\u007f\u2028\u2029\ufffd]|^"/;

/** Said in the tool descriptions, so the model knows the form it will see and may send back. */
export const QUOTED_NAMES =
  'A name with a newline, a tab or another control character, bytes that are not UTF-8 (or a leading ") is shown as a JSON string, e.g. "a\\nb.txt", with such bytes as \\xNN, e.g. "caf\\xe9.txt"; pass it to the file tools in that quoted form.';

/** An escape after an even run of backslashes (so `\\\\u...` is a backslash and text, not an escape). */
const escapeAt = (body: string) => new RegExp(`(?<!\\\\)((?:\\\\\\\\)*)\\\\${body}`, "gi");
const SURROGATE_ESCAPE = escapeAt("u(d[89a-f][0-9a-f]{2})");
const BYTE_ESCAPE = escapeAt("x([0-9a-f]{2})");

/**
 * Contract: `path` itself when it reads unambiguously on one line, else a JSON string literal
 * (control characters as \n, \t, \u0001; U+2028/2029, DEL and U+FFFD as \uXXXX; a byte that is
 * not UTF-8 as \xNN) that readPathArg turns back into `path`.
 */
export function showPath(path: string): string {
  if (!AMBIGUOUS.test(path) && !hasRawBytes(path)) return path;
  return JSON.stringify(path)
    .replace(/[\u007f\u2028\u2029\ufffd]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(SURROGATE_ESCAPE, (all, slashes: string, hex: string) => {
      const code = Number.parseInt(hex, 16);
      return code >= 0xdc80 && code <= 0xdcff ? `${slashes}\\x${(code - 0xdc00).toString(16)}` : all;
    });
}

/**
 * A `path` argument as the file tools take it: a quoted name (as showPath prints it) is decoded;
 * anything else is the path itself. A quoted form that is not JSON is a ToolError.
 */
export function readPathArg(path: string): string {
  let name = path;
  if (path.length >= 2 && path.startsWith('"') && path.endsWith('"')) {
    try {
      // \xNN: one byte (0x80-0xFF: a byte that is not UTF-8, held as U+DC00 + it; below: that character).
      const bytes = path.replace(BYTE_ESCAPE, (_, slashes: string, hex: string) => {
        const byte = Number.parseInt(hex, 16);
        return `${slashes}\\u${(byte >= 0x80 ? 0xdc00 + byte : byte).toString(16).padStart(4, "0")}`;
      });
      name = JSON.parse(bytes) as string;
    } catch {
      throw new ToolError(
        `path ${path} starts and ends with a quote but is not a JSON string; give the name as list_dir or glob shows it`,
      );
    }
  }
  return name;
}
