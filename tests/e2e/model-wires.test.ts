// The built program on each OpenAI wire (`--api chat` and `--api responses`, both through the
// openai SDK) against the mock: parallel tool calls, one keep-alive connection, a dropped stream
// retried, a 429 with Retry-After, a second Ctrl-C ending the request at once, images, and (on
// the Responses API) encrypted reasoning sent back on the next step.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { collect, runCli, startCli, tempDir, waitForOutput } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply, type RecordedRequest } from "../helpers/mock-openai.js";
import { waitFor } from "../helpers/wait.js";

const mainModel = { model: "main-model" };

/** The tool results a request carries, as [call id, output], whichever the wire. */
function toolResults(req: RecordedRequest): [string, string][] {
  return (req.messages as Record<string, unknown>[]).flatMap((m): [string, string][] => {
    if (m.role === "tool") return [[String(m.tool_call_id), String(m.content)]];
    if (m.type === "function_call_output") return [[String(m.call_id), String(m.output)]];
    return [];
  });
}

const events = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; delayMs?: number; status?: number });

describe.each(["chat", "responses"] as const)("--api %s", (api) => {
  it("runs parallel tool calls of one step and sends both results back, on one keep-alive connection", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "a.txt"), "alpha\n");
    writeFileSync(join(ws, "b.txt"), "beta\n");
    const { mock, run } = await e2eEnv(
      [
        toolReply([
          { id: "call_a", name: "read_file", args: { path: "a.txt" } },
          { id: "call_b", name: "read_file", args: { path: "b.txt" } },
        ]),
        textReply("both read"),
      ],
      mainModel,
    );
    const r = await run(["-p", "read both", "-C", ws, "--api", api]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("both read\n");
    expect(mock.requests.map((q) => q.wire)).toEqual([api, api]);
    const results = toolResults(mock.requests[1]!);
    expect(results.map(([id]) => id)).toEqual(["call_a", "call_b"]);
    expect(results[0]![1]).toContain("alpha");
    expect(results[1]![1]).toContain("beta");
    expect(mock.connections).toBe(1);
  });

  it("retries a dropped stream and answers from the next attempt", async () => {
    const { mock, envWith } = await e2eEnv(
      [textReply("this reply is lost halfway", { dropAfterChunks: 4 }), textReply("recovered")],
      mainModel,
    );
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--api", api, "--retry-base-ms", "10"], {
      env: envWith(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("recovered\n");
    expect(mock.requests).toHaveLength(2);
  });

  it("waits for a 429's Retry-After rather than the shorter backoff", async () => {
    const { mock, envWith } = await e2eEnv(
      [{ status: 429, headers: { "retry-after": "1" } }, textReply("ok")],
      mainModel,
    );
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--api", api, "--retry-base-ms", "10", "--stream-json"], {
      env: envWith(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(
      events(r.stdout)
        .filter((e) => e.type === "model.retrying")
        .map((e) => [e.status, e.delayMs]),
    ).toEqual([[429, 1000]]);
    expect(mock.requests).toHaveLength(2);
    // The SDK's own retries are off: exactly one request per attempt.
    expect(mock.requests[1]!.receivedAt - mock.requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it("ends the request at once on a second Ctrl-C", async () => {
    const { mock, envWith } = await e2eEnv(
      [textReply("x".repeat(4000), { chunkSize: 2, chunkDelayMs: 10 })],
      mainModel,
    );
    const child = startCli(["-p", "hi", "-C", tempDir(), "--api", api, "--stream-json"], { env: envWith() });
    const done = collect(child);
    await waitForOutput(child, (all) => all.includes('"assistant.delta"'));
    child.kill("SIGINT");
    child.kill("SIGINT");
    const r = await done;
    expect(r.code).toBe(130);
    // The client hung up mid-stream (2,000 chunks were planned), not after reading it all.
    await waitFor(() => mock.aborted === 1, { what: "server.aborted is 1" });
  });

  it("sends an image as input", async () => {
    const ws = tempDir();
    await sharp({ create: { width: 20, height: 10, channels: 3, background: "red" } })
      .png()
      .toFile(join(ws, "red.png"));
    const { mock, envWith } = await e2eEnv([textReply("a red box")], mainModel);
    const r = await runCli(["-p", "what is this?", "-i", "red.png", "-C", ws, "--api", api], {
      cwd: ws,
      env: envWith(),
    });
    expect(r.code, r.stderr).toBe(0);
    const last = mock.requests[0]!.messages.at(-1) as { content: Record<string, unknown>[] };
    const image = last.content.find((p) => p.type === (api === "chat" ? "image_url" : "input_image"))!;
    const url = api === "chat" ? (image.image_url as { url: string }).url : image.image_url;
    expect(url).toMatch(/^data:image\/png;base64,/);
  });
});

describe("--api responses", () => {
  it("sends the first step's encrypted reasoning back with the next step, and no server-side state", async () => {
    const { mock, envWith } = await e2eEnv(
      [
        toolReply([{ id: "call_1", name: "list_dir", args: { path: "." } }], {
          reasoning: "look first",
          encryptedReasoning: "ENC-STEP-1",
        }),
        textReply("done", { reasoning: "then answer", encryptedReasoning: "ENC-STEP-2" }),
      ],
      mainModel,
    );
    const r = await runCli(["-p", "look around", "-C", tempDir(), "--api", "responses", "--thinking", "high"], {
      env: envWith(),
    });
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = mock.requests;
    expect(first!.body).toMatchObject({
      store: false,
      include: ["reasoning.encrypted_content"],
      reasoning: { effort: "high" },
    });
    const input = second!.messages as Record<string, unknown>[];
    const at = input.findIndex((i) => i.type === "reasoning");
    expect(input[at]).toEqual({
      type: "reasoning",
      id: "rs_mock_1",
      encrypted_content: "ENC-STEP-1",
      summary: [{ type: "summary_text", text: "look first" }],
    });
    // The reasoning goes back right before the call it led to.
    expect(input[at + 1]).toMatchObject({ type: "function_call", call_id: "call_1" });
  });
});
