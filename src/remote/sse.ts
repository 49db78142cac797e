// Server-sent events: one encoder for the daemon, one incremental parser for its clients.

export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

/** One SSE message; `data` must be a single line (JSON is). */
export function sseMessage(message: SseMessage): string {
  return `${message.id !== undefined ? `id: ${message.id}\n` : ""}${message.event ? `event: ${message.event}\n` : ""}data: ${message.data}\n\n`;
}

/** A comment line: ignored by clients, keeps proxies from closing an idle stream. */
export const sseComment = (text: string): string => `: ${text}\n\n`;

/** A line of an event stream longer than this, unended, stops the stream (as the model's does). */
export const SSE_LINE_CAP = 32 * 1024 * 1024;

/** A line that passed the cap without ending: the stream is not read further. */
export class SseLineTooLong extends Error {
  constructor(cap: number) {
    super(`a line of the event stream passed ${Math.round(cap / (1024 * 1024))} MB without ending; stopped reading it`);
    this.name = "SseLineTooLong";
  }
}

/**
 * Feeds chunks, returns whole messages. Follows the WHATWG rules that matter here: `\r\n`, `\r`
 * or `\n` line ends, comment lines, `data` lines joined by newlines, one leading space dropped.
 * A line longer than `lineCap` throws SseLineTooLong (held whole, it would grow without bound).
 */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private id: string | undefined;
  private event: string | undefined;
  /** Chunks of a line not ended yet, held apart from `buffer`. */
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(private readonly lineCap = SSE_LINE_CAP) {}

  feed(chunk: string): SseMessage[] {
    // A chunk with no line end in it is only held: a long line arriving in many chunks is joined
    // once, when it ends, not copied again with every chunk.
    // (After a lone \r the chunk decides whether it was a line end, so it goes the long way.)
    if (!/[\r\n]/.test(chunk) && !this.buffer.endsWith("\r")) {
      this.pending.push(chunk);
      this.pendingLength += chunk.length;
      if (this.buffer.length + this.pendingLength > this.lineCap) {
        this.buffer = "";
        this.pending = [];
        this.pendingLength = 0;
        throw new SseLineTooLong(this.lineCap);
      }
      return [];
    }
    this.buffer += this.pending.join("") + chunk;
    this.pending = [];
    this.pendingLength = 0;
    const out: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone \r at the very end may be the first half of \r\n: wait for more.
      if (match[0] === "\r" && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      if (line === "") {
        if (this.data.length > 0)
          out.push({
            data: this.data.join("\n"),
            ...(this.id !== undefined ? { id: this.id } : {}),
            ...(this.event ? { event: this.event } : {}),
          });
        this.data = [];
        this.event = undefined;
        this.id = undefined;
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") this.data.push(value);
      else if (field === "event") this.event = value;
      else if (field === "id" && !value.includes("\0")) this.id = value;
    }
    if (this.buffer.length > this.lineCap) {
      this.buffer = "";
      throw new SseLineTooLong(this.lineCap);
    }
    return out;
  }
}
