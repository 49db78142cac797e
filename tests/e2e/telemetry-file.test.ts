// --telemetry-file and the failure paths of telemetry (issue 32, items 1, 2 and 4), in the built
// program: the file holds exactly the --stream-json lines, version line first, with the observer
// events a scripted turn makes (a refused call, a subagent); unusable settings are refused before
// the turn; a collector that is down or hangs costs the turn nothing.
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BusEventSchema } from "../../src/protocol/events.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply, type RecordedRequest } from "../helpers/mock-openai.js";

let collector: Server | undefined;
afterEach(async () => {
  collector?.closeAllConnections();
  await new Promise<void>((r) => (collector ? collector.close(() => r()) : r()));
  collector = undefined;
});

type Event = { type: string; [key: string]: unknown };
const isChild = (req: RecordedRequest) =>
  String((req.messages[0] as ChatMessage).content).includes('You are the subagent "scout"');
const results = (req: RecordedRequest) => req.messages.filter((m) => (m as ChatMessage).role === "tool").length;

/** The environment with a deny rule and a subagent in its home's config. */
function withConfig(e: Record<string, string | undefined>) {
  writeFileSync(
    join(e.NANOHERMES_HOME!, "config.json"),
    JSON.stringify({
      deny: ["touch denied*"],
      subagents: { agents: { scout: { prompt: "You look around and report." } } },
    }),
  );
  return e;
}

describe("--telemetry-file", () => {
  it("writes the --stream-json events, version line first, with the observer events of a refused call and a subagent", async () => {
    const outside = join(tempDir(), "outside.txt");
    const { envWith } = await e2eEnv(
      (req) => {
        if (isChild(req)) return textReply("child answer");
        if (results(req) === 0)
          return toolReply([
            { name: "run_command", args: { command: "touch denied.txt" } },
            { name: "subagent", args: { agent: "scout", task: "look" } },
            { name: "write_file", args: { path: outside, content: "x" } },
          ]);
        return textReply("done");
      },
      { model: "mock-model" },
    );
    const ws = tempDir();
    const file = join(tempDir(), "events.jsonl");
    const r = await runCli(["-p", "go", "-C", ws, "--stream-json", "--telemetry-file", file], {
      env: withConfig(envWith()),
    });
    expect(r.code).toBe(0);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toEqual(r.stdout.trimEnd().split("\n"));
    const events = lines.map((l) => JSON.parse(l) as Event);
    for (const e of events) expect(BusEventSchema.safeParse(e).success, JSON.stringify(e)).toBe(true);
    expect(events[0]).toMatchObject({ type: "observer.started", schema: "nanohermes.observer.v1" });
    expect(events.filter((e) => e.type === "observer.started")).toHaveLength(1);

    const refused = events.find((e) => e.type === "gate.refused")!;
    expect(refused).toMatchObject({ tool: "run_command", kind: "exec", cause: "denied" });
    const refusedDone = events.find((e) => e.type === "tool.completed" && e.callId === refused.callId)!;
    expect(refusedDone).toMatchObject({ status: "denied", gate: "refused" });

    // The write boundary's refusal: an event of its own and the call's outcome.
    const boundary = events.find((e) => e.type === "sandbox.refused")!;
    expect(boundary).toMatchObject({ tool: "write_file", cause: "outside-workspace" });
    expect(events.find((e) => e.type === "tool.completed" && e.callId === boundary.callId)).toMatchObject({
      status: "error",
      sandbox: "refused",
      gate: "allowed",
    });
    const delegate = events.find((e) => e.type === "tool.started" && e.name === "subagent")!;
    const childEvents = events.filter((e) => e.agentId === "agent-1");
    expect(childEvents.map((e) => e.type)).toEqual(
      expect.arrayContaining(["turn.started", "model.requested", "model.responded", "turn.completed"]),
    );
    for (const e of childEvents)
      expect(e, e.type).toMatchObject({ parentTaskId: "main", parentCallId: delegate.callId });
    // The child's last event comes before the call that started it ends.
    const end = events.findIndex((e) => e.type === "tool.completed" && e.callId === delegate.callId);
    expect(events.findLastIndex((e) => e.agentId === "agent-1" && e.type !== "subagent.updated")).toBeLessThan(end);
    // Parent events carry no parent.
    expect(events.filter((e) => !e.agentId && "parentCallId" in e)).toEqual([]);
  });

  it("refuses a file it cannot open before the turn, in one line", async () => {
    const { mock, envWith } = await e2eEnv([textReply("never")], { model: "mock-model" });
    const r = await runCli(
      ["-p", "go", "-C", tempDir(), "--telemetry-file", join(tempDir(), "no", "such", "f.jsonl")],
      {
        env: withConfig(envWith()),
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^nanohermes: --telemetry-file \S+f\.jsonl: ENOENT/);
    expect(mock.requests).toHaveLength(0);
  });
});

describe("OpenTelemetry settings and collectors", () => {
  it("refuses gRPC and malformed headers before the turn, naming the variable", async () => {
    const { mock, envWith } = await e2eEnv([textReply("never")], { model: "mock-model" });
    const grpc = await runCli(["-p", "go", "-C", tempDir()], {
      env: withConfig(envWith({ NANOHERMES_TELEMETRY: "1", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })),
    });
    expect(grpc.code).toBe(2);
    expect(grpc.stderr).toMatch(
      /OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported; use http\/protobuf or http\/json/,
    );
    const headers = await runCli(["-p", "go", "-C", tempDir()], {
      env: withConfig(envWith({ NANOHERMES_TELEMETRY: "1", OTEL_EXPORTER_OTLP_HEADERS: "api-key" })),
    });
    expect(headers.code).toBe(2);
    expect(headers.stderr).toMatch(/OTEL_EXPORTER_OTLP_HEADERS: "api-key" is not KEY=VALUE/);
    expect(mock.requests).toHaveLength(0);
    // Off (the default, or =0), the same variables are not read at all.
    const off = await runCli(["-p", "go", "-C", tempDir()], {
      env: withConfig(envWith({ NANOHERMES_TELEMETRY: "0", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })),
    });
    expect(off.stdout).toBe("never\n");
  });

  it("a collector that is down or hangs costs the turn nothing: same answer, exit 0, no noise", async () => {
    // A collector that takes the request and never answers.
    const pending: IncomingMessage[] = [];
    collector = createServer((req) => pending.push(req));
    await new Promise<void>((r) => collector!.listen(0, "127.0.0.1", r));
    const hanging = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
    for (const endpoint of [hanging, "http://127.0.0.1:9"]) {
      const { envWith, dispose } = await e2eEnv(
        [toolReply([{ name: "list_dir", args: { path: "." } }]), textReply("listed")],
        { model: "mock-model" },
      );
      const r = await runCli(["-p", "go", "-C", tempDir()], {
        env: withConfig(envWith({ NANOHERMES_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })),
      });
      expect(r).toMatchObject({ code: 0, stdout: "listed\n", stderr: "" });
      await dispose();
    }
    // The hanging collector was sent the spans, and the program exited without its answer.
    expect(pending.map((req) => req.url)).toContain("/v1/traces");
  });
});
