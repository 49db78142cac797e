// One shared cap for tool results: cut on a character boundary and say what was cut.
export const MAX_RESULT_BYTES = 20 * 1024;

export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `bytes` (never splits a character). */
export function headBytes(text: string, bytes: number): string {
  if (bytes <= 0) return "";
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= bytes) return text;
  let end = bytes;
  // Back up to the start of a UTF-8 sequence (continuation bytes are 10xxxxxx).
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString("utf8");
}

/** The longest suffix of `text` whose UTF-8 encoding fits in `bytes`. */
export function tailBytes(text: string, bytes: number): string {
  if (bytes <= 0) return "";
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= bytes) return text;
  let start = buf.length - bytes;
  while (start < buf.length && (buf[start]! & 0xc0) === 0x80) start++;
  return buf.subarray(start).toString("utf8");
}

export interface ClampOptions {
  maxBytes?: number;
  strategy?: "head" | "head-tail";
  /** How to get the rest, e.g. "read further with offset/limit". */
  hint?: string;
}

/**
 * Contract: the returned text is at most `maxBytes` UTF-8 bytes, note included, and equals the
 * input when the input fits.
 */
export function clampResult(text: string, options: ClampOptions = {}): string {
  const maxBytes = options.maxBytes ?? MAX_RESULT_BYTES;
  const total = byteLength(text);
  if (total <= maxBytes) return text;
  const hint = options.hint ? ` ${options.hint}` : "";
  // The note's length depends on the number it reports; reserve room for the widest number.
  const noteFor = (cut: number) =>
    options.strategy === "head-tail"
      ? `\n[... ${cut} bytes cut from the middle of a ${total}-byte result (limit ${maxBytes}).${hint} ...]\n`
      : `\n[... ${cut} more bytes cut: the result was ${total} bytes, the limit is ${maxBytes}.${hint}]`;
  const reserve = byteLength(noteFor(total));
  const budget = Math.max(0, maxBytes - reserve);
  if (options.strategy === "head-tail") {
    const head = headBytes(text, Math.floor(budget * 0.4));
    const tail = tailBytes(text, budget - byteLength(head));
    const cut = total - byteLength(head) - byteLength(tail);
    return head + noteFor(cut) + tail;
  }
  const head = headBytes(text, budget);
  return head + noteFor(total - byteLength(head));
}
