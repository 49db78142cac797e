// Edits of a conversation's history that keep it valid: the memory block swapped per prompt, the
// last turns dropped (undo), and a compaction applied with its record in the session.
import type { ChatMessage } from "../protocol/messages.js";
import { MEMORY_BLOCK_START } from "../memory/markers.js";
import type { SessionData } from "../session/store.js";
import { isPrompt } from "./checkpointing.js";
import type { CompactionResult } from "./compaction.js";

/** Removes every memory block (the previous prompt's); the system prompt at index 0 stays. */
export function dropMemoryBlocks(messages: ChatMessage[]): void {
  for (let i = messages.length - 1; i > 0; i--) {
    const m = messages[i]!;
    if (m.role === "user" && typeof m.content === "string" && m.content.startsWith(MEMORY_BLOCK_START))
      messages.splice(i, 1);
  }
}

/** Drops the last `n` user turns (each prompt, the memory block placed for it, and everything after). Returns how many went. */
export function dropLastTurns(messages: ChatMessage[], n: number): number {
  const starts: number[] = [];
  messages.forEach((m, i) => {
    if (isPrompt(m)) starts.push(i);
  });
  const dropped = Math.min(n, starts.length);
  if (dropped === 0) return 0;
  let from = starts[starts.length - dropped]!;
  if (from > 0 && messages[from - 1]!.role === "user" && !isPrompt(messages[from - 1]!)) from--;
  messages.splice(from);
  return dropped;
}

/** Puts a compaction's result in place: the new messages live, the folded ones archived, a record kept. */
export function applyCompaction(
  messages: ChatMessage[],
  session: SessionData,
  result: CompactionResult,
  focus: string | undefined,
): void {
  messages.splice(0, messages.length, ...result.messages);
  session.archive = [...(session.archive ?? []), ...result.folded.filter((m) => m.role !== "system")];
  session.compactions = [
    ...(session.compactions ?? []),
    {
      at: new Date().toISOString(),
      folded: result.foldedCount,
      kept: result.kept,
      summaryChars: result.summaryChars,
      failed: result.failed,
      ...(focus ? { focus } : {}),
    },
  ];
}
