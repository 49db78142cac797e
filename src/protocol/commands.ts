// The commands front ends send to the engine: one zod definition per command, like events.
import { approvalPolicies, permissionModes } from "./enums.js";
import * as z from "./zod.js";

const base = { taskId: z.string() };

export const approvalDecisions = ["once", "always", "deny"] as const;

export const commandDefinitions = {
  "user.submit": {
    doc: "Start a turn with this text (or, while a turn runs, steer it at the next step boundary).",
    shape: {
      ...base,
      text: z.string(),
      mode: z.optional(z.enum(["turn", "steer", "queue"])),
      resume: z
        .optional(z.boolean())
        .check(
          z.describe(
            "With an empty text: send the first of a paused queue (queue.updated paused) as the next turn and go on with the rest.",
          ),
        ),
      images: z
        .optional(z.array(z.string()))
        .check(z.describe("Image files to attach (at most 4; a refused image stops the turn with a notice).")),
      model: z
        .optional(z.string().check(z.minLength(1)))
        .check(
          z.describe(
            "The model for this turn only (a custom command's front matter); ignored for steering and queued text.",
          ),
        ),
    },
  },
  "shell.run": {
    doc: "`!` shell mode: run a command as the model's run_command would (policy, approval, sandbox); the command and its output go into the conversation for the next turn. Refused (a notice) while a turn runs.",
    shape: { ...base, command: z.string().check(z.minLength(1)) },
  },
  "turn.interrupt": {
    doc: "Stop the running turn at the next step boundary; `force` also kills running tools.",
    shape: { ...base, force: z.optional(z.boolean()) },
  },
  "approval.reply": {
    doc: "Answer an approval.requested event.",
    shape: {
      ...base,
      requestId: z.string(),
      decision: z.enum(approvalDecisions),
      note: z.optional(z.string()).check(z.describe("Sent to the model with a denial.")),
      stop: z
        .optional(z.boolean())
        .check(
          z.describe(
            "With deny: also stop the turn at the next step boundary (a subagent's question: stop that subagent), so the model does not go on to ask something else; the user says what to do instead.",
          ),
        ),
      scope: z
        .optional(z.enum(["task", "workspace"]))
        .check(z.describe("For always: remember for this task (default) or for this workspace.")),
    },
  },
  "config.update": {
    doc: "Change the task's settings; takes effect at the next model request.",
    shape: {
      ...base,
      model: z.optional(z.string().check(z.minLength(1))),
      mode: z.optional(z.enum(permissionModes)),
      approval: z.optional(z.enum(approvalPolicies)),
      sandbox: z.optional(z.string()),
    },
  },
  "task.create": {
    doc: "Create a task with this id (the front end picks it, so it can switch to it at once).",
    shape: { ...base, title: z.optional(z.string()), sessionFile: z.optional(z.string()) },
  },
  "task.open": {
    doc: "A front end shows this task: its session is loaded (once) and replayed with session.loaded.",
    shape: { ...base },
  },
  "task.update": {
    doc: "Rename or pin a task.",
    shape: { ...base, title: z.optional(z.string().check(z.minLength(1))), pinned: z.optional(z.boolean()) },
  },
  "task.delete": {
    doc: "Delete a task: its turn is stopped and its session file removed.",
    shape: { ...base },
  },
  "task.export": {
    doc: "Write the task's transcript to a file (Markdown or JSON); a notice names the file.",
    shape: { ...base, format: z.enum(["markdown", "json"]), path: z.optional(z.string()) },
  },
  "permissions.remove": {
    doc: 'Forget a rule the task remembered from an "always" answer (as listed in task.updated\'s rules).',
    shape: { ...base, rule: z.string() },
  },
  "queue.update": {
    doc: "Replace the task's pending steer/queue items (edit, reorder or drop them before delivery).",
    shape: {
      ...base,
      items: z.array(z.object({ id: z.string(), text: z.string(), mode: z.enum(["steer", "queue"]) })),
    },
  },
  "session.undo": {
    doc: "Drop the last `n` user turns (the user message and everything after it).",
    shape: { ...base, n: z.int().check(z.positive()) },
  },
  "session.rewind": {
    doc: "Go back to before user turn `turn` (1-based): restore the files tools changed since then, drop the conversation from there on, or both.",
    shape: { ...base, turn: z.int().check(z.positive()), what: z.enum(["files", "conversation", "both"]) },
  },
  "file.revert": {
    doc: 'Restore one file to how it was before user turn `turn` ("revert this file only").',
    shape: { ...base, turn: z.int().check(z.positive()), path: z.string() },
  },
  "session.compact": {
    doc: "Fold older messages into a summary now.",
    shape: { ...base, focus: z.optional(z.string()) },
  },
  "session.clear": {
    doc: "Empty the conversation (the session file is rewritten).",
    shape: { ...base },
  },
  "subagent.stop": {
    doc: "Stop one subagent of the task at its next step boundary (`force` also kills its running tools); a queued one never starts.",
    shape: { ...base, agentId: z.string(), force: z.optional(z.boolean()) },
  },
  "job.stop": {
    doc: "Stop one of the task's background commands (as task_kill would); its background.updated says when it ended.",
    shape: { ...base, jobId: z.string() },
  },
  "mcp.restart": {
    doc: "Reconnect an MCP server now (all servers without `server`), resetting its retry count.",
    shape: { ...base, server: z.optional(z.string()) },
  },
  "proposal.accept": {
    doc: "Accept a waiting skill proposal (as `nanohermes skills accept ID`): it is applied through skill_manage's checks and becomes a live skill; a notice to `taskId` says what was written, or why it stays waiting.",
    shape: { ...base, id: z.string() },
  },
  "proposal.reject": {
    doc: "Drop a waiting skill proposal (as `nanohermes skills reject ID`): filed under `.proposals/rejected/`, never deleted.",
    shape: { ...base, id: z.string() },
  },
  "proposal.edit": {
    doc: "Replace what a waiting skill proposal would write with `content`, the whole SKILL.md (as `nanohermes skills edit ID`); refused with a notice when it fails the checks, leaving the proposal as it was.",
    shape: { ...base, id: z.string(), content: z.string() },
  },
} as const;

type Defs = typeof commandDefinitions;
export type CommandType = keyof Defs;

function commandSchema<T extends CommandType>(type: T) {
  return z.strictObject({ type: z.literal(type), ...commandDefinitions[type].shape });
}

const schemas = (Object.keys(commandDefinitions) as CommandType[]).map((t) => commandSchema(t));

/** Validates one serialised command at a process boundary. */
export const BusCommandSchema = z.discriminatedUnion(
  "type",
  schemas as unknown as [
    ReturnType<typeof commandSchema<CommandType>>,
    ...ReturnType<typeof commandSchema<CommandType>>[],
  ],
);

export type BusCommand = {
  [T in CommandType]: { type: T } & z.infer<z.ZodMiniObject<Defs[T]["shape"]>>;
}[CommandType];

export type CommandOf<T extends CommandType> = Extract<BusCommand, { type: T }>;
export type ApprovalDecision = (typeof approvalDecisions)[number];
