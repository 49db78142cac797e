// Resuming a turn whose daemon died (issue 34, item 2). The store holds the session as of its last
// whole step; the turn's events (shared by the fan-out) say what the lost step had begun: its
// assistant text and tool calls, and which calls finished. The step is put back with every call
// answered (a finished call by its result, a running one as interrupted), so nothing is replayed
// behind the model's back and the history stays valid. Pure: the caller reads and writes.
import type { BusEvent } from "../../protocol/events.js";

export interface Resumed {
  /** The session text with the lost step put back; null when nothing needs to change. */
  text: string | null;
  /** Tool calls that were running when the daemon died (name and id). */
  interrupted: string[];
  /** Whether the turn's prompt reached the store (else the turn simply runs again). */
  promptKept: boolean;
}

export const INTERRUPTED_RESULT =
  "[interrupted] the daemon running this call stopped before it finished; it was not run again. Check what it may have done before repeating it.";

interface Message {
  role: string;
  content?: unknown;
}

/** `events`: the turn's events from its turn.started on (the session's own agent only). */
export function resumeHistory(text: string | null, events: readonly BusEvent[]): Resumed {
  const main = events.filter((e) => e.agentId === undefined);
  const started = main.find((e) => e.type === "turn.started");
  const savedAfterStart = main.some((e) => e.type === "session.saved");
  if (!text || !started || !savedAfterStart) return { text: null, interrupted: [], promptKept: false };
  // The newest step is the one the store may lack: the step's save follows its tool results, and
  // a step whose results are stored already needs nothing.
  let lastStep = -1;
  main.forEach((e, i) => {
    if (e.type === "step.started") lastStep = i;
  });
  const lost = main.slice(lastStep + 1);
  const doc = JSON.parse(text) as { messages: (Message & { tool_call_id?: string })[] };
  const stored = new Set(doc.messages.map((m) => m.tool_call_id).filter((id) => id !== undefined));
  const calls = lost.filter((e) => e.type === "tool.started").filter((e) => !stored.has(e.callId));
  if (calls.length === 0) return { text: null, interrupted: [], promptKept: true };
  let assistantText = "";
  for (const e of lost) if (e.type === "assistant.completed") assistantText = e.text;
  const results = new Map<string, string>();
  for (const e of lost) if (e.type === "tool.completed") results.set(e.callId, e.forModel);
  const interrupted: string[] = [];
  doc.messages.push({
    role: "assistant",
    content: assistantText || null,
    tool_calls: calls.map((e) => ({
      id: e.callId,
      type: "function",
      function: { name: e.name, arguments: JSON.stringify(e.args ?? {}) },
    })),
  } as Message);
  for (const e of calls) {
    const result = results.get(e.callId);
    if (result === undefined) interrupted.push(`${e.name} (${e.callId})`);
    doc.messages.push({ role: "tool", tool_call_id: e.callId, content: result ?? INTERRUPTED_RESULT } as Message);
  }
  return { text: JSON.stringify(doc), interrupted, promptKept: true };
}

/** The prompt the resuming daemon sends: the original when it never reached the store, else a note. */
export function interruptedPrompt(prompt: string, interrupted: readonly string[], promptKept: boolean): string {
  if (!promptKept) return prompt;
  const calls =
    interrupted.length > 0
      ? ` These tool calls were running and did not finish (they were not run again): ${interrupted.join(", ")}.`
      : "";
  return `[The daemon running this turn stopped in the middle of it; another daemon resumes it from the last whole step.${calls} Continue the task from where it stopped.]`;
}
