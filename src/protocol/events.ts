// The events of a turn and the engine (one zod definition per event) joined with the state events
// (state-events.ts): from them the TypeScript union, the boundary validator and docs/events.md.
import { approvalAnswerers, approvalDecisions, toolKinds, toolStatuses, turnEndReasons } from "./enums.js";
import { HistoryItemSchema } from "./history.js";
import { ChatMessageSchema } from "./messages.js";
import { OBSERVER_SCHEMA } from "./observer.js";
import { base, usage } from "./event-base.js";
import { stateEventDefinitions } from "./state-events.js";
import * as z from "./zod.js";

/** The observer contract's version: the first line of `--stream-json`, SSE streams and `--telemetry-file`. */
export { OBSERVER_SCHEMA };

export * from "./enums.js";

/** Each entry: the event's doc line and its payload (without `type`). */
export const eventDefinitions = {
  "observer.started": {
    doc:
      "The first line of every event stream (`--stream-json`, each SSE response, `--telemetry-file`): " +
      "the schema the lines after it follow. Not emitted on the bus itself.",
    shape: {
      ...base,
      schema: z.literal(OBSERVER_SCHEMA),
      program: z.literal("nanohermes"),
      version: z.string().check(z.describe("The program's version.")),
    },
  },
  "session.started": {
    doc: "A front end attached an engine to a session (new or resumed).",
    shape: {
      ...base,
      sessionId: z.string(),
      sessionFile: z.string(),
      workspace: z.string(),
      model: z.string(),
      resumed: z.boolean().check(z.describe("True when earlier messages were loaded from the file.")),
      messages: z.int().check(z.describe("How many messages the history holds now.")),
    },
  },
  "session.loaded": {
    doc: "The conversation was (re)loaded or rewritten (resume, undo, clear): front ends rebuild their transcript from `transcript`.",
    shape: {
      ...base,
      messages: z.array(ChatMessageSchema).check(z.describe("The history the model sees, without the system prompt.")),
      transcript: z
        .array(HistoryItemSchema)
        .check(
          z.describe(
            "The session's typed history (archived turns included), tool calls with their arguments and results filled in.",
          ),
        ),
    },
  },
  "session.saved": {
    doc: "The session file was written atomically (temp file + rename).",
    shape: { ...base, sessionFile: z.string(), messages: z.int() },
  },
  "turn.started": {
    doc: "A user turn began.",
    shape: { ...base, turnId: z.string(), prompt: z.string() },
  },
  "turn.completed": {
    doc: "A user turn ended; `reason` says why. `response` is the last assistant text.",
    shape: {
      ...base,
      turnId: z.string(),
      reason: z.enum(turnEndReasons),
      response: z.string(),
      error: z.optional(z.string()).check(z.describe("One line; set when reason is `error` or `max_iterations`.")),
      saveError: z
        .optional(z.string())
        .check(
          z.describe(
            "One line; set when the session could not be saved at the end of the turn (the history on disk is behind).",
          ),
        ),
      steps: z.int().check(z.describe("Model round trips made in this turn.")),
      usage: usage.check(z.describe("Tokens used by this turn (sum of its usage.updated deltas).")),
    },
  },
  "step.started": {
    doc: "A model round trip began (step N of the turn, 1-based).",
    shape: { ...base, turnId: z.string(), step: z.int().check(z.positive()), model: z.string() },
  },
  "model.requested": {
    doc:
      "One model request was sent: each attempt (the first, every retry, every fallback) is one, " +
      "sharing the step's `requestId`; model.responded ends it.",
    shape: {
      ...base,
      requestId: z.string().check(z.describe("One per step: every attempt of the step carries it.")),
      attempt: z.int().check(z.positive(), z.describe("1 for the first try, then counting retries and fallbacks.")),
      model: z.string(),
      provider: z.optional(z.string()).check(z.describe("The provider preset, when one is in use.")),
      api: z.string().check(z.describe("The wire: `chat`, `responses` or `anthropic`.")),
      purpose: z.enum(["step", "compaction"]).check(z.describe("A turn's step, or the summary call of a compaction.")),
    },
  },
  "model.responded": {
    doc: "A model request (one attempt) ended: a reply, or a failure that may be retried.",
    shape: {
      ...base,
      requestId: z.string(),
      attempt: z.int().check(z.positive()),
      model: z.string(),
      durationMs: z.number().check(z.nonnegative(), z.describe("From model.requested to the end of the reply.")),
      finishReason: z.optional(z.string()),
      usage: z.optional(usage).check(z.describe("The reply's tokens, when the provider reported them.")),
      error: z.optional(z.string()).check(z.describe("One line, set when the attempt failed.")),
      errorType: z
        .optional(z.string())
        .check(z.describe("The HTTP status, `timeout`, `network`, `aborted` or `cut`: set with `error`.")),
    },
  },
  "model.retrying": {
    doc:
      "A model request failed with a retryable error and will be sent again after `delayMs`. " +
      "Any assistant.delta / reasoning.delta of this step so far is void.",
    shape: {
      ...base,
      requestId: z.optional(z.string()).check(z.describe("The step's request (model.requested).")),
      attempt: z.int().check(z.positive(), z.describe("The retry about to be made (1 = first retry).")),
      attempts: z.optional(
        z
          .int()
          .check(z.positive(), z.describe("How many times the request is sent in all: the first try and its retries.")),
      ),
      status: z.optional(z.int()).check(z.describe("HTTP status, absent for network errors.")),
      error: z.string(),
      delayMs: z.int().check(z.nonnegative()),
      model: z.string(),
    },
  },
  "model.fallback": {
    doc:
      "The model failed (429/5xx after retries, or 401/403 at once); the request is sent once to the next fallback " +
      '(config "fallback", --fallback-model). Earlier deltas of this step are void.',
    shape: {
      ...base,
      from: z.string(),
      to: z.string(),
      error: z.string(),
      fromProvider: z.optional(z.string()).check(z.describe("The provider preset that failed, when one is in use.")),
      toProvider: z.optional(z.string()).check(z.describe("The provider tried next (absent: the same endpoint).")),
    },
  },
  "model.waiting": {
    doc:
      "The model request is open but no content, reasoning or tool-call bytes arrived for `idleMs` " +
      "(keep-alive comments do not count). Sent every `waitNoticeMs` while it lasts; any content ends it.",
    shape: {
      ...base,
      model: z.string(),
      idleMs: z.int().check(z.nonnegative(), z.describe("Since the last content byte, or since the request was sent.")),
      elapsedMs: z.int().check(z.nonnegative(), z.describe("Since this attempt was sent.")),
      idleLimitMs: z
        .int()
        .check(z.describe("The attempt is given up (and retried) when `idleMs` reaches this (requestTimeoutMs).")),
      deadlineMs: z
        .int()
        .check(z.describe("The attempt is given up when `elapsedMs` reaches this (requestDeadlineMs).")),
    },
  },
  "assistant.delta": {
    doc: "Streamed assistant text.",
    shape: { ...base, text: z.string() },
  },
  "assistant.completed": {
    doc: "The assistant message of one step is final (it may be empty when the step only calls tools).",
    shape: {
      ...base,
      text: z.string(),
      toolCalls: z.int().check(z.nonnegative()),
      finishReason: z.optional(z.string()),
      requestId: z.optional(z.string()).check(z.describe("The request whose reply this is (model.requested).")),
    },
  },
  "reasoning.delta": {
    doc: "Streamed reasoning text (`reasoning_content` / `reasoning`), kept apart from content.",
    shape: { ...base, text: z.string() },
  },
  "tool.started": {
    doc: "A tool call began (after its arguments were validated).",
    shape: {
      ...base,
      callId: z.string(),
      name: z.string(),
      kind: z.enum(toolKinds),
      args: z.unknown().check(z.describe("The parsed arguments.")),
      summary: z.string().check(z.describe("One line describing the call, for display.")),
    },
  },
  "tool.output": {
    doc: "Live output of a running tool (command output). For the user only; the model gets tool.completed.",
    shape: {
      ...base,
      callId: z.string(),
      stream: z.enum(["stdout", "stderr"]),
      chunk: z.string(),
    },
  },
  "tool.completed": {
    doc: "A tool call ended. `forModel` is exactly what the model receives (at most 20 KB).",
    shape: {
      ...base,
      callId: z.string(),
      name: z.string(),
      status: z.enum(toolStatuses),
      forModel: z.string(),
      display: z.string().check(z.describe("A one-line result summary for the user.")),
      durationMs: z
        .number()
        .check(
          z.nonnegative(),
          z.describe(
            "From tool.started to the end: the time it waited for approval is not in it (0 when it never started).",
          ),
        ),
      waitedMs: z
        .optional(z.number().check(z.nonnegative()))
        .check(z.describe("How long the call waited for the approval question to be answered, when it was asked.")),
      kind: z
        .optional(z.enum(toolKinds))
        .check(
          z.describe("The tool's kind, when the call named a known tool (also for calls denied before tool.started)."),
        ),
      summary: z
        .optional(z.string())
        .check(z.describe("The call's one-line summary, when its arguments were valid (a denied command's text).")),
      gate: z
        .optional(z.enum(["allowed", "approved", "refused", "denied"]))
        .check(
          z.describe(
            "The gate's decision, once asked: allowed without a question, approved or denied by a person, refused without one (gate.refused).",
          ),
        ),
      sandbox: z
        .optional(z.enum(["refused"]))
        .check(z.describe("`refused`: the write boundary or the sandbox refused the call (sandbox.refused).")),
      args: z
        .optional(z.unknown())
        .check(
          z.describe(
            "Set when the call was validated but never started (denied, blocked, failed its pre-check): the parsed arguments, as tool.started would have carried them.",
          ),
        ),
    },
  },
  "approval.requested": {
    doc: "The engine waits for a user decision, replied with the approval.reply command.",
    shape: {
      ...base,
      requestId: z.string(),
      callId: z.string(),
      tool: z.string(),
      kind: z.enum(toolKinds),
      title: z.string().check(z.describe("One line: what would run or change.")),
      detail: z.string().check(z.describe("The exact command, diff or path.")),
      reason: z.string().check(z.describe("Why approval is needed (the policy, or the rule that matched).")),
      rule: z.optional(z.string()),
      dangerous: z.optional(
        z
          .boolean()
          .check(
            z.describe(
              "A dangerous-command rule matched: the card says so in red, and 'always' allows only this exact command in this task.",
            ),
          ),
      ),
      match: z.optional(
        z.string().check(z.describe("The part of the command the rule matched, to highlight in `detail`.")),
      ),
      always: z.optional(
        z
          .string()
          .check(
            z.describe(
              "What an 'always' answer would allow, in words ('commands starting with \"npm run build\"'); absent: always is not offered.",
            ),
          ),
      ),
      alwaysWorkspace: z.optional(
        z
          .boolean()
          .check(z.describe("Whether 'always for this workspace' is offered (never for a dangerous command).")),
      ),
    },
  },
  "approval.resolved": {
    doc: "An approval request was answered (or cancelled because the turn stopped).",
    shape: {
      ...base,
      requestId: z.string(),
      decision: z.enum(approvalDecisions),
      callId: z.optional(z.string()).check(z.describe("The tool call that asked.")),
      by: z
        .optional(z.enum(approvalAnswerers))
        .check(z.describe("Who answered: a person at a front end, or the stop that withdrew the question.")),
      waitedMs: z
        .optional(z.number().check(z.nonnegative()))
        .check(z.describe("From approval.requested to the answer.")),
    },
  },
  "gate.refused": {
    doc: "The gate refused a tool call without asking anybody (a deny rule, the policy, or nobody to ask).",
    shape: {
      ...base,
      callId: z.string(),
      tool: z.string(),
      kind: z.enum(toolKinds),
      cause: z
        .enum(["denied", "unattended", "network"])
        .check(
          z.describe(
            "`denied`: a deny rule or the blocklist; `unattended`: it needed approval and nobody could answer; `network`: it asked for the network the sandbox withholds.",
          ),
        ),
      reason: z.string().check(z.describe("What the model was told.")),
    },
  },
  "sandbox.refused": {
    doc: "The write boundary or the command sandbox refused a tool call (read-only, outside the workspace, a protected path).",
    shape: {
      ...base,
      callId: z.string(),
      tool: z.string(),
      cause: z.enum(["read-only", "outside-workspace", "protected", "unchecked"]),
      reason: z.string(),
    },
  },
  "sandbox.notice": {
    doc: "The command sandbox could not confine as configured (it fell back, or runs unconfined); also sent as a warn notice.",
    shape: { ...base, text: z.string() },
  },
  "usage.updated": {
    doc: "Token usage of one model request (a delta, not a running total).",
    shape: {
      ...base,
      ...usage.shape,
      model: z.string(),
      contextWindow: z
        .optional(z.int().check(z.positive()))
        .check(
          z.describe("The model's context window when known: `prompt` / `contextWindow` is how full the context is."),
        ),
    },
  },
  notice: {
    doc: "Something the user should know that is not part of the conversation.",
    shape: { ...base, level: z.enum(["info", "warn", "error"]), text: z.string() },
  },
  "context.compacting": {
    doc: "A compaction began (it costs a model call); context.compacted ends it, or nothing when it was stopped or found nothing.",
    shape: {
      ...base,
      forced: z.boolean().check(z.describe("Asked for (/compact), not over the budget.")),
      beforeChars: z.int(),
      tokensBefore: z.int().check(z.describe("Estimated: characters / 4.")),
      budgetChars: z.int(),
    },
  },
  "context.compacted": {
    doc: "Older messages were folded into a summary system message at index 1 (they stay in the session's archive).",
    shape: {
      ...base,
      tokensBefore: z.optional(z.int()).check(z.describe("Estimated: `beforeChars` / 4.")),
      tokensAfter: z.optional(z.int()).check(z.describe("Estimated: `afterChars` / 4.")),
      dropped: z
        .optional(z.object({ user: z.int(), assistant: z.int(), tool: z.int(), system: z.int(), toolCalls: z.int() }))
        .check(z.describe("The folded messages by role, and the tool calls among them.")),
      folded: z.int().check(z.describe("Messages folded.")),
      kept: z.int().check(z.describe("Recent messages kept as they were.")),
      summaryChars: z.int(),
      failed: z.boolean().check(z.describe("The summary call failed: a one-line omission note stands in.")),
      beforeChars: z.int(),
      afterChars: z.int(),
      summary: z.string().check(z.describe("The text now at index 1, for the transcript's record of what was folded.")),
      focus: z.optional(z.string()).check(z.describe("From /compact FOCUS.")),
      error: z.optional(z.string()),
    },
  },
  ...stateEventDefinitions,
} as const;

type Defs = typeof eventDefinitions;
export type EventType = keyof Defs;

function eventSchema<T extends EventType>(type: T) {
  return z.strictObject({ type: z.literal(type), ...eventDefinitions[type].shape });
}

const schemas = (Object.keys(eventDefinitions) as EventType[]).map((t) => eventSchema(t));

/** Validates one serialised event at a process boundary (`--stream-json`, SSE). */
export const BusEventSchema = z.discriminatedUnion(
  "type",
  schemas as unknown as [ReturnType<typeof eventSchema<EventType>>, ...ReturnType<typeof eventSchema<EventType>>[]],
);

export type BusEvent = {
  [T in EventType]: { type: T } & z.infer<z.ZodMiniObject<Defs[T]["shape"]>>;
}[EventType];

export type EventOf<T extends EventType> = Extract<BusEvent, { type: T }>;
export type TaskSnapshot = EventOf<"task.updated">["task"];
