// The built program in Anthropic Messages mode (--api anthropic) against the Anthropic mock: tool
// steps with signed thinking and prompt caching, images, retries, a dropped stream and a stop.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { collect, runCli, startCli, tempDir, testEnv, waitForOutput } from "../helpers/cli.js";
import {
  type AnthropicMock,
  type AnthropicRequest,
  startAnthropicMock,
  textReply,
  toolReply,
} from "../helpers/mock-anthropic.js";

let server: AnthropicMock | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const args = (s: AnthropicMock, ...rest: string[]) => [
  "--api",
  "anthropic",
  "--base-url",
  s.url,
  "--model",
  "claude-test",
  "--retry-base-ms",
  "10",
  ...rest,
];
const env = () => testEnv({ ANTHROPIC_API_KEY: "sk-ant-e2e" });

type Block = { type: string; [k: string]: unknown };
const blocks = (r: AnthropicRequest, i: number) => r.messages[i]!.content as Block[];

describe("Anthropic Messages mode", () => {
  it("runs parallel tool calls with signed thinking sent back unchanged and the prompt mostly read from cache", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "a.txt"), "alpha\n");
    writeFileSync(join(ws, "b.txt"), "beta\n");
    const signature = "EqQBCkYIARgCIkD+/sig==";
    server = await startAnthropicMock([
      {
        ...toolReply([
          { id: "toolu_01", name: "read_file", args: { path: "a.txt" } },
          { id: "toolu_02", name: "read_file", args: { path: "b.txt" } },
        ]),
        thinking: [{ text: "Read both files at once.", signature }],
        redacted: ["REDACTED-OPAQUE"],
      },
      textReply("a says alpha, b says beta"),
    ]);
    const r = await runCli(["-p", "what do a.txt and b.txt say?", "-C", ws, "--thinking", "medium", ...args(server)], {
      env: env(),
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("a says alpha, b says beta\n");
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests as [AnthropicRequest, AnthropicRequest];
    expect(first.headers["x-api-key"]).toBe("sk-ant-e2e");
    expect(first.body.thinking).toMatchObject({ type: "enabled" });

    // The assistant step goes back with its thinking first, byte for byte, then both calls.
    expect(second.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(blocks(second, 1).map((b) => b.type)).toEqual(["thinking", "redacted_thinking", "tool_use", "tool_use"]);
    expect(blocks(second, 1)[0]).toEqual({ type: "thinking", thinking: "Read both files at once.", signature });
    expect(blocks(second, 1)[1]).toEqual({ type: "redacted_thinking", data: "REDACTED-OPAQUE" });
    // Both results in one user turn, in call order.
    const results = blocks(second, 2);
    expect(results.map((b) => [b.type, b.tool_use_id])).toEqual([
      ["tool_result", "toolu_01"],
      ["tool_result", "toolu_02"],
    ]);
    expect(JSON.stringify(results[0]!.content)).toContain("alpha");
    expect(JSON.stringify(results[1]!.content)).toContain("beta");

    // Breakpoints: the system prompt, the last tool, the last two user turns.
    for (const req of [first, second]) {
      expect(JSON.stringify(req.body).match(/"cache_control"/g)?.length).toBeLessThanOrEqual(4);
      expect((req.system as Block[]).at(-1)!.cache_control).toEqual({ type: "ephemeral" });
      expect((req.tools as Block[]).at(-1)!.cache_control).toEqual({ type: "ephemeral" });
    }
    expect(blocks(second, 0).at(-1)!.cache_control).toEqual({ type: "ephemeral" });
    expect(blocks(second, 2).at(-1)!.cache_control).toEqual({ type: "ephemeral" });
    // The second step's prompt is mostly what the first wrote to the cache.
    expect(first.cache.read).toBe(0);
    expect(second.cache.read / second.cache.total).toBeGreaterThan(0.5);
  });

  it("runs a tool step with streaming off", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "n.txt"), "forty-two\n");
    server = await startAnthropicMock([
      {
        ...toolReply([{ id: "toolu_n", name: "read_file", args: { path: "n.txt" } }]),
        thinking: [{ text: "read it", signature: "S-whole" }],
      },
      textReply("it says forty-two"),
    ]);
    const r = await runCli(
      ["-p", "what does n.txt say?", "-C", ws, "--no-stream", "--thinking", "low", ...args(server)],
      { env: env() },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("it says forty-two\n");
    expect(server.requests.map((q) => q.stream)).toEqual([false, false]);
    expect(blocks(server.requests[1]!, 1)[0]).toEqual({ type: "thinking", thinking: "read it", signature: "S-whole" });
    expect(JSON.stringify(blocks(server.requests[1]!, 2))).toContain("forty-two");
  });

  it("sends images as base64 image blocks", async () => {
    const ws = tempDir();
    await sharp({ create: { width: 40, height: 20, channels: 3, background: "red" } })
      .png()
      .toFile(join(ws, "red.png"));
    server = await startAnthropicMock([textReply("a red rectangle")]);
    const r = await runCli(["-p", "what is this?", "-i", "red.png", "-C", ws, ...args(server)], {
      cwd: ws,
      env: env(),
    });
    expect(r.code).toBe(0);
    const content = blocks(server.requests[0]!, 0);
    expect(content[0]).toMatchObject({ type: "text", text: "what is this?" });
    expect(content[1]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png" } });
    const data = (content[1]!.source as { data: string }).data;
    expect((await sharp(Buffer.from(data, "base64")).metadata()).width).toBe(40);
  });

  it("retries a stream that drops mid-reply and keeps none of its partial text", async () => {
    server = await startAnthropicMock([
      { ...textReply("this partial text must vanish"), chunkSize: 4, dropAfterEvents: 5 },
      textReply("complete answer"),
    ]);
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--json", ...args(server)], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ response: "complete answer" });
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1]!.messages)).not.toContain("partial");
  });

  it("honours Retry-After on a 429", async () => {
    server = await startAnthropicMock([{ status: 429, headers: { "retry-after": "1" } }, textReply("ok")]);
    const r = await runCli(["-p", "hi", "-C", tempDir(), ...args(server)], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok\n");
    // Lower bound only: a slow machine can make the gap longer, never shorter.
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it("retries 529 overloaded, as a status and as an error event mid-stream", async () => {
    server = await startAnthropicMock([
      { status: 529 },
      { ...textReply("lost"), errorAfterEvents: { after: 3, type: "overloaded_error" } },
      textReply("finally"),
    ]);
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--verbose", ...args(server)], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("finally\n");
    expect(server.requests).toHaveLength(3);
    expect(r.stderr.match(/retrying, attempt [23] of 3 in .*529/g)).toHaveLength(2);
  });

  it("fails at once on a 401, saying why", async () => {
    server = await startAnthropicMock([{ status: 401 }]);
    const r = await runCli(["-p", "hi", "-C", tempDir(), ...args(server)], { env: env() });
    expect(r.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(r.stderr).toMatch(/^nanohermes: model request failed: 401 authentication_error: /);
  });

  it("stops mid-stream on Ctrl-C: the request is aborted and nothing partial is kept", async () => {
    const ws = tempDir();
    const session = join(ws, "session.json");
    server = await startAnthropicMock([{ ...textReply("partial ".repeat(200)), chunkSize: 8, chunkDelayMs: 40 }]);
    const child = startCli(["-p", "write a lot", "-C", ws, "--session", session, "--stream-json", ...args(server)], {
      env: env(),
    });
    const done = collect(child);
    await waitForOutput(child, (all) => all.includes('"assistant.delta"'));
    child.kill("SIGINT");
    const r = await done;
    expect(r.code).toBe(130);
    await expect.poll(() => server!.aborted).toBe(1);
    const saved = JSON.parse(readFileSync(session, "utf8")) as { messages: { role: string }[] };
    expect(saved.messages.map((m) => m.role)).toEqual(["system", "user"]);
  });
});
