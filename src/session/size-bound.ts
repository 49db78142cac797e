// Keeps a session savable: its file is one JSON string, and a string has a hard size limit in V8
// (~512 MB), past which every later save fails and the session is lost whole. The archive of folded
// messages is what grows without end, so its oldest part goes first, then the oldest of the typed
// history (what the transcript is rebuilt from); a live history still too big is refused with a
// message, and the file on disk stays as it was.
import type { HistoryItem } from "../protocol/history.js";
import type { ChatMessage } from "../protocol/messages.js";
import type { SessionData } from "./store.js";

/** Characters of messages (text, images' data URLs, arguments, reasoning) a session file may hold. */
export const SESSION_SAVE_CAP = 64 * 1024 * 1024;

export function messageChars(m: ChatMessage): number {
  let n = 64;
  if (typeof m.content === "string") n += m.content.length;
  else if (m.content) for (const p of m.content) n += p.type === "text" ? p.text.length : p.image_url.url.length;
  if (m.role === "assistant") {
    n += m.reasoning_content?.length ?? 0;
    for (const c of m.tool_calls ?? []) n += c.function.arguments.length + c.function.name.length + c.id.length + 64;
  }
  return n;
}

/** Characters of one history item's text (its arguments and result are the messages'). */
export function historyItemChars(it: HistoryItem): number {
  let n = 64;
  switch (it.type) {
    case "user":
    case "steer":
    case "assistant":
    case "reasoning":
    case "note":
      return n + it.text.length;
    case "tool":
      return n + it.callId.length + it.name.length + it.summary.length + it.display.length;
    case "compaction":
      return n + it.summary.length + (it.focus?.length ?? 0) + (it.error?.length ?? 0);
    case "memory":
      for (const id of it.ids) n += id.length + 4;
      return n;
    case "turn-end":
      return n + (it.error?.length ?? 0);
    case "approval":
      return n + it.requestId.length + (it.callId?.length ?? 0) + it.tool.length + it.title.length;
    default:
      return it satisfies never;
  }
}

const total = (messages: ChatMessage[]) => messages.reduce((sum, m) => sum + messageChars(m), 0);

export type SizeVerdict = { ok: true; droppedArchived: number; droppedHistory: number } | { ok: false; reason: string };

/**
 * Contract: trims `session.archive` in place (oldest first, leaving a note of how many went), then
 * `session.transcript` the same way, until the session fits `cap`; says not ok, touching nothing
 * else, when the live messages alone do not fit.
 */
export function boundSessionSize(session: SessionData, cap = SESSION_SAVE_CAP): SizeVerdict {
  const live = total(session.messages);
  if (live > cap) {
    const mb = (live / 1024 / 1024).toFixed(0);
    return {
      ok: false,
      reason: `the conversation holds ${mb} MB of text, over the ${cap / 1024 / 1024} MB a session file may hold; run /compact or start a new task`,
    };
  }
  const archive = session.archive ?? [];
  let archived = total(archive);
  const history = session.transcript ?? [];
  let recorded = history.reduce((sum, it) => sum + historyItemChars(it), 0);
  if (live + archived + recorded <= cap) return { ok: true, droppedArchived: 0, droppedHistory: 0 };
  let drop = 0;
  while (drop < archive.length && live + archived + recorded > cap) archived -= messageChars(archive[drop++]!);
  if (drop > 0) {
    const note: ChatMessage = {
      role: "system",
      content: `[${drop} older archived messages were dropped: the session file passed ${cap / 1024 / 1024} MB]`,
    };
    session.archive = [note, ...archive.slice(drop)];
  }
  let dropHistory = 0;
  while (dropHistory < history.length && live + archived + recorded > cap)
    recorded -= historyItemChars(history[dropHistory++]!);
  if (dropHistory > 0)
    session.transcript = [
      {
        type: "note",
        text: `${dropHistory} older transcript items were dropped: the session file passed ${cap / 1024 / 1024} MB`,
      },
      ...history.slice(dropHistory),
    ];
  return { ok: true, droppedArchived: drop, droppedHistory: dropHistory };
}
