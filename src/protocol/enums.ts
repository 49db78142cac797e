// Plain value lists of the protocol, kept free of zod so that modules needing only the names
// (the config schema, the flag table) do not load every event schema at start-up.
export const turnEndReasons = ["completed", "interrupted", "max_iterations", "error"] as const;
export const toolKinds = ["read", "edit", "exec", "net", "agent", "mcp"] as const;
export const toolStatuses = ["ok", "error", "denied", "aborted"] as const;
export const taskStatuses = ["idle", "running", "waiting", "failed", "done"] as const;
export const permissionModes = ["default", "accept-edits", "plan", "goal", "debug"] as const;
export const approvalPolicies = ["never", "on-request", "untrusted"] as const;
/** The kinds of NanoHermes process that may hold a session's lock (written into it). */
export const lockRoles = ["ui", "daemon", "run", "acp", "mcp-server"] as const;
/** How an approval question ended (approval.resolved); `cancelled`: the turn stopped first. */
export const approvalDecisions = ["once", "always", "deny", "cancelled"] as const;
/** Who ended it: a person at a front end, or the stop that withdrew the question. */
export const approvalAnswerers = ["user", "turn-stopped", "subagent-stopped"] as const;

export type TurnEndReason = (typeof turnEndReasons)[number];
export type ToolKind = (typeof toolKinds)[number];
export type ToolStatus = (typeof toolStatuses)[number];
export type TaskStatus = (typeof taskStatuses)[number];
export type PermissionMode = (typeof permissionModes)[number];
export type ApprovalPolicy = (typeof approvalPolicies)[number];
export type LockRole = (typeof lockRoles)[number];
