// The gate's question as session/request_permission and the client's answer as approval.reply
// (src/acp/permission.ts): the options offered and what each choice means.
import { describe, expect, it } from "vitest";
import { permissionOptions, permissionRequest, rejectKey, replyFor } from "../../src/acp/permission.js";
import type { EventOf } from "../../src/protocol/events.js";

const question = (over: Partial<EventOf<"approval.requested">> = {}): EventOf<"approval.requested"> => ({
  type: "approval.requested",
  taskId: "s",
  requestId: "r1",
  callId: "c1",
  tool: "run_command",
  kind: "exec",
  title: "npm test",
  detail: "npm test",
  reason: "on-request policy",
  always: 'commands starting with "npm test"',
  alwaysWorkspace: true,
  ...over,
});

describe("permissionOptions", () => {
  it("offers the four v1 kinds; always for the workspace only where the gate offers it", () => {
    expect(permissionOptions(question()).map((o) => o.kind)).toEqual([
      "allow_once",
      "allow_always",
      "allow_always",
      "reject_once",
      "reject_always",
    ]);
    expect(permissionOptions(question({ alwaysWorkspace: false })).map((o) => o.kind)).toEqual([
      "allow_once",
      "allow_always",
      "reject_once",
      "reject_always",
    ]);
    const { always: _always, ...noAlways } = question();
    expect(permissionOptions(noAlways).map((o) => o.kind)).toEqual(["allow_once", "reject_once", "reject_always"]);
  });

  it("names the tool call with its ACP kind and says why it asks", () => {
    expect(permissionRequest("s", question())).toMatchObject({
      sessionId: "s",
      toolCall: {
        toolCallId: "c1",
        kind: "execute",
        status: "pending",
        content: [{ type: "content", content: { text: "on-request policy\n\nnpm test" } }],
      },
    });
  });
});

describe("replyFor", () => {
  const options = permissionOptions(question());
  const id = (i: number) => options[i]!.optionId;
  it.each([
    [0, { decision: "once" }],
    [1, { decision: "always", scope: "task" }],
    [2, { decision: "always", scope: "workspace" }],
    [3, { decision: "deny" }],
    [4, { decision: "deny", rejectAlways: true }],
  ])("option %i -> %j", (i, reply) => {
    expect(replyFor({ outcome: { outcome: "selected", optionId: id(i) } })).toEqual(reply);
  });

  it("takes a cancelled question or an option it never offered as a denial", () => {
    expect(replyFor({ outcome: { outcome: "cancelled" } })).toMatchObject({ decision: "deny" });
    expect(replyFor({ outcome: { outcome: "selected", optionId: "made-up" } })).toEqual({ decision: "deny" });
  });

  it("remembers a rejection by tool and what always would cover", () => {
    expect(rejectKey(question())).toBe(rejectKey(question({ requestId: "r2", callId: "c9" })));
    expect(rejectKey(question())).not.toBe(rejectKey(question({ always: 'commands starting with "rm"' })));
  });
});
