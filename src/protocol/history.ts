// Typed history: what a session records beside its messages so a front end can rebuild the
// transcript exactly as it was shown live (codex's RolloutItem is the model). The engine appends
// one item per fact it knows (a prompt, a tool call with its kind and summary, a compaction, a
// memory block), in the order the events were emitted; nothing is recovered from message text.
import { approvalAnswerers, approvalDecisions, toolKinds, toolStatuses, turnEndReasons } from "./enums.js";
import * as z from "./zod.js";

/** Per tool call: what the card showed. `args` and `forModel` live in the messages (see below). */
const toolItem = z.object({
  type: z.literal("tool"),
  callId: z.string(),
  name: z.string(),
  /** The registry's kind for the tool; null when the call named no known tool, or in a history recovered from an older file. */
  kind: z.nullable(z.enum(toolKinds)),
  /** The tool's one-line description of the call ("" when it was rejected before one was made). */
  summary: z.string(),
  /** `running` only in a file written while the call ran (a killed run): read back as aborted. */
  status: z.enum([...toolStatuses, "running"]),
  display: z.string(),
  durationMs: z.nullable(z.number()),
  /**
   * Not stored in the file (the call's arguments and result are in the messages): filled in from
   * them when the engine sends the history to a front end (session.loaded).
   */
  args: z.optional(z.unknown()),
  forModel: z.optional(z.string()),
});

export const HistoryItemSchema = z.discriminatedUnion("type", [
  /** A prompt: where a user turn starts. */
  z.object({ type: z.literal("user"), text: z.string() }),
  /** A steering message delivered inside a running turn (part of that turn for /undo and /rewind, as its message is). */
  z.object({ type: z.literal("steer"), text: z.string() }),
  /** Assistant text as streamed; `stopped` when the turn was stopped while it streamed (not in the messages then). */
  z.object({ type: z.literal("assistant"), text: z.string(), stopped: z.optional(z.boolean()) }),
  z.object({ type: z.literal("reasoning"), text: z.string() }),
  toolItem,
  /** Long-term memories placed next to the prompt (the block itself is a user message the model sees). */
  z.object({ type: z.literal("memory"), ids: z.array(z.string()) }),
  /**
   * Older messages were folded into a summary (the context.compacted facts, and when). The counts
   * are null only in a history recovered from an older file, where only the summary text is known.
   */
  z.object({
    type: z.literal("compaction"),
    at: z.nullable(z.string()),
    folded: z.nullable(z.int()),
    kept: z.nullable(z.int()),
    summaryChars: z.int(),
    failed: z.boolean(),
    beforeChars: z.nullable(z.int()),
    afterChars: z.nullable(z.int()),
    summary: z.string(),
    focus: z.optional(z.string()),
    error: z.optional(z.string()),
  }),
  /**
   * An approval question and its answer (approval.requested, then approval.resolved), where the
   * transcript showed the card: before the call it asked about. A subagent's question carries its
   * `agentId` (the title names the child). `decision` is null while unanswered: a file written
   * while the question waited (a killed run) reads it back as cancelled.
   */
  z.object({
    type: z.literal("approval"),
    requestId: z.string(),
    callId: z.optional(z.string()),
    tool: z.string(),
    kind: z.enum(toolKinds),
    title: z.string(),
    dangerous: z.optional(z.boolean()),
    agentId: z.optional(z.string()),
    decision: z.nullable(z.enum(approvalDecisions)),
    by: z.optional(z.enum(approvalAnswerers)),
  }),
  /** A turn that did not complete: why. */
  z.object({ type: z.literal("turn-end"), reason: z.enum(turnEndReasons), error: z.optional(z.string()) }),
  /** Something the session itself says about its history (older items dropped to keep the file small). */
  z.object({ type: z.literal("note"), text: z.string() }),
]);

export type HistoryItem = z.infer<typeof HistoryItemSchema>;
