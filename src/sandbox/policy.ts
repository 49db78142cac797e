// The approval decision for one tool call: the permission mode's gates first, then the approval
// policy, then what the user already allowed "always" for this task.
import type { ApprovalPolicy, PermissionMode, ToolKind } from "../protocol/events.js";
import { isReadOnlyCommand } from "./classify.js";

export type Verdict = { decision: "allow" } | { decision: "ask"; reason: string } | { decision: "deny"; reason: string };

/** Rules the user accepted with "always" for one task. */
export interface Remembered {
  commands: Set<string>;
  allEdits: boolean;
}

export const newRemembered = (): Remembered => ({ commands: new Set(), allEdits: false });

export interface PolicyInput {
  tool: string;
  kind: ToolKind;
  args: Record<string, unknown>;
  approval: ApprovalPolicy;
  mode: PermissionMode;
  remembered: Remembered;
}

export function commandOf(args: Record<string, unknown>): string | undefined {
  return typeof args.command === "string" ? args.command : undefined;
}

export function decide(input: PolicyInput): Verdict {
  const { kind, mode, approval, remembered } = input;
  if (mode === "plan" && (kind === "edit" || kind === "exec")) return { decision: "deny", reason: "plan mode is read-only: describe the change instead of making it" };
  if (mode === "debug" && kind === "edit") return { decision: "deny", reason: "debug mode never writes files: report the fix instead" };
  if (kind === "read" || kind === "net" || kind === "agent") return { decision: "allow" };
  if (mode === "goal" || approval === "never") return { decision: "allow" };
  if (kind === "edit") {
    if (mode === "accept-edits" || remembered.allEdits) return { decision: "allow" };
    return { decision: "ask", reason: `${approval} policy: file changes need approval` };
  }
  const command = commandOf(input.args);
  if (command !== undefined && remembered.commands.has(command)) return { decision: "allow" };
  if (approval === "on-request" && command !== undefined && isReadOnlyCommand(command)) return { decision: "allow" };
  return {
    decision: "ask",
    reason: approval === "untrusted" ? "untrusted policy: every command needs approval" : "on-request policy: not a recognised read-only command",
  };
}
