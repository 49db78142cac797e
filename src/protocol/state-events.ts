// The events that report state around the turn rather than the turn itself: memory, subagents,
// the plan, background jobs, the task list and queue, checkpoints, MCP servers, hooks, skill
// proposals and steering. events.ts joins them to the turn's events, in this order, for the union and the docs.
import { approvalPolicies, lockRoles, permissionModes, taskStatuses } from "./enums.js";
import { base, usage } from "./event-base.js";
import * as z from "./zod.js";

/** Each entry: the event's doc line and its payload (without `type`). */
export const stateEventDefinitions = {
  "memory.retrieved": {
    doc: "Long-term memories were retrieved for this turn.",
    shape: { ...base, count: z.int(), ids: z.array(z.string()) },
  },
  "subagent.updated": {
    doc: "A row of the subagent board changed.",
    shape: {
      ...base,
      row: z.object({
        id: z.string().check(z.describe("`agent-N`, numbered per task.")),
        name: z.string().check(z.describe("The configured agent.")),
        task: z.string(),
        status: z
          .enum(["queued", "running", "waiting", "done", "failed", "stopped"])
          .check(z.describe("`waiting`: it needs an approval.")),
        durationMs: z.number().check(z.nonnegative(), z.describe("Running time so far (or in all, once ended).")),
        preview: z.string().check(z.describe("The result's first 500 characters, whitespace flattened.")),
        depth: z.int().check(z.positive(), z.describe("1 for a child of the task's agent, 2 for a grandchild.")),
        startedAt: z.nullable(z.string()),
        endedAt: z.nullable(z.string()),
        lastActivityAt: z
          .string()
          .check(z.describe("When the child last did anything (refreshed at most once a second while it streams).")),
        tool: z
          .nullable(z.object({ name: z.string(), summary: z.string() }))
          .check(z.describe("The tool it is running now.")),
        usage,
        files: z.array(z.string()).check(z.describe("Files its edit tools touched.")),
      }),
    },
  },
  "todo.updated": {
    doc: "The task's plan (todo_write) changed: the whole list as it is now.",
    shape: {
      ...base,
      items: z.array(z.object({ content: z.string(), status: z.enum(["pending", "in_progress", "completed"]) })),
    },
  },
  "background.updated": {
    doc: "A background command (run_command with background: true) started, wrote output, or ended.",
    shape: {
      ...base,
      job: z.object({
        id: z.string(),
        command: z.string(),
        state: z.enum(["running", "exited", "killed", "failed"]),
        exitCode: z.nullable(z.int()),
        lastLine: z.string().check(z.describe("The last line of output, for the results pane.")),
        tail: z
          .optional(z.string())
          .check(
            z.describe(
              "The end of its output (a few KB), for the Jobs tab; the job's full log is read with task_output.",
            ),
          ),
        startedAt: z.string(),
      }),
    },
  },
  "task.updated": {
    doc: "A task was created or changed; the event carries the whole task as it is now.",
    shape: {
      ...base,
      task: z.object({
        title: z.string(),
        status: z.enum(taskStatuses),
        pinned: z.boolean(),
        model: z.string(),
        mode: z.enum(permissionModes),
        approval: z.enum(approvalPolicies),
        location: z.enum(["local", "remote"]),
        sessionFile: z.nullable(z.string()),
        createdAt: z.string(),
        updatedAt: z.string(),
        usage: usage.check(z.describe("Tokens used by the task so far.")),
        context: z
          .optional(z.object({ used: z.int(), window: z.int() }))
          .check(z.describe("Input tokens of the latest request and the model's context window (when known).")),
        pendingApprovals: z.int().check(z.nonnegative()),
        rules: z
          .array(z.string())
          .check(z.describe('What "always" answers allow in this task (edits, prefix: …, command: …).')),
        heldBy: z
          .optional(
            z.object({
              pid: z.int(),
              host: z.string(),
              role: z
                .nullable(z.enum(lockRoles))
                .check(
                  z.describe("What kind of NanoHermes process; null when its lock does not say (an older version)."),
                ),
              text: z.string().check(z.describe("Who holds it and what to do, as one line for the user.")),
            }),
          )
          .check(
            z.describe(
              "Another live process holds the task's session (its lock): a prompt cannot run here until it lets go. Absent when nobody else does.",
            ),
          ),
      }),
    },
  },
  "prompt.refused": {
    doc: "A prompt was not run because another process holds the task's session: the front end gives the text back to the user.",
    shape: {
      ...base,
      text: z.string().check(z.describe("The prompt as sent.")),
      reason: z.string().check(z.describe("Why, as one line for the user.")),
    },
  },
  "task.removed": {
    doc: "A task was deleted.",
    shape: { ...base },
  },
  "queue.updated": {
    doc: "The messages waiting for a running turn changed: steering (delivered at the next step boundary) and queued (sent as the next turn).",
    shape: {
      ...base,
      items: z.array(z.object({ id: z.string(), text: z.string(), mode: z.enum(["steer", "queue"]) })),
      paused: z
        .optional(z.boolean())
        .check(
          z.describe(
            "The user stopped the turn: the items wait (no next turn starts) until a user.submit with resume, or they are dropped.",
          ),
        ),
    },
  },
  "checkpoints.updated": {
    doc: "The files tools changed, per user turn, as checkpointed before each change (for per-turn diffs and /rewind).",
    shape: {
      ...base,
      turns: z.array(
        z.object({
          turn: z.int().check(z.positive(), z.describe("1-based user turn of the session.")),
          prompt: z.string().check(z.describe("The turn's prompt, first line.")),
          changes: z.array(
            z.object({
              path: z.string().check(z.describe("Absolute path.")),
              before: z
                .enum(["absent", "kept", "too-large"])
                .check(
                  z.describe("What the file was before the turn: absent, its content kept, or too large to keep."),
                ),
              after: z.enum(["absent", "present"]),
              by: z.string().check(z.describe("The tool that changed it.")),
            }),
          ),
        }),
      ),
    },
  },
  "mcp.updated": {
    doc: "An MCP server connected, failed, restarted or changed its tools. A global event: `taskId` is empty. Carries every server's state.",
    shape: {
      ...base,
      servers: z.array(
        z.object({
          name: z.string(),
          transport: z.enum(["stdio", "http", "sse"]),
          state: z.enum(["connecting", "ready", "restarting", "failed", "stopped"]),
          tools: z.int().check(z.nonnegative()),
          error: z.optional(z.string()),
          restarts: z.int().check(z.nonnegative(), z.describe("Connections made after the first one.")),
          logFile: z.optional(z.string()).check(z.describe("Where a stdio server's stderr goes.")),
        }),
      ),
    },
  },
  "hook.completed": {
    doc: "A PreToolUse or PostToolUse hook ran for a tool call. `outcome` blocked: the call did not run; warned: a warning was added to its result.",
    shape: {
      ...base,
      callId: z.string(),
      tool: z.string(),
      event: z.enum(["PreToolUse", "PostToolUse"]),
      command: z.string(),
      exitCode: z.int().check(z.describe("-2 when it timed out, -1 when a signal killed it.")),
      outcome: z.enum(["passed", "blocked", "warned"]),
      output: z.string().check(z.describe("stdout and stderr, trimmed (capped).")),
      durationMs: z.number().check(z.nonnegative()),
    },
  },
  "proposals.updated": {
    doc: "The skill proposals waiting for an answer changed (the background review made one, or one was accepted, edited or dropped): the whole list as it is now. A global event: `taskId` is empty.",
    shape: {
      ...base,
      proposals: z.array(
        z.object({
          id: z.string().check(z.describe("`p-xxxxxx`, as `nanohermes skills accept ID` takes it.")),
          kind: z
            .enum(["create", "patch", "edit", "archive"])
            .check(
              z.describe(
                "A new skill, a patch of an agent skill, a whole rewrite (a patch the user rewrote, a consolidation's umbrella), or an archive (a skill a consolidation folds into another).",
              ),
            ),
          name: z.string(),
          reason: z.string().check(z.describe("Why the review proposes it (one line).")),
          createdAt: z.string(),
          diff: z
            .string()
            .check(z.describe("A unified diff against the skill as it is now (a new file for a create).")),
          text: z
            .string()
            .check(
              z.describe(
                "The whole SKILL.md as accepting would leave it (what an edit starts from); at most 100,000 characters.",
              ),
            ),
        }),
      ),
      answer: z
        .optional(z.object({ id: z.string(), ok: z.boolean(), text: z.string() }))
        .check(
          z.describe(
            "When an answer (proposal.accept / reject / edit) changed the list: what it did, or why the proposal stays as it was (also sent as a notice to the answering task).",
          ),
        ),
    },
  },
  "steer.delivered": {
    doc: "A steering message reached the model at a step boundary of the running turn.",
    shape: { ...base, turnId: z.string(), text: z.string() },
  },
} as const;
