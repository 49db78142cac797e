// OpenTelemetry export of the built program (issue 32, "Done means"): a real OTLP/HTTP receiver
// (tests/helpers/otlp-receiver.ts) takes what the official exporter sends, in both protocols, for
// one scripted turn with two tool calls (one refused by the gate) and a subagent. The span tree,
// names, parents and GenAI attributes are checked, and the token counts against the mock's usage.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { runCli } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply, type RecordedRequest } from "../helpers/mock-openai.js";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver.js";

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const isChild = (req: RecordedRequest) =>
  String((req.messages[0] as ChatMessage).content).includes('You are the subagent "scout"');
const toolResults = (req: RecordedRequest) => req.messages.filter((m) => (m as ChatMessage).role === "tool").length;

/** The mock's usage per reply: what the spans must report. */
const USAGE = {
  tools: { prompt: 120, completion: 11 },
  delegate: { prompt: 230, completion: 22 },
  child: { prompt: 57, completion: 5 },
  final: { prompt: 340, completion: 33 },
};

/** Step 1: read a file and run a denied command; step 2: delegate; step 3: answer. The child answers at once. */
function script(req: RecordedRequest) {
  if (isChild(req)) return textReply("the notes say alpha", { usage: USAGE.child });
  const done = toolResults(req);
  if (done === 0)
    return toolReply(
      [
        { name: "read_file", args: { path: "notes.txt" } },
        { name: "run_command", args: { command: "touch denied.txt" } },
      ],
      { usage: USAGE.tools },
    );
  if (done === 2)
    return toolReply([{ name: "subagent", args: { agent: "scout", task: "read notes.txt" } }], {
      usage: USAGE.delegate,
    });
  return textReply("All done.", { usage: USAGE.final });
}

/** The mock on that script, a workspace with notes.txt, telemetry on towards the receiver. */
async function setup(receiverUrl: string, protocol: string) {
  const { workspace: ws, env } = await e2eEnv(script, {
    model: "mock-model",
    env: {
      NANOHERMES_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_SERVICE_NAME: "nh-under-test",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test,team=agents%20one",
    },
  });
  writeFileSync(join(ws, "notes.txt"), "alpha\n");
  writeFileSync(
    join(env.NANOHERMES_HOME!, "config.json"),
    JSON.stringify({
      deny: ["touch denied*"],
      subagents: { agents: { scout: { prompt: "You look around and report.", description: "reads files" } } },
    }),
  );
  return { ws, env };
}

const one = (spans: ReceivedSpan[], name: string, parent?: ReceivedSpan) => {
  const found = spans.filter((s) => s.name === name && (!parent || s.parentSpanId === parent.spanId));
  expect(
    found.map((s) => s.name),
    name,
  ).toEqual([name]);
  return found[0]!;
};

