// Approvals of one task as the task manager asks them: the Asker it gives the engine's gate (a
// card on the bus, answered by request id from whichever front end replies), and the remembered
// "always" rules as /permissions lists them.
import type { CommandOf } from "../protocol/commands.js";
import { randomId } from "../protocol/ids.js";
import type { ApprovalPolicy, BusEvent, PermissionMode, TaskStatus } from "../protocol/events.js";
import type { Remembered } from "../sandbox/policy.js";
import type { Answer, Asker } from "./gate.js";

export interface PendingApproval {
  requestId: string;
  /** Set when a subagent asks: stopping that child answers its question as denied. */
  agentId?: string;
  /** The call that asks, and when (performance.now()): approval.resolved reports both. */
  callId?: string;
  askedAt?: number;
  resolve(answer: Answer): void;
}

/** approval.resolved's account of who answered and after how long. */
function answeredBy(pending: PendingApproval, by: "user" | "turn-stopped" | "subagent-stopped") {
  return {
    ...(pending.agentId ? { agentId: pending.agentId } : {}),
    ...(pending.callId ? { callId: pending.callId } : {}),
    by,
    ...(pending.askedAt !== undefined ? { waitedMs: Math.round(performance.now() - pending.askedAt) } : {}),
  };
}

/** What of a task the approval flow reads and changes. */
export interface ApprovalTask {
  id: string;
  approval: ApprovalPolicy;
  mode: PermissionMode;
  remembered: Remembered;
  approvals: Map<string, PendingApproval>;
  status: TaskStatus;
}

export interface AskerContext {
  /** Whether anybody can answer now; elsewhere the gate refuses a call that needs approval. */
  present(): boolean;
  emit(event: BusEvent): void;
  /** The task's snapshot changed (status, pending count). */
  changed(): void;
}

/**
 * The task's asker: a question becomes a waiting approval and an approval.requested event, and
 * resolves when a front end replies (replyToApproval) or the turn stops (cancelApprovals).
 */
export function taskAsker(ctx: AskerContext, task: ApprovalTask): Asker {
  return {
    present: () => ctx.present(),
    ask: (question) =>
      new Promise<Answer>((resolve) => {
        const requestId = randomId(12);
        task.approvals.set(requestId, {
          requestId,
          ...(question.agentId ? { agentId: question.agentId } : {}),
          callId: question.callId,
          askedAt: performance.now(),
          resolve,
        });
        task.status = "waiting";
        ctx.emit({ type: "approval.requested", taskId: task.id, requestId, ...question });
        ctx.changed();
      }),
  };
}

/**
 * The user's answer to a waiting question, in whichever task it waits: the call runs ("always"
 * remembers its rule first) or is refused with their note. Returns the task (and the subagent that
 * asked, if one did), or null when none waits for it.
 */
export function replyToApproval<T extends ApprovalTask>(
  tasks: Iterable<T>,
  reply: CommandOf<"approval.reply">,
  emit: (event: BusEvent) => void,
): { task: T; agentId?: string } | null {
  for (const task of tasks) {
    const pending = task.approvals.get(reply.requestId);
    if (!pending) continue;
    answerApproval(pending, reply);
    task.approvals.delete(reply.requestId);
    emit({
      type: "approval.resolved",
      taskId: task.id,
      requestId: reply.requestId,
      decision: reply.decision,
      ...answeredBy(pending, "user"),
    });
    if (task.status === "waiting" && task.approvals.size === 0) task.status = "running";
    return { task, ...(pending.agentId ? { agentId: pending.agentId } : {}) };
  }
  return null;
}

function answerApproval(pending: PendingApproval, reply: CommandOf<"approval.reply">): void {
  if (reply.decision === "deny")
    pending.resolve({
      decision: "deny",
      reason: reply.note
        ? `the user denied this call: ${reply.note}`
        : reply.stop
          ? "the user denied this call and stopped the turn to say what to do instead"
          : "the user denied this call",
    });
  else if (reply.decision === "always") pending.resolve({ decision: "always", scope: reply.scope ?? "task" });
  else pending.resolve({ decision: "once" });
}

/** The turn was stopped: every question of the task is answered as refused, and reported cancelled. */
export function cancelApprovals(task: ApprovalTask, emit: (event: BusEvent) => void): void {
  for (const [requestId, pending] of task.approvals) {
    pending.resolve({ decision: "deny", reason: "the turn was stopped before the user answered" });
    emit({
      type: "approval.resolved",
      taskId: task.id,
      requestId,
      decision: "cancelled",
      ...answeredBy(pending, "turn-stopped"),
    });
  }
  task.approvals.clear();
}

/**
 * Answers the questions of one stopped child (or of every child) as denied; the parent's own stay.
 * Returns how many were answered.
 */
export function denyChildApprovals(
  task: ApprovalTask,
  agentId: string | undefined,
  emit: (event: BusEvent) => void,
): number {
  let answered = 0;
  for (const [requestId, pending] of task.approvals) {
    if (pending.agentId === undefined || (agentId !== undefined && pending.agentId !== agentId)) continue;
    task.approvals.delete(requestId);
    pending.resolve({ decision: "deny", reason: `${pending.agentId} was stopped before the user answered` });
    emit({
      type: "approval.resolved",
      taskId: task.id,
      requestId,
      decision: "deny",
      ...answeredBy(pending, "subagent-stopped"),
    });
    answered++;
  }
  if (answered > 0 && task.status === "waiting" && task.approvals.size === 0) task.status = "running";
  return answered;
}

/** A task's remembered rules, as /permissions lists them. */
export function rulesOf(remembered: Remembered): string[] {
  return [
    ...(remembered.allEdits ? ["edits: all file edits"] : []),
    ...[...remembered.prefixes].map((p) => `prefix: ${p}`),
    ...[...remembered.commands].map((c) => `command: ${c}`),
    ...[...remembered.tools].map((t) => `tool: ${t}`),
  ];
}

/** Forgets one rule as rulesOf() wrote it. */
export function forgetRule(remembered: Remembered, rule: string): void {
  const [kind, ...rest] = rule.split(": ");
  const value = rest.join(": ");
  if (kind === "edits") remembered.allEdits = false;
  else if (kind === "prefix") remembered.prefixes.delete(value);
  else if (kind === "command") remembered.commands.delete(value);
  else if (kind === "tool") remembered.tools.delete(value);
}
