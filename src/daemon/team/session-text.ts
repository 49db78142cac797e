// What the stores read out of a session file's text: its title, message count and searchable text.
// Text that is not a session document is refused here, before anything is written.

export interface ParsedSession {
  title: string | null;
  messages: number;
  /** The messages' text (no system prompt; tool results cut to 2,000 characters), newest kept. */
  body: string;
}

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content
          .map((part: unknown) =>
            part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string"
              ? (part as { text: string }).text
              : "",
          )
          .join(" ")
      : "";

export function parseSessionText(text: string): ParsedSession {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new Error(`not a session file: ${(error as Error).message}`);
  }
  const data = doc as { version?: unknown; messages?: unknown; archive?: unknown; title?: unknown };
  if (!data || typeof data !== "object" || typeof data.version !== "number" || !Array.isArray(data.messages))
    throw new Error("not a session file: it needs a version and a messages array");
  const parts: string[] = [];
  const archive = Array.isArray(data.archive) ? data.archive : [];
  for (const message of [...archive, ...data.messages] as { role?: unknown; content?: unknown }[]) {
    if (!message || message.role === "system") continue;
    const body = textOf(message.content);
    parts.push(message.role === "tool" ? body.slice(0, 2_000) : body);
  }
  const title = typeof data.title === "string" ? data.title : null;
  if (title) parts.unshift(title);
  // A tsvector holds at most 1 MB; the newest text matters most.
  return { title, messages: data.messages.length, body: parts.join("\n").slice(-400_000) };
}
