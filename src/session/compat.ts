// Forward compatibility of session files: what this version does not know is kept, not dropped.
// Unknown fields of a message ride along in a side table and are written back; a file this version
// cannot represent whole (a newer `version`, an unknown role or content part) is read as far as it
// can be and marked so that nobody overwrites it.
import { HistoryItemSchema, type HistoryItem } from "../protocol/history.js";
import { ChatMessageSchema, ContentPartSchema, type ChatMessage } from "../protocol/messages.js";

/** The newest session file layout this version writes and fully understands. */
export const SESSION_VERSION = 1;

/** Fields of a message (or history item) this version does not know, by object (kept while it lives). */
const extrasOf = new WeakMap<object, Record<string, unknown>>();

/** `message` (or a history item) as written to disk: its known fields, then the unknown ones it was read with. */
export function withExtras<T extends ChatMessage | HistoryItem>(message: T): T {
  const extras = extrasOf.get(message);
  return extras ? ({ ...message, ...extras } as T) : message;
}

function keepExtras(raw: unknown, parsed: object): void {
  if (!isRecord(raw)) return;
  const extras = Object.fromEntries(Object.entries(raw).filter(([key]) => !(key in parsed)));
  if (Object.keys(extras).length > 0) extrasOf.set(parsed, extras);
}

export interface ReadMessages {
  messages: ChatMessage[];
  /** One short phrase per thing that could not be read (`a message with role "developer"`). */
  unreadable: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(raw: unknown): string {
  if (!isRecord(raw)) return "a message that is not an object";
  const role = typeof raw.role === "string" ? raw.role : "?";
  if (role === "user" && Array.isArray(raw.content)) {
    const unknown = raw.content
      .filter((p) => !ContentPartSchema.safeParse(p).success)
      .map((p) => (isRecord(p) && typeof p.type === "string" ? p.type : "?"));
    if (unknown.length > 0) return `a content part of type "${unknown[0]}"`;
  }
  if (!["system", "user", "assistant", "tool"].includes(role)) return `a message with role "${role}"`;
  return `a ${role} message this version cannot read`;
}

/**
 * Contract: never throws. Reads every message it can; a user message keeps its readable content
 * parts. Afterwards the history is made consistent again: results whose call was dropped go, and
 * calls whose result was dropped get a stub result, so the model is never sent a broken history.
 */
export function readMessages(list: readonly unknown[]): ReadMessages {
  const messages: ChatMessage[] = [];
  const unreadable: string[] = [];
  for (const raw of list) {
    let parsed = ChatMessageSchema.safeParse(raw);
    if (!parsed.success && isRecord(raw) && raw.role === "user" && Array.isArray(raw.content)) {
      const parts = raw.content.filter((p) => ContentPartSchema.safeParse(p).success);
      if (parts.length > 0) parsed = ChatMessageSchema.safeParse({ ...raw, content: parts });
      if (parsed.success) unreadable.push(describe(raw));
    }
    if (!parsed.success) {
      unreadable.push(describe(raw));
      continue;
    }
    const message = parsed.data;
    keepExtras(raw, message);
    messages.push(message);
  }
  return { messages: unreadable.length > 0 ? consistent(messages) : messages, unreadable };
}

/**
 * Contract: never throws. Reads the typed history items it can (unknown fields of a known item ride
 * along like a message's); an item of a type this version does not know is named in `unreadable`,
 * which freezes the file as an unknown role does.
 */
export function readHistory(list: readonly unknown[]): { items: HistoryItem[]; unreadable: string[] } {
  const items: HistoryItem[] = [];
  const unreadable: string[] = [];
  for (const raw of list) {
    const parsed = HistoryItemSchema.safeParse(raw);
    if (!parsed.success) {
      const type = isRecord(raw) && typeof raw.type === "string" ? raw.type : "?";
      unreadable.push(`a history item of type "${type}" this version cannot read`);
      continue;
    }
    keepExtras(raw, parsed.data);
    items.push(parsed.data);
  }
  return { items, unreadable };
}

/** Drops orphan tool results and answers calls left without a result (after dropped messages). */
function consistent(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let open: string[] = [];
  const closeOpen = () => {
    for (const id of open)
      out.push({
        role: "tool",
        tool_call_id: id,
        content: "[missing] this result could not be read from the session file",
      });
    open = [];
  };
  for (const m of messages) {
    if (m.role === "tool") {
      const i = open.indexOf(m.tool_call_id);
      if (i === -1) continue;
      open.splice(i, 1);
      out.push(m);
      continue;
    }
    closeOpen();
    out.push(m);
    if (m.role === "assistant" && m.tool_calls) open = m.tool_calls.map((c) => c.id);
  }
  closeOpen();
  return out;
}
