// The gate's question as an ACP `session/request_permission`, and the client's answer as the
// approval.reply the task manager awaits. The gate decided that the call needs asking; the client
// only answers it (a blocked or denied call is never asked about, whatever a client would answer).
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type { CommandOf } from "../protocol/commands.js";
import type { EventOf } from "../protocol/events.js";
import { acpKind } from "./updates.js";

type Question = EventOf<"approval.requested">;
type Reply = Omit<CommandOf<"approval.reply">, "type" | "taskId" | "requestId">;

/** The option ids we offer; what each means is in `replyFor`. */
const ONCE = "allow-once";
const ALWAYS_TASK = "allow-always-session";
const ALWAYS_WORKSPACE = "allow-always-workspace";
const REJECT = "reject-once";
const REJECT_ALWAYS = "reject-always-session";

/** The options the question offers: "always" only where the gate says what it would allow. */
export function permissionOptions(q: Question): PermissionOption[] {
  const options: PermissionOption[] = [{ optionId: ONCE, name: "Allow once", kind: "allow_once" }];
  if (q.always) {
    options.push({ optionId: ALWAYS_TASK, name: `Always allow in this session: ${q.always}`, kind: "allow_always" });
    if (q.alwaysWorkspace)
      options.push({
        optionId: ALWAYS_WORKSPACE,
        name: `Always allow in this workspace: ${q.always}`,
        kind: "allow_always",
      });
  }
  options.push({ optionId: REJECT, name: "Reject", kind: "reject_once" });
  options.push({
    optionId: REJECT_ALWAYS,
    name: q.always ? `Reject, and never ask in this session: ${q.always}` : "Reject, and never ask this again",
    kind: "reject_always",
  });
  return options;
}

export function permissionRequest(sessionId: string, q: Question): RequestPermissionRequest {
  return {
    sessionId,
    toolCall: {
      toolCallId: q.callId,
      title: q.title,
      kind: acpKind(q.tool, q.kind),
      status: "pending",
      content: [{ type: "content", content: { type: "text", text: `${q.reason}\n\n${q.detail}` } }],
    },
    options: permissionOptions(q),
  };
}

/**
 * What "reject always" remembers: the same tool asked about the same thing (in the words the
 * "always" rule would use, else the exact detail). It never allows anything.
 */
export const rejectKey = (q: Question): string => `${q.tool}\u0000${q.always ?? q.detail}`;

/** The client's answer as the reply the gate awaits; a cancelled or unknown answer is a denial. */
export function replyFor(response: RequestPermissionResponse): Reply & { rejectAlways?: true } {
  const outcome = response.outcome;
  if (outcome.outcome !== "selected") return { decision: "deny", note: "the client cancelled the question" };
  switch (outcome.optionId) {
    case ONCE:
      return { decision: "once" };
    case ALWAYS_TASK:
      return { decision: "always", scope: "task" };
    case ALWAYS_WORKSPACE:
      return { decision: "always", scope: "workspace" };
    case REJECT_ALWAYS:
      return { decision: "deny", rejectAlways: true };
    default:
      return { decision: "deny" };
  }
}
