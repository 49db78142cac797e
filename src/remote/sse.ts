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

/**
 * Feeds chunks, returns whole messages. Follows the WHATWG rules that matter here: `\r\n`, `\r`
 * or `\n` line ends, comment lines, `data` lines joined by newlines, one leading space dropped.
 */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private id: string | undefined;
  private event: string | undefined;

  feed(chunk: string): SseMessage[] {
    this.buffer += chunk;
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
    return out;
  }
}
