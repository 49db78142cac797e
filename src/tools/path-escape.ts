// How a file name that would read ambiguously in a list (a newline or a tab in it, another control
// character, bytes that are not UTF-8, a leading quote) is shown to the model, and how a file
// tool's `path` argument in that form is read back.
import { ToolError } from "./define.js";

/** Shown quoted: C0 controls and DEL, the line separators, U+FFFD (what readdir made of bytes that are not UTF-8), a leading quote. */
const AMBIGUOUS = /[\u0000-\u001f\u007f\u2028\u2029\ufffd]|^"/;

/** Said in the tool descriptions, so the model knows the form it will see and may send back. */
export const QUOTED_NAMES =
  'A name with a newline, a tab or another control character (or a leading ") is shown as a JSON string, e.g. "a\\nb.txt"; pass it to the file tools in that quoted form.';

/**
 * Contract: `path` itself when it reads unambiguously on one line, else a JSON string literal
 * (control characters as \n, \t, \u0001; U+2028/2029, DEL and U+FFFD as \uXXXX) that readPathArg
 * turns back into `path`.
 */
export function showPath(path: string): string {
  if (!AMBIGUOUS.test(path)) return path;
  return JSON.stringify(path).replace(
    /[\u007f\u2028\u2029\ufffd]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A `path` argument as the file tools take it: a quoted name (as showPath prints it) is decoded;
 * anything else is the path itself. A name readdir could not decode (U+FFFD) cannot be opened by
 * name: a ToolError says so and what to do instead.
 */
export function readPathArg(path: string): string {
  let name = path;
  if (path.length >= 2 && path.startsWith('"') && path.endsWith('"')) {
    try {
      name = JSON.parse(path) as string;
    } catch {
      throw new ToolError(
        `path ${path} starts and ends with a quote but is not a JSON string; give the name as list_dir or glob shows it`,
      );
    }
  }
  if (name.includes("\ufffd"))
    throw new ToolError(
      `${showPath(name)} holds bytes that are not UTF-8 (shown as \\ufffd), which the file tools cannot name; rename it with a command (e.g. mv ./a?b.txt ./ab.txt) and use the new name`,
    );
  return name;
}
