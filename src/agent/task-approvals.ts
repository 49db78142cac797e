// Approvals of one task: the policy's verdict for a call, the card the user answers (a
// subagent's labelled with who asks), and "always" answers remembered for the task or workspace.
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import type { CommandOf } from "../protocol/commands.js";
import { randomId } from "../protocol/ids.js";
import type { ApprovalPolicy, BusEvent, PermissionMode, TaskStatus } from "../protocol/events.js";
import { trustedCommandArgv } from "../sandbox/classify.js";
import {
  alwaysRuleFor,
  applyAlways,
  commandOf,
  decide,
  describeAlways,
  type AlwaysRule,
  type Remembered,
} from "../sandbox/policy.js";
import { savePermission } from "../session/permissions.js";
import type { AnyTool } from "../tools/define.js";
import type { Asker } from "../tools/registry.js";
import { approvalRequest } from "./approvals.js";

export interface PendingApproval {
  requestId: string;
  /** Set when a subagent asks: stopping that child answers its question as denied. */
  agentId?: string;
  resolve(decision: { allow: true } | { allow: false; reason: string }): void;
  remember(scope: "task" | "workspace"): void;
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

export interface ApprovalContext {
  settings: Settings;
  /** Whether anybody can answer; elsewhere a call that needs approval is refused. */
  interactive: boolean;
  emit(event: BusEvent): void;
  /** The task's snapshot changed (status, pending count). */
  changed(): void;
}

/** `asked`: the user was asked (the time until the answer is not the tool's). */
export type Decision =
  | { allow: true; args?: Record<string, unknown>; asked?: boolean }
  | { allow: false; reason: string; asked?: boolean };

/**
 * Contract: resolves once the call may run (possibly with rewritten args) or is refused; a call
 * that needs approval resolves when the user answers or the turn stops (tasks.ts resolves them).
 */
export async function authorizeCall(
  ctx: ApprovalContext,
  task: ApprovalTask,
  tool: AnyTool,
  args: Record<string, unknown>,
  callId: string,
  who?: Asker,
): Promise<Decision> {
  const { yolo, deny } = ctx.settings;
  const verdict = decide({
    tool: tool.name,
    kind: tool.kind,
    args,
    approval: task.approval,
    mode: task.mode,
    remembered: task.remembered,
    yolo,
    deny,
    ...(tool.mcp ? { mcp: tool.mcp } : {}),
  });
  const command = commandOf(args);
  if (verdict.decision === "allow") {
    // A command trusted as read-only runs as recognised (git with the repository's own programs
    // neutralised), never as typed.
    const argv =
      verdict.readOnly && tool.name === "run_command" && command !== undefined ? trustedCommandArgv(command) : null;
    return argv ? { allow: true, args: { ...args, command: argv.map(shellQuote).join(" ") } } : { allow: true };
  }
  // The reason names the rule and the part already where a rule decided; a policy verdict names the part here.
  const why =
    verdict.part && !verdict.reason.includes(verdict.part)
      ? `${verdict.reason} (the part: ${verdict.part})`
      : verdict.reason;
  if (verdict.decision === "deny") return { allow: false, reason: why };
  if (!ctx.interactive)
    return { allow: false, reason: `this call needs approval (${why}) and nobody can answer here; it was not run` };
  const dangerous = verdict.danger === "dangerous";
  // A dangerous command's card gives the rule's own words; the rule name and the matched part are shown apart.
  const request = await approvalRequest(
    tool,
    args,
    dangerous && verdict.plain ? verdict.plain : why,
    ctx.settings.workspace,
  );
  // A subagent's question is the parent task's, labelled with who asks.
  if (who) request.title = `[${who.agentId} ${who.name}] ${request.title}`;
  const always = alwaysRuleFor(tool.kind, command, tool.name, dangerous);
  const requestId = randomId(12);
  who?.waiting(true);
  return new Promise((resolve) => {
    task.approvals.set(requestId, {
      requestId,
      ...(who ? { agentId: who.agentId } : {}),
      resolve: (decision) => {
        who?.waiting(false);
        resolve({ ...decision, asked: true });
      },
      remember: (asked) => {
        // Consent to a dangerous command is never kept beyond this task, whatever a client sends.
        const scope = dangerous ? "task" : asked;
        const rule = applyAlways(task.remembered, always);
        if (scope === "workspace") void persistRule(ctx.settings, always);
        ctx.emit({
          type: "notice",
          taskId: task.id,
          level: "info",
          text: `allowed from now on${scope === "workspace" ? " in this workspace" : " in this task"}: ${rule}`,
        });
      },
    });
    task.status = "waiting";
    ctx.emit({
      type: "approval.requested",
      taskId: task.id,
      ...(who ? { agentId: who.agentId } : {}),
      requestId,
      callId,
      tool: tool.name,
      kind: tool.kind,
      ...request,
      ...(verdict.rule ? { rule: verdict.rule } : {}),
      ...(dangerous ? { dangerous: true } : {}),
      ...((verdict.part ?? (dangerous ? command : undefined)) ? { match: verdict.part ?? command } : {}),
      always: describeAlways(always),
      alwaysWorkspace: !dangerous,
    });
    ctx.changed();
  });
}

/**
 * The user's answer to a waiting question, in whichever task it waits: the call runs ("always"
 * remembers its rule first) or is refused with their note. Returns the task, or null when none waits for it.
 */
export function replyToApproval<T extends ApprovalTask>(
  tasks: Iterable<T>,
  reply: CommandOf<"approval.reply">,
  emit: (event: BusEvent) => void,
): T | null {
  for (const task of tasks) {
    const pending = task.approvals.get(reply.requestId);
    if (!pending) continue;
    answerApproval(pending, reply);
    task.approvals.delete(reply.requestId);
    emit({ type: "approval.resolved", taskId: task.id, requestId: reply.requestId, decision: reply.decision });
    if (task.status === "waiting" && task.approvals.size === 0) task.status = "running";
    return task;
  }
  return null;
}

function answerApproval(pending: PendingApproval, reply: CommandOf<"approval.reply">): void {
  if (reply.decision === "deny") {
    pending.resolve({
      allow: false,
      reason: reply.note ? `the user denied this call: ${reply.note}` : "the user denied this call",
    });
    return;
  }
  if (reply.decision === "always") pending.remember(reply.scope ?? "task");
  pending.resolve({ allow: true });
}

/** The turn was stopped: every question of the task is answered as refused, and reported cancelled. */
export function cancelApprovals(task: ApprovalTask, emit: (event: BusEvent) => void): void {
  for (const [requestId, pending] of task.approvals) {
    pending.resolve({ allow: false, reason: "the turn was stopped before the user answered" });
    emit({ type: "approval.resolved", taskId: task.id, requestId, decision: "cancelled" });
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
    pending.resolve({ allow: false, reason: `${pending.agentId} was stopped before the user answered` });
    emit({ type: "approval.resolved", taskId: task.id, requestId, decision: "deny" });
    answered++;
  }
  if (answered > 0 && task.status === "waiting" && task.approvals.size === 0) task.status = "running";
  return answered;
}

/** Rules answered "always for this workspace" are kept in ~/.nanohermes/permissions.json. */
async function persistRule(settings: Settings, always: AlwaysRule): Promise<void> {
  try {
    const rule =
      always.kind === "tool"
        ? { tool: always.tool }
        : always.kind === "edits"
          ? { edits: true }
          : { command: always.kind === "prefix" ? always.prefix : always.command };
    await savePermission(settings.home, settings.workspace, rule);
  } catch (error) {
    log("warn", "saving a permission", error);
  }
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

/** One argument for bash, quoted only when it needs it. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}
