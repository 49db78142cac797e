// A text file's byte format (UTF-8 or Latin-1, byte-order mark, line ending), so edits decode and
// encode it losslessly and keep every byte they do not change; formats that cannot be kept are named.
import { isUtf8 } from "node:buffer";
import { ToolError } from "./define.js";

/** How a file's bytes map to text. Decoding and encoding with the same format is the identity. */
export interface TextFormat {
  /** Latin-1 is the fallback for bytes that are not UTF-8: each byte is one character, so nothing is lost. */
  encoding: "utf-8" | "latin-1";
  /** A UTF-8 byte-order mark starts the file (kept as U+FEFF at the start of the text). */
  bom: boolean;
  /** The dominant line ending. */
  eol: "\n" | "\r\n";
}

/** Byte-order marks of encodings the tools do not edit, longest first (UTF-32LE starts like UTF-16LE). */
const FOREIGN_BOMS: [string, number[]][] = [
  ["UTF-32LE", [0xff, 0xfe, 0x00, 0x00]],
  ["UTF-32BE", [0x00, 0x00, 0xfe, 0xff]],
  ["UTF-16LE", [0xff, 0xfe]],
  ["UTF-16BE", [0xfe, 0xff]],
];

/** The encoding a byte-order mark names when it is one the tools cannot keep, else null. */
export function foreignEncoding(head: Uint8Array): string | null {
  for (const [name, bom] of FOREIGN_BOMS) if (bom.every((b, i) => head[i] === b)) return name;
  return null;
}

/** Length of `buf` without a UTF-8 sequence cut at its end (a head read from a longer file). */
function wholeSequences(buf: Uint8Array): number {
  let i = buf.length;
  // Step back over at most 3 continuation bytes to the lead byte of the last sequence.
  let back = 0;
  while (i > 0 && back < 3 && (buf[i - 1]! & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i === 0) return buf.length;
  const lead = buf[i - 1]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need > back + 1 ? i - 1 : buf.length;
}

/**
 * Contract: the format of a file from its bytes (`complete` false when `bytes` is only its head:
 * a sequence cut at the end does not count as invalid). Throws a ToolError naming the encoding
 * for UTF-16 and UTF-32 files, which the tools do not edit.
 */
export function detectFormat(bytes: Uint8Array, shown: string, complete = true): TextFormat {
  const foreign = foreignEncoding(bytes);
  if (foreign)
    throw new ToolError(
      `${shown} is ${foreign} text (by its byte-order mark); the file tools keep only UTF-8 and Latin-1 files intact. Convert it with a command (iconv) first`,
    );
  const body = complete ? bytes : bytes.subarray(0, wholeSequences(bytes));
  const utf8 = isUtf8(body);
  const bom = utf8 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let crlf = 0;
  let lf = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) {
    if (i > 0 && bytes[i - 1] === 0x0d) crlf++;
    else lf++;
  }
  return { encoding: utf8 ? "utf-8" : "latin-1", bom, eol: crlf > lf ? "\r\n" : "\n" };
}

export function decodeText(bytes: Buffer, format: TextFormat): string {
  return bytes.toString(format.encoding === "utf-8" ? "utf8" : "latin1");
}

/** The first character a Latin-1 file cannot hold, or null. */
function beyondLatin1(text: string): string | null {
  const m = /[^\u0000-\u00ff]/u.exec(text);
  return m ? m[0] : null;
}

/** Contract: `text` in `format`'s encoding; throws a ToolError naming the encoding when a character cannot be kept. */
export function encodeText(text: string, format: TextFormat, shown: string): Buffer {
  if (format.encoding === "utf-8") return Buffer.from(text, "utf8");
  const bad = beyondLatin1(text);
  if (bad !== null) {
    throw new ToolError(
      `${shown} is not UTF-8: it is kept as Latin-1 (ISO-8859-1), one byte per character, and ${JSON.stringify(bad)} (U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}) has no Latin-1 byte. ` +
        "Use only Latin-1 characters, or convert the file to UTF-8 with a command (iconv -f latin1 -t utf-8) first",
    );
  }
  return Buffer.from(text, "latin1");
}

/**
 * Refuses strings from the model that hold U+FFFD for a file that is not UTF-8: read_file shows
 * its undecodable bytes that way, and they match nothing the file really holds.
 */
export function refuseReplacementChar(format: TextFormat, shown: string, ...texts: string[]): void {
  if (format.encoding === "latin-1" && texts.some((t) => t.includes("\uFFFD"))) {
    throw new ToolError(
      `${shown} is not UTF-8 (it is kept as Latin-1, byte for byte); the \uFFFD characters read_file showed stand for bytes that cannot be matched. ` +
        "Leave those characters out of old_string (match the text around them), or change the file with a command",
    );
  }
}

/** A short note for the model when a format was kept that it might not expect, else "". */
export function formatNote(format: TextFormat): string {
  const parts = [
    format.encoding === "latin-1" ? "Latin-1 encoding" : "",
    format.bom ? "byte-order mark" : "",
    format.eol === "\r\n" ? "CRLF line endings" : "",
  ].filter(Boolean);
  return parts.length > 0 ? ` (kept its ${parts.join(", ")})` : "";
}
