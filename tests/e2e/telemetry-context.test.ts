// Trace context across boundaries (issue 32, item 3), in the built program with telemetry on: a
// caller's traceparent (the daemon's turn request, TRACEPARENT for a one-shot run) is the parent
// of the turn's invoke_agent span, and an MCP tools/call carries its execute_tool span in _meta.
// The SSE streams open with the observer contract's version line.
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { openEvents, startDaemonProcess, type RunningDaemonProcess } from "../helpers/daemon.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { keys } from "../helpers/pty.js";
import { ownTmp } from "../helpers/mcp.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { startOtlpReceiver, type OtlpReceiver } from "../helpers/otlp-receiver.js";

let receiver: OtlpReceiver | undefined;
let daemon: RunningDaemonProcess | undefined;
afterEach(async () => {
  await daemon?.stop("SIGKILL");
  await receiver?.close();
  daemon = undefined;
  receiver = undefined;
});

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

it("a one-shot run continues TRACEPARENT, and an MCP call carries its own span in _meta", async () => {
  receiver = await startOtlpReceiver();
  const { mock, run } = await e2eEnv([toolReply([{ name: "mcp__meta__show_meta", args: {} }]), textReply("Seen.")], {
    model: "mock-model",
    env: {
      NANOHERMES_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      TRACEPARENT: `00-${TRACE}-${PARENT}-01`,
      ...ownTmp(),
    },
  });
  const ws = tempDir();
  const mcp = join(tempDir(), "mcp.json");
  const fixture = resolve(import.meta.dirname, "../fixtures/mcp/meta-echo.mjs");
  writeFileSync(mcp, JSON.stringify({ mcpServers: { meta: { command: process.execPath, args: [fixture] } } }));
  const r = await run(["-p", "show the meta", "-C", ws, "--mcp", mcp], { timeoutMs: 45_000 });
  expect(r.stderr).toBe("");
  expect(r.stdout).toBe("Seen.\n");
  const root = receiver.spans.find((s) => s.name === "invoke_agent nanohermes")!;
  expect(root).toMatchObject({ traceId: TRACE, parentSpanId: PARENT });
  const call = receiver.spans.find((s) => s.name === "execute_tool mcp__meta__show_meta")!;
  expect(call).toMatchObject({ traceId: TRACE, parentSpanId: root.spanId });
  // What the MCP server received with the call: the call's own span, sampled.
  const toolResult = mock.requests[1]!.messages.find((m) => (m as { role: string }).role === "tool") as {
    content: string;
  };
  const meta = JSON.parse(toolResult.content) as { traceparent?: string };
  expect(meta.traceparent).toBe(`00-${TRACE}-${call.spanId}-01`);
});

it("the daemon's SSE streams open with the version line, and a turn request's traceparent continues the trace", async () => {
  receiver = await startOtlpReceiver();
  const { mock } = await e2eEnv([textReply("first"), textReply("second")]);
  daemon = await startDaemonProcess({
    modelUrl: mock.url,
    env: {
      NANOHERMES_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    },
  });
  const stream = await openEvents(daemon.url, "/v1/sessions/s1/turns", {
    body: JSON.stringify({ prompt: "hello" }),
    headers: { traceparent: `00-${TRACE}-${PARENT}-01` },
  });
  await stream.ended;
  // The first message names the schema and carries no id (Last-Event-ID stays a bus event's).
  const first = stream.messages[0]!;
  expect(first.event).toBe("observer.started");
  expect(first.id).toBeUndefined();
  expect(JSON.parse(first.data)).toMatchObject({
    schema: "nanohermes.observer.v1",
    program: "nanohermes",
    taskId: "s1",
  });
  expect(stream.events.find((e) => e.type === "turn.completed")).toMatchObject({ response: "first" });
  // A malformed traceparent is ignored (W3C): that turn starts a trace of its own.
  const second = await openEvents(daemon.url, "/v1/sessions/s1/turns", {
    body: JSON.stringify({ prompt: "again" }),
    headers: { traceparent: "00-not-a-trace-01" },
  });
  await second.ended;
  // SIGTERM: the daemon saves, stops and flushes its spans before it exits.
  expect(await daemon.stop("SIGTERM")).toBe(0);
  const turns = receiver.spans.filter((s) => s.name === "invoke_agent nanohermes");
  expect(turns).toHaveLength(2);
  expect(turns[0]).toMatchObject({ traceId: TRACE, parentSpanId: PARENT });
  expect(turns[0]!.attributes["gen_ai.conversation.id"]).toEqual(expect.any(String));
  expect(turns[1]!.traceId).not.toBe(TRACE);
  expect(turns[1]!.parentSpanId).toBe("");
});

it("the terminal UI exports its turns when telemetry is on, and flushes them as it exits", async () => {
  receiver = await startOtlpReceiver();
  const { pty } = await e2eEnv(() => textReply("Hello from the model."), {
    model: "mock-model",
    env: { NANOHERMES_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
  });
  const app = pty({ cols: 100, rows: 30 });
  await app.waitFor("Ask anything", 20_000);
  app.type("hi\r");
  await app.waitFor("Hello from the model.", 20_000);
  await new Promise((r) => setTimeout(r, 100));
  app.type(keys.ctrl("d"));
  expect(await app.exit()).toBe(0);
  const root = receiver.spans.find((s) => s.name === "invoke_agent nanohermes");
  expect(root?.parentSpanId).toBe("");
  expect(receiver.spans.filter((s) => s.name === "chat mock-model" && s.parentSpanId === root?.spanId)).toHaveLength(1);
});