describe("OpenTelemetry export", () => {
  it.each(["http/protobuf", "http/json"])(
    "a turn with a refused call and a subagent arrives over %s as one GenAI span tree",
    async (protocol) => {
      receiver = await startOtlpReceiver();
      const { ws, env } = await setup(receiver.url, protocol);
      const r = await runCli(["-p", "look at the notes", "-C", ws, "--json"], { env });
      expect(r.stderr).toMatch(/run_command: refused: matches your deny rule/);
      const out = JSON.parse(r.stdout) as { response: string; session: string; usage: { prompt: number } };
      expect(out.response).toBe("All done.");
      expect(r.code).toBe(0);
      // Everything was flushed before the program exited.
      const spans = receiver.spans;
      expect(
        receiver.contentTypes.every((t) =>
          t.startsWith(protocol === "http/json" ? "application/json" : "application/x-protobuf"),
        ),
      ).toBe(true);
      expect(spans.length).toBe(9);
      expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);

      const root = one(spans, "invoke_agent nanohermes");
      expect(root.parentSpanId).toBe("");
      expect(root.attributes).toMatchObject({
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "nanohermes",
        "gen_ai.conversation.id": out.session,
        "nanohermes.turn.reason": "completed",
        "nanohermes.turn.steps": 3,
        "gen_ai.usage.input_tokens": out.usage.prompt,
      });
      expect(root.resource).toMatchObject({
        "service.name": "nh-under-test",
        "deployment.environment": "test",
        team: "agents one",
      });
      // No content without NANOHERMES_TELEMETRY_CONTENT=1.
      expect(
        spans.some((s) => "gen_ai.input.messages" in s.attributes || "gen_ai.tool.call.result" in s.attributes),
      ).toBe(false);

      // The parent's three model requests, with the mock's usage and finish reasons.
      const chats = spans.filter((s) => s.name === "chat mock-model" && s.parentSpanId === root.spanId);
      chats.sort((a, b) => Number(a.startNs - b.startNs));
      expect(
        chats.map((c) => [c.attributes["gen_ai.usage.input_tokens"], c.attributes["gen_ai.usage.output_tokens"]]),
      ).toEqual([
        [USAGE.tools.prompt, USAGE.tools.completion],
        [USAGE.delegate.prompt, USAGE.delegate.completion],
        [USAGE.final.prompt, USAGE.final.completion],
      ]);
      expect(chats.map((c) => c.attributes["gen_ai.response.finish_reasons"])).toEqual([
        ["tool_calls"],
        ["tool_calls"],
        ["stop"],
      ]);
      for (const chat of chats) {
        expect(chat.kind).toBe(3); // CLIENT
        expect(chat.attributes).toMatchObject({
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": "openai",
          "gen_ai.request.model": "mock-model",
          "gen_ai.response.model": "mock-model",
          "nanohermes.request.attempt": 1,
        });
      }
      expect(root.attributes["gen_ai.usage.input_tokens"]).toBe(
        USAGE.tools.prompt + USAGE.delegate.prompt + USAGE.final.prompt,
      );

      const read = one(spans, "execute_tool read_file", root);
      expect(read.attributes).toMatchObject({
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "read_file",
        "nanohermes.gate.decision": "allowed",
        "nanohermes.tool.status": "ok",
        "nanohermes.sandbox.outcome": "none",
      });
      expect(read.status.code).toBe(0);
      const refused = one(spans, "execute_tool run_command", root);
      expect(refused.attributes).toMatchObject({
        "nanohermes.gate.decision": "refused",
        "nanohermes.tool.status": "denied",
        "error.type": "denied",
      });
      expect(refused.status.code).toBe(2); // ERROR
      expect(refused.events.map((e) => [e.name, e.attributes["nanohermes.gate.cause"]])).toEqual([
        ["gate.refused", "denied"],
      ]);
      expect(String(refused.attributes["gen_ai.tool.call.id"])).toMatch(/\S/);

      // The subagent: a child invoke_agent under the call that started it, its own request under it.
      const delegate = one(spans, "execute_tool subagent", root);
      const child = one(spans, "invoke_agent scout", delegate);
      expect(child.attributes).toMatchObject({ "gen_ai.agent.id": "agent-1", "gen_ai.agent.name": "scout" });
      const childChat = one(spans, "chat mock-model", child);
      expect(childChat.attributes).toMatchObject({
        "gen_ai.usage.input_tokens": USAGE.child.prompt,
        "gen_ai.usage.output_tokens": USAGE.child.completion,
      });
      // The GenAI client metrics, exported at exit: the token histogram sums the mock's usage.
      const points = receiver.points;
      const tokenSum = (type: string) =>
        points
          .filter((p) => p.metric === "gen_ai.client.token.usage" && p.attributes["gen_ai.token.type"] === type)
          .reduce((n, p) => n + (p.sum ?? 0), 0);
      const all = Object.values(USAGE);
      expect(tokenSum("input")).toBe(all.reduce((n, u) => n + u.prompt, 0));
      expect(tokenSum("output")).toBe(all.reduce((n, u) => n + u.completion, 0));
      const durations = points.filter((p) => p.metric === "gen_ai.client.operation.duration");
      expect(durations.reduce((n, p) => n + (p.count ?? 0), 0)).toBe(4);
      expect(durations[0]).toMatchObject({
        unit: "s",
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": "openai",
          "gen_ai.request.model": "mock-model",
        },
      });
      // Every span ended inside its parent.
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      for (const s of spans) {
        const parent = byId.get(s.parentSpanId);
        if (parent) expect(s.endNs <= parent.endNs, `${s.name} ends inside ${parent.name}`).toBe(true);
      }
    },
  );
});
