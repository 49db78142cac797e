// The end-of-turn distillation: the prompt that asks the model what from a completed turn is
// worth remembering, and a tolerant reader of its answer.
import { contentText, type ChatMessage } from "../protocol/messages.js";
import { MAX_MEMORY_TEXT, memoryKinds, sameMemoryKey, type MemoryEntry, type MemoryKind } from "./store.js";
import { MEMORY_BLOCK_END, MEMORY_BLOCK_START } from "./tools.js";
import { byCodeUnit } from "../protocol/order.js";

/** At most this many memories per turn: a turn rarely teaches more than one or two things. */
export const MAX_DISTILLED = 3;
/** The turn as sent for distillation: its start (the request) and end (the outcome) are kept. */
export const DISTILL_TURN_CHARS = 12_000;
/** The existing memories listed so the model does not repeat them, newest first. */
export const DISTILL_EXISTING_ENTRIES = 40;
export const DISTILL_EXISTING_CHARS = 4_000;
/** Per message part, so one huge tool result does not crowd out the conversation. */
const TOOL_CALL_CHARS = 300;
const TOOL_RESULT_CHARS = 800;

const SYSTEM = `You maintain the long-term memory of a coding agent: short notes it reads in future sessions, in any project.
From the conversation turn you are given, extract at most ${MAX_DISTILLED} durable memories worth keeping across sessions:
- correction: the user corrected the agent; record what to do instead (these come first);
- preference: how the user likes things done, as they stated it (these come next);
- lesson: something learned the hard way that will matter again (a tool quirk, a pitfall and its fix);
- fact: a lasting fact about the user, their machine or their projects.
Leave out the current task's transient state (progress, files just edited, what was done this turn), anything only true for this one task, pleasantries, and anything secret (keys, passwords, tokens, personal data).
Leave out anything the existing memories already say. Write each memory as one short, self-contained sentence in the language the user used.
Most turns teach nothing lasting: then answer {"memories": []}.
Answer with JSON only, no prose: {"memories": [{"kind": "correction" | "preference" | "lesson" | "fact", "text": "..."}]}`;

const clip = (text: string, max: number) =>
  text.length > max ? `${cut(text, max)}… [${text.length - max} more characters]` : text;

/** The first `max` UTF-16 units, without splitting a surrogate pair. */
function cut(text: string, max: number): string {
  const head = text.slice(0, max);
  const last = head.charCodeAt(head.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? head.slice(0, -1) : head;
}

/** The previous retrieval's block is not part of what the user said. */
function withoutMemoryBlocks(text: string): string {
  let out = text;
  for (;;) {
    const start = out.indexOf(MEMORY_BLOCK_START);
    const end = start < 0 ? -1 : out.indexOf(MEMORY_BLOCK_END, start);
    if (end < 0) return out.trim();
    out = out.slice(0, start) + out.slice(end + MEMORY_BLOCK_END.length);
  }
}

function renderMessage(message: ChatMessage): string[] {
  switch (message.role) {
    case "system":
      return [];
    case "user": {
      const images =
        typeof message.content === "string" ? 0 : message.content.filter((p) => p.type === "image_url").length;
      const text = withoutMemoryBlocks(contentText(message.content));
      return [`User: ${text}${images > 0 ? ` [${images} image${images === 1 ? "" : "s"}]` : ""}`];
    }
    case "assistant": {
      const lines = message.content ? [`Assistant: ${message.content}`] : [];
      for (const call of message.tool_calls ?? [])
        lines.push(`Assistant called ${call.function.name}(${clip(call.function.arguments, TOOL_CALL_CHARS)})`);
      return lines;
    }
    case "tool":
      return [`Tool result: ${clip(message.content, TOOL_RESULT_CHARS)}`];
    default:
      return message satisfies never;
  }
}

/** The turn as text, cut in the middle when long: the request and the outcome matter most. */
export function renderTurn(turn: ChatMessage[], max = DISTILL_TURN_CHARS): string {
  const text = turn.flatMap(renderMessage).join("\n\n");
  if (text.length <= max) return text;
  const headLength = Math.floor(max * 0.4);
  const tailLength = max - headLength;
  const head = cut(text, headLength);
  let tail = text.slice(text.length - tailLength);
  if (/[\udc00-\udfff]/.test(tail[0] ?? "")) tail = tail.slice(1);
  return `${head}\n\n[… ${text.length - head.length - tail.length} characters of the turn left out …]\n\n${tail}`;
}

function renderExisting(existing: MemoryEntry[]): string {
  const newest = [...existing].sort((a, b) => byCodeUnit(b.updatedAt, a.updatedAt)).slice(0, DISTILL_EXISTING_ENTRIES);
  const lines: string[] = [];
  let used = 0;
  for (const entry of newest) {
    const line = `- [${entry.kind}] ${clip(entry.text.replace(/\s+/g, " "), 300)}`;
    if (used + line.length > DISTILL_EXISTING_CHARS) break;
    lines.push(line);
    used += line.length + 1;
  }
  return lines.length === 0 ? "(none yet)" : lines.join("\n");
}

/**
 * Contract: a system and a user message for one model call the engine makes after a completed
 * turn. The answer goes to parseDistilled. The turn's text is capped at DISTILL_TURN_CHARS and
 * retrieved-memory blocks are left out of it; existing memories are listed (capped) so the model
 * does not repeat them.
 */
export function distillRequest(turn: ChatMessage[], existing: MemoryEntry[]): ChatMessage[] {
  const user = [
    "Existing memories (do not repeat these):",
    renderExisting(existing),
    "",
    "The turn:",
    "<turn>",
    renderTurn(turn),
    "</turn>",
    "",
    'Answer with the JSON object only: {"memories": [...]} or {"memories": []}.',
  ].join("\n");
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: user },
  ];
}

