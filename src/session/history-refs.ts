// A session file keeps each prompt's and reply's text once. In memory a history item carries its
// text (src/protocol/history.ts); in the file, an item whose text a message holds word for word
// names that message instead (`{"type": "assistant", "ref": 12}`: the 13th of `archive` followed by
// `messages`, as written in the same file), and readers put the text back before validating.
// Text that no message holds as it is (a stopped reply, a streamed reply in pieces, a `!` command,
// a prompt with images) stays in its item.
import type { HistoryItem } from "../protocol/history.js";
import type { ChatMessage } from "../protocol/messages.js";

/** Where a text item's text is in a message: its role and field. */
const SOURCES = {
  user: { role: "user", field: "content" },
  steer: { role: "user", field: "content" },
  assistant: { role: "assistant", field: "content" },
  reasoning: { role: "assistant", field: "reasoning_content" },
} as const;

type TextType = keyof typeof SOURCES;

const isTextType = (type: unknown): type is TextType => typeof type === "string" && Object.hasOwn(SOURCES, type);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The text a message holds where an item of `type` would find it, if it is plain text. */
function textIn(message: unknown, type: TextType): string | undefined {
  const source = SOURCES[type];
  if (!isRecord(message) || message.role !== source.role) return undefined;
  const text = message[source.field];
  return typeof text === "string" ? text : undefined;
}

/**
 * The items as the file stores them. `messages` is the file's `archive` followed by its `messages`,
 * in the order written. Contract: pure; an item that comes back from unpackHistory equals `items`'s.
 */
export function packHistory(items: readonly HistoryItem[], messages: readonly ChatMessage[]): object[] {
  // The first message holding each text, per role and field: a key made of both.
  const first = new Map<string, number>();
  messages.forEach((m, i) => {
    for (const type of ["user", "assistant", "reasoning"] as const) {
      const text = textIn(m, type);
      const key = text ? `${SOURCES[type].role}.${SOURCES[type].field}\n${text}` : undefined;
      if (key !== undefined && !first.has(key)) first.set(key, i);
    }
  });
  return items.map((item) => {
    if (!isTextType(item.type) || !("text" in item) || !item.text) return item;
    const source = SOURCES[item.type];
    const ref = first.get(`${source.role}.${source.field}\n${item.text}`);
    if (ref === undefined) return item;
    const { text: _text, ...rest } = item;
    return { ...rest, ref };
  });
}

/**
 * Raw items as read from a file, each `ref` replaced by the text it names in `archive` then
 * `messages` (raw too). Contract: never throws; an item whose `ref` names no message with its text
 * is left without text, so reading it fails as an item this version cannot read does.
 */
export function unpackHistory(items: unknown, archive: unknown, messages: unknown): unknown {
  if (!Array.isArray(items)) return items;
  const all = [...(Array.isArray(archive) ? archive : []), ...(Array.isArray(messages) ? messages : [])];
  return items.map((raw: unknown) => {
    if (!isRecord(raw) || !("ref" in raw) || "text" in raw || !isTextType(raw.type)) return raw;
    const { ref, ...rest } = raw;
    const text = typeof ref === "number" && Number.isInteger(ref) ? textIn(all[ref], raw.type) : undefined;
    return text === undefined ? rest : { ...rest, text };
  });
}
