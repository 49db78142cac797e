// Telemetry in the editor adapter and the MCP server (issue 32): with NANOHERMES_TELEMETRY=1 a
// turn through `nanohermes acp` or `nanohermes mcp-server` exports the same span tree as a
// one-shot run (invoke_agent, chat, execute_tool), flushed when the client goes away, and
// --telemetry-file writes the version line and the turn's events.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, expect, it } from "vitest";
import { initialize, startAcp, until } from "../helpers/acp.js";
import { CLI, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { startOtlpReceiver, type OtlpReceiver } from "../helpers/otlp-receiver.js";

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** The mock (read notes.txt, then answer), a workspace with the notes, telemetry on to `to`. */
async function world(to: OtlpReceiver) {
  const { workspace: ws, env } = await e2eEnv(
    [toolReply([{ name: "read_file", args: { path: "notes.txt" } }]), textReply("Read it.")],
    {
      model: "mock-model",
      env: {
        NANOHERMES_TELEMETRY: "1",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${to.url}/v1/traces`,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      },
    },
  );
  writeFileSync(join(ws, "notes.txt"), "alpha\n");
  return { ws, env: env as Record<string, string> };
}

/** The turn's spans: one invoke_agent with a chat per model request and the read under it. */
function expectTurnTree() {
  const spans = receiver!.spans;
  const root = spans.find((s) => s.name === "invoke_agent nanohermes");
  expect(root, spans.map((s) => s.name).join(", ")).toBeDefined();
  const chats = spans.filter((s) => s.name === "chat mock-model");
  expect(chats).toHaveLength(2);
  for (const chat of chats) expect(chat).toMatchObject({ traceId: root!.traceId, parentSpanId: root!.spanId });
  const read = spans.find((s) => s.name === "execute_tool read_file");
  expect(read).toMatchObject({ traceId: root!.traceId, parentSpanId: root!.spanId });
}

it("nanohermes mcp-server exports a thread's turn as spans and writes the telemetry file", async () => {
  receiver = await startOtlpReceiver();
  const { ws, env } = await world(receiver);
  const file = join(tempDir(), "events.jsonl");
  const client = new Client({ name: "test-agent", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp-server", "--sandbox", "off", "--telemetry-file", file],
      env,
      stderr: "pipe",
    }),
  );
  const r = await client.callTool({ name: "nanohermes_run", arguments: { prompt: "read the notes", cwd: ws } });
  expect((r.structuredContent as { response: string }).response).toBe("Read it.");
  await client.close();
  // The server flushes as its input ends; the receiver has the spans shortly after.
  await until(() => receiver!.spans.some((s) => s.name === "invoke_agent nanohermes"), "the spans", 15_000);
  expectTurnTree();
  const lines = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string });
  expect(lines[0]).toMatchObject({ type: "observer.started", schema: "nanohermes.observer.v1" });
  expect(lines.map((l) => l.type)).toEqual(
    expect.arrayContaining(["turn.started", "tool.completed", "turn.completed"]),
  );
});

it("nanohermes acp exports a session's turn as spans", async () => {
  receiver = await startOtlpReceiver();
  const { ws, env } = await world(receiver);
  const c = startAcp(env);
  try {
    await initialize(c);
    const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
    const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "read the notes" }],
    });
    expect(stopReason).toBe("end_turn");
  } finally {
    await c.stop();
  }
  await until(() => receiver!.spans.some((s) => s.name === "invoke_agent nanohermes"), "the spans", 15_000);
  expectTurnTree();
  expect(existsSync(join(ws, "notes.txt"))).toBe(true);
});