/** Every balanced {...} or [...] in the text, outermost first, skipping brackets inside strings. */
function* bracketed(text: string): Generator<string> {
  let tries = 0;
  for (let start = 0; start < text.length && tries < 50; start++) {
    const open = text[start];
    if (open !== "{" && open !== "[") continue;
    tries++;
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === "\\") i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{" || ch === "[") depth++;
      else if (ch === "}" || ch === "]") {
        depth--;
        if (depth === 0) {
          yield text.slice(start, i + 1);
          break;
        }
      }
    }
  }
}

function candidates(text: string): string[] {
  const fenced = [...text.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  return [...fenced, text.trim(), ...fenced.flatMap((f) => [...bracketed(f)]), ...bracketed(text)];
}

/** The answer's list: `{"memories": [...]}`, or (failing any such object) a bare array. */
function findList(text: string): unknown[] {
  const parsed: unknown[] = [];
  for (const candidate of candidates(text)) {
    try {
      parsed.push(JSON.parse(candidate));
    } catch {
      // Not JSON: prose, or a fragment of it.
    }
  }
  for (const raw of parsed) {
    const list =
      typeof raw === "object" && raw !== null && !Array.isArray(raw)
        ? (raw as { memories?: unknown }).memories
        : undefined;
    if (Array.isArray(list)) return list;
  }
  return parsed.find((raw): raw is unknown[] => Array.isArray(raw)) ?? [];
}

/**
 * Contract: never throws. Finds the JSON answer even inside ```json fences or prose; keeps items
 * with a known kind and non-empty text (cut to MAX_MEMORY_TEXT), at most MAX_DISTILLED, without
 * repeats. Anything unreadable gives [].
 */
export function parseDistilled(text: string): { kind: MemoryKind; text: string }[] {
  try {
    const out: { kind: MemoryKind; text: string }[] = [];
    const seen = new Set<string>();
    for (const item of findList(text)) {
      const { kind, text: body } = (item ?? {}) as { kind?: unknown; text?: unknown };
      const k = typeof kind === "string" ? kind.trim().toLowerCase() : "";
      const found = memoryKinds.find((known) => known === k);
      const clean = typeof body === "string" ? body.trim() : "";
      if (!found || clean === "") continue;
      const key = sameMemoryKey(clean);
      if (key === "" || seen.has(key)) continue;
      seen.add(key);
      out.push({ kind: found, text: cut(clean, MAX_MEMORY_TEXT).trim() });
      if (out.length === MAX_DISTILLED) break;
    }
    return out;
  } catch {
    return [];
  }
}
