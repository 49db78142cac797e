// The built program in one-shot mode against the mock model: tool round trips, streaming and
// whole replies, output modes, and the loop's handling of bad model output.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BusEventSchema } from "../../src/protocol/events.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";

/** The key is a secret the output must never show. */
const withSecretKey = { model: "mock-model", key: "sk-test-secret-value-123" };

type Msg = { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string };
const messagesOf = (s: MockServer, i: number) => s.requests[i]!.messages as Msg[];
const toolMessages = (s: MockServer, i: number) => messagesOf(s, i).filter((m) => m.role === "tool");

describe("one-shot turns", () => {
  for (const stream of [true, false]) {
    it(`reads a file through a tool round trip (${stream ? "streaming" : "non-streaming"})`, async () => {
      const ws = tempDir();
      writeFileSync(join(ws, "notes.txt"), "alpha\nbeta\n");
      const { mock, run } = await e2eEnv(
        [toolReply([{ name: "read_file", args: { path: "notes.txt" } }]), textReply("The file has two lines.")],
        withSecretKey,
      );
      const args = ["-p", "what is in notes.txt?", "-C", ws, ...(stream ? [] : ["--no-stream"])];
      const r = await run(args);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("The file has two lines.\n");
      expect(mock.requests).toHaveLength(2);
      expect(mock.requests[0]!.stream).toBe(stream);
      const tools = toolMessages(mock, 1);
      expect(tools).toHaveLength(1);
      expect(tools[0]!.content).toBe("     1\talpha\n     2\tbeta");
      expect(mock.requests[0]!.body.tools).toBeInstanceOf(Array);
    });
  }

  it("reads a file, patches it with apply_patch, runs a command and answers; --stream-json validates", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "greet.sh"), "#!/bin/sh\necho hello\n");
    const patch =
      "*** Begin Patch\n*** Update File: greet.sh\n@@\n #!/bin/sh\n-echo hello\n+echo goodbye\n*** End Patch\n";
    const { mock, run } = await e2eEnv(
      [
        toolReply([{ name: "read_file", args: { path: "greet.sh" } }]),
        toolReply([{ name: "apply_patch", args: { patch } }]),
        toolReply([{ name: "run_command", args: { command: "sh greet.sh" } }]),
        textReply("It now says goodbye."),
      ],
      withSecretKey,
    );
    const r = await run(["-p", "make it say goodbye", "-C", ws, "--stream-json"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(ws, "greet.sh"), "utf8")).toBe("#!/bin/sh\necho goodbye\n");
    const events = r.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    for (const event of events) expect(BusEventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
    const types = events.map((e) => (e as { type: string }).type);
    // The observer contract's version comes first (issue 32), then the session.
    expect(events[0]).toMatchObject({ type: "observer.started", schema: "nanohermes.observer.v1", taskId: "main" });
    expect(types[1]).toBe("session.started");
    expect(types.at(-1)).toBe("turn.completed");
    expect(types.filter((t) => t === "tool.completed")).toHaveLength(3);
    // Each of the four model requests is a requested/responded pair with its own request id.
    const requested = events.filter((e) => (e as { type: string }).type === "model.requested") as {
      requestId: string;
      attempt: number;
    }[];
    expect(requested.map((e) => e.attempt)).toEqual([1, 1, 1, 1]);
    expect(new Set(requested.map((e) => e.requestId)).size).toBe(4);
    const responded = events.filter((e) => (e as { type: string }).type === "model.responded") as {
      requestId: string;
      usage?: { prompt: number };
    }[];
    expect(responded.map((e) => e.requestId)).toEqual(requested.map((e) => e.requestId));
    expect(responded.every((e) => (e.usage?.prompt ?? 0) > 0)).toBe(true);
    // The gate's decision is on every call: these three needed no question.
    const completed = events.filter((e) => (e as { type: string }).type === "tool.completed") as { gate?: string }[];
    expect(completed.map((e) => e.gate)).toEqual(["allowed", "allowed", "allowed"]);
    const last = events.at(-1) as { reason: string; response: string; steps: number };
    expect(last).toMatchObject({ reason: "completed", response: "It now says goodbye.", steps: 4 });
    const commandResult = toolMessages(mock, 3).at(-1)!.content as string;
    expect(commandResult).toContain("exit code 0");
    expect(commandResult).toContain("goodbye");
  });

  it("prints one JSON object with --json", async () => {
    const ws = tempDir();
    const { run } = await e2eEnv([textReply("hi there", { usage: { prompt: 11, completion: 3 } })], withSecretKey);
    const r = await run(["-p", "hello", "-C", ws, "--json"]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(body).toMatchObject({
      response: "hi there",
      reason: "completed",
      steps: 1,
      usage: { prompt: 11, completion: 3, total: 14 },
      model: "mock-model",
    });
    expect(typeof body.session).toBe("string");
    const saved = JSON.parse(readFileSync(body.sessionFile as string, "utf8")) as { messages: Msg[] };
    expect(saved.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
  });

  it("takes the prompt from stdin", async () => {
    const ws = tempDir();
    const { mock, run } = await e2eEnv([textReply("from stdin")], withSecretKey);
    const r = await run(["-C", ws], { input: "summarise this\n" });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("from stdin\n");
    expect(messagesOf(mock, 0).at(-1)).toMatchObject({ role: "user", content: "summarise this" });
  });

  it("runs three parallel tool calls concurrently and returns results in call order", async () => {
    const ws = tempDir();
    const cmd = (n: number) => `date +%s%N > start${n}; sleep 0.6; date +%s%N > end${n}; echo done${n}`;
    const parallel = [1, 2, 3].map((n) => ({ name: "run_command", args: { command: cmd(n) } }));
    const { mock, envWith } = await e2eEnv(
      [
        toolReply(parallel),
        textReply("parallel done"),
        // The same three commands one per step: the sequential baseline in the same run.
        toolReply([parallel[0]!]),
        toolReply([parallel[1]!]),
        toolReply([parallel[2]!]),
        textReply("sequential done"),
      ],
      withSecretKey,
    );
    const session = join(ws, "s.json");
    const t0 = performance.now();
    const r1 = await runCli(["-p", "go", "-C", ws, "--session", session], { env: envWith() });
    const parallelMs = performance.now() - t0;
    expect(r1.code).toBe(0);
    const read = (f: string) => Number(readFileSync(join(ws, f), "utf8").trim());
    const starts = [1, 2, 3].map((n) => read(`start${n}`));
    const ends = [1, 2, 3].map((n) => read(`end${n}`));
    // Overlap: every command started before any of them ended.
    expect(Math.max(...starts)).toBeLessThan(Math.min(...ends));
    const results = toolMessages(mock, 1).map((m) => m.content as string);
    expect(results.map((c) => /done(\d)/.exec(c)?.[1])).toEqual(["1", "2", "3"]);
    const ids = (messagesOf(mock, 1).find((m) => m.tool_calls)?.tool_calls ?? []).map((c) => c.id);
    expect(toolMessages(mock, 1).map((m) => m.tool_call_id)).toEqual(ids);

    const t1 = performance.now();
    const r2 = await runCli(["-p", "again, one by one", "-C", ws, "--session", session], { env: envWith() });
    const sequentialMs = performance.now() - t1;
    expect(r2.code).toBe(0);
    expect(parallelMs).toBeLessThan(sequentialMs * 0.8);
  });

  it("gives the model an error result for invalid JSON arguments and unknown tools, and goes on", async () => {
    const ws = tempDir();
    const { mock, run } = await e2eEnv(
      [
        {
          toolCalls: [
            { name: "read_file", arguments: '{"path": "a.txt"' },
            { name: "no_such_tool", arguments: "{}" },
            { name: "read_file", arguments: '{"path": 5}' },
          ],
        },
        textReply("recovered"),
      ],
      withSecretKey,
    );
    const r = await run(["-p", "go", "-C", ws]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("recovered\n");
    const [badJson, unknown, badType] = toolMessages(mock, 1).map((m) => m.content as string);
    expect(badJson).toMatch(/invalid arguments for read_file: not valid JSON/);
    expect(unknown).toMatch(/unknown tool "no_such_tool". Available tools: read_file/);
    expect(badType).toMatch(/"path": Invalid input: expected string, received number/);
  });

  it("keeps reasoning apart from content and does not send it back; --thinking sets reasoning_effort", async () => {
    const ws = tempDir();
    const { mock, run } = await e2eEnv(
      [
        { reasoning: "let me think about files", toolCalls: [{ name: "list_dir", arguments: "{}" }] },
        { reasoning: "ok", content: "Done." },
      ],
      withSecretKey,
    );
    const r = await run(["-p", "go", "-C", ws, "--thinking", "--stream-json"]);
    expect(r.code).toBe(0);
    expect(mock.requests[0]!.body.reasoning_effort).toBe("high");
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; text?: string });
    expect(
      events
        .filter((e) => e.type === "reasoning.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("let me think about filesok");
    expect(
      events
        .filter((e) => e.type === "assistant.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("Done.");
    const assistant = messagesOf(mock, 1).find((m) => m.role === "assistant") as Record<string, unknown>;
    expect(assistant).not.toHaveProperty("reasoning_content");
  });

  it("ends the turn at max_iterations with a clear reason and a valid history", async () => {
    const ws = tempDir();
    const { mock, run } = await e2eEnv(() => toolReply([{ name: "list_dir", args: {} }]), withSecretKey);
    const r = await run(["-p", "loop", "-C", ws, "--max-iterations", "3", "--json"]);
    expect(r.code).toBe(1);
    expect(mock.requests).toHaveLength(3);
    const body = JSON.parse(r.stdout) as { reason: string; error: string; sessionFile: string };
    expect(body.reason).toBe("max_iterations");
    expect(body.error).toMatch(/max_iterations 3/);
    expect(r.stderr).toMatch(/^nanohermes: stopped after 3 model calls/);
    const saved = JSON.parse(readFileSync(body.sessionFile, "utf8")) as { messages: Msg[] };
    expect(saved.messages.at(-1)!.role).toBe("tool");
  });

  it("reports per-request usage deltas", async () => {
    const ws = tempDir();
    const { run } = await e2eEnv(
      [
        toolReply([{ name: "list_dir", args: {} }], { usage: { prompt: 100, completion: 10 } }),
        textReply("ok", { usage: { prompt: 150, completion: 5 } }),
      ],
      withSecretKey,
    );
    const r = await run(["-p", "go", "-C", ws, "--stream-json"]);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; prompt?: number; completion?: number; usage?: unknown });
    expect(events.filter((e) => e.type === "usage.updated").map((e) => [e.prompt, e.completion])).toEqual([
      [100, 10],
      [150, 5],
    ]);
    expect(events.at(-1)!.usage).toEqual({ prompt: 250, completion: 15, unpriced: true });
  });

  it("never returns a tool result over 20 KB to the model", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "big.txt"), `${"y".repeat(100)}\n`.repeat(3000));
    const { mock, run } = await e2eEnv(
      [
        toolReply([
          { name: "run_command", args: { command: "head -c 1000000 /dev/zero | tr '\\0' 'a'; echo; echo THE-END" } },
          { name: "read_file", args: { path: "big.txt" } },
          { name: "grep", args: { pattern: "y" } },
        ]),
        textReply("ok"),
      ],
      withSecretKey,
    );
    const r = await run(["-p", "go", "-C", ws]);
    expect(r.code).toBe(0);
    const results = toolMessages(mock, 1).map((m) => m.content as string);
    for (const content of results) expect(Buffer.byteLength(content)).toBeLessThanOrEqual(20 * 1024);
    expect(results[0]).toContain("THE-END");
    expect(results[0]).toMatch(/bytes cut from the middle/);
    expect(results[1]).toMatch(/Read the rest with offset\/limit/);
  });

  it("refuses a 5 MB file whole but reads a window of it, and refuses a binary file", async () => {
    const ws = tempDir();
    const line = "0123456789".repeat(10);
    writeFileSync(join(ws, "huge.log"), `${line}\n`.repeat(52_000));
    writeFileSync(join(ws, "pic.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    const { mock, run } = await e2eEnv(
      [
        toolReply([
          { name: "read_file", args: { path: "huge.log" } },
          { name: "read_file", args: { path: "huge.log", offset: 50_000, limit: 2 } },
          { name: "read_file", args: { path: "pic.png" } },
        ]),
        textReply("ok"),
      ],
      withSecretKey,
    );
    const r = await run(["-p", "go", "-C", ws]);
    expect(r.code).toBe(0);
    const [whole, window, png] = toolMessages(mock, 1).map((m) => m.content as string);
    expect(whole).toMatch(/is 5\.0 MB; read_file refuses files over 4 MB whole/);
    expect(window).toBe(
      ` 50000\t${line}\n 50001\t${line}\n[lines 50000-50001 of ? shown; more lines may follow: read_file {"path": "huge.log", "offset": 50002}]`,
    );
    expect(png).toMatch(/binary file \(PNG image, 12 bytes\)/);
  });
});
