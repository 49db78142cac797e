// Issue 29: `nanohermes mcp-server` driven by the MCP SDK's Client over real stdio pipes, against the
// mock model: the four tools, a thread edited and replied to, a running turn cancelled, progress
// notifications, a blocked command refused by the gate (nobody to ask), threads side by side, the
// read-only default, and bad input answered with JSON-RPC errors.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { until } from "../helpers/acp.js";
import { CLI, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply, type RecordedRequest } from "../helpers/mock-openai.js";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(
  env: Record<string, string | undefined>,
  client = new Client({ name: "test-agent", version: "1" }),
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp-server", "--sandbox", "off"],
    env: env as Record<string, string>,
    stderr: "pipe",
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface Turn {
  threadId: string;
  response: string;
  reason: string;
  changedFiles: string[];
  usage: { prompt: number; completion: number };
}
const structured = (r: unknown) => (r as { structuredContent?: unknown }).structuredContent as Turn;
const toolResults = (req: RecordedRequest | undefined) =>
  ((req?.messages ?? []) as ChatMessage[]).filter((m) => m.role === "tool").map((m) => String(m.content));

describe("nanohermes mcp-server", () => {
  it("lists its four tools", async () => {
    const { env } = await e2eEnv([], { model: "m" });
    const client = await connect(env);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "nanohermes_cancel",
      "nanohermes_reply",
      "nanohermes_run",
      "nanohermes_status",
    ]);
    const run = tools.find((t) => t.name === "nanohermes_run");
    expect(Object.keys(run?.inputSchema.properties ?? {})).toEqual(["prompt", "cwd", "model", "approval", "sandbox"]);
  });

  it("runs a thread that edits a file (with progress), replies on it, and refuses a blocked command", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "notes.txt"), "old\n");
    mkdirSync(join(ws, "victim"));
    writeFileSync(join(ws, "victim", "keep.txt"), "keep\n");
    const { mock, env } = await e2eEnv(
      [
        toolReply([{ name: "edit_file", args: { path: "notes.txt", old_string: "old", new_string: "new" } }]),
        textReply("Edited notes.txt."),
        toolReply([{ name: "run_command", args: { command: "rm -rf --no-preserve-root victim" } }]),
        textReply("That was refused."),
      ],
      { model: "m" },
    );
    const client = await connect(env);
    const progress: string[] = [];
    const first = await client.callTool(
      {
        name: "nanohermes_run",
        arguments: { prompt: "edit the notes", cwd: ws, approval: "never", sandbox: "workspace-write" },
      },
      CallToolResultSchema,
      { onprogress: (p) => progress.push(p.message ?? "") },
    );
    const turn = structured(first);
    expect(turn).toMatchObject({ response: "Edited notes.txt.", reason: "completed", changedFiles: ["notes.txt"] });
    expect(turn.usage.prompt).toBeGreaterThan(0);
    expect(first.content).toEqual([{ type: "text", text: "Edited notes.txt." }]);
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe("new\n");
    expect(progress[0]).toBe(`thread ${turn.threadId} started`);
    expect(progress).toContain("step 1");
    expect(progress.some((l) => l.startsWith("edit_file: "))).toBe(true);

    // The same thread, the conversation kept: the model sees the first turn.
    const second = await client.callTool({
      name: "nanohermes_reply",
      arguments: { threadId: turn.threadId, prompt: "now clean up victim/" },
    });
    expect(structured(second)).toMatchObject({
      threadId: turn.threadId,
      response: "That was refused.",
      changedFiles: [],
    });
    expect(existsSync(join(ws, "victim", "keep.txt"))).toBe(true);
    expect(toolResults(mock.requests[3]).at(-1)).toMatch(/^refused: refused in every mode/);
    expect(JSON.stringify(mock.requests[2]?.messages)).toContain("edit the notes");

    const status = await client.callTool({ name: "nanohermes_status", arguments: { threadId: turn.threadId } });
    expect(status.structuredContent).toMatchObject({ running: false, turns: 2, cwd: ws, sandbox: "workspace-write" });
  });

  it("is read-only unless the call says otherwise, and refuses what would ask (nobody to ask)", async () => {
    const ws = tempDir();
    const { mock, env } = await e2eEnv(
      [
        toolReply([{ name: "write_file", args: { path: "a.txt", content: "a\n" } }]),
        textReply("Could not write."),
        toolReply([{ name: "write_file", args: { path: "b.txt", content: "b\n" } }]),
        textReply("Could not write either."),
      ],
      { model: "m" },
    );
    const client = await connect(env);
    const r = await client.callTool({
      name: "nanohermes_run",
      arguments: { prompt: "write", cwd: ws, approval: "never" },
    });
    expect(structured(r).reason).toBe("completed");
    expect(existsSync(join(ws, "a.txt"))).toBe(false);
    expect(toolResults(mock.requests[1]).at(-1)).toMatch(/read-only/);
    // Writable, but the default policy asks before an edit: nobody can answer here, so it is refused
    // with the way to allow it.
    const w = await client.callTool({
      name: "nanohermes_run",
      arguments: { prompt: "write b", cwd: ws, sandbox: "workspace-write" },
    });
    expect(structured(w).reason).toBe("completed");
    expect(existsSync(join(ws, "b.txt"))).toBe(false);
    expect(toolResults(mock.requests[3]).at(-1)).toMatch(
      /^not run: this call needs approval .* nobody can answer here/,
    );
  });

  it("asks a client that offers elicitation instead of refusing: allowed once, then denied", async () => {
    const ws = tempDir();
    const { mock, env } = await e2eEnv(
      [
        toolReply([{ name: "write_file", args: { path: "yes.txt", content: "y\n" } }]),
        toolReply([{ name: "write_file", args: { path: "no.txt", content: "n\n" } }]),
        textReply("One written."),
      ],
      { model: "m" },
    );
    const client = new Client({ name: "asking-agent", version: "1" }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { decision: asked.length === 1 ? "allow once" : "deny" } };
    });
    await connect(env, client);
    const r = await client.callTool({
      name: "nanohermes_run",
      arguments: { prompt: "write two files", cwd: ws, sandbox: "workspace-write" },
    });
    expect(structured(r)).toMatchObject({ reason: "completed", changedFiles: ["yes.txt"] });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatch(/^NanoHermes asks: .*yes\.txt/);
    expect(existsSync(join(ws, "yes.txt"))).toBe(true);
    expect(existsSync(join(ws, "no.txt"))).toBe(false);
    expect(toolResults(mock.requests[2]).at(-1)).toMatch(/denied/);
  });

  it("cancels a running turn at the step boundary; another thread runs meanwhile; one turn per thread", async () => {
    const ws = tempDir();
    const { env } = await e2eEnv(
      (req) => {
        const prompt = JSON.stringify(req.messages);
        if (prompt.includes("slow")) return textReply("y".repeat(2000), { chunkSize: 4, chunkDelayMs: 20 });
        return textReply("quick answer");
      },
      { model: "m" },
    );
    const client = await connect(env);
    const first = structured(
      await client.callTool({ name: "nanohermes_run", arguments: { prompt: "hello", cwd: ws } }),
    );
    let started = false;
    const slow = client.callTool(
      { name: "nanohermes_reply", arguments: { threadId: first.threadId, prompt: "slow please" } },
      CallToolResultSchema,
      { onprogress: () => (started = true) },
    );
    await until(() => started, "the slow turn to start");
    // One turn per thread: a second reply while it runs is refused.
    const busy = await client.callTool({
      name: "nanohermes_reply",
      arguments: { threadId: first.threadId, prompt: "x" },
    });
    expect(busy.isError).toBe(true);
    expect(JSON.stringify(busy.content)).toMatch(/running a turn/);
    // Threads run side by side.
    const other = await client.callTool({ name: "nanohermes_run", arguments: { prompt: "another", cwd: ws } });
    expect(structured(other)).toMatchObject({ response: "quick answer" });
    const cancel = await client.callTool({ name: "nanohermes_cancel", arguments: { threadId: first.threadId } });
    expect(cancel.structuredContent).toEqual({ cancelled: true });
    expect(structured(await slow)).toMatchObject({ reason: "interrupted" });
    const status = await client.callTool({ name: "nanohermes_status", arguments: { threadId: first.threadId } });
    expect(status.structuredContent).toMatchObject({ running: false });
  });

  it("answers bad input with JSON-RPC errors and keeps serving", async () => {
    const { env } = await e2eEnv([], { model: "m" });
    const child = spawn(process.execPath, [CLI, "mcp-server"], { env: env as NodeJS.ProcessEnv, stdio: "pipe" });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const replies = () =>
      out
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number }; result?: { isError?: boolean } });
    const send = (value: unknown) =>
      child.stdin.write(`${typeof value === "string" ? value : JSON.stringify(value)}\n`);
    try {
      send("{not json");
      await until(() => replies().length === 1, "the parse error");
      expect(replies()[0]).toMatchObject({ id: null, error: { code: -32700 } });
      send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      });
      await until(() => replies().length === 2, "the initialize answer");
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({ jsonrpc: "2.0", id: 2, method: "no/such_method", params: {} });
      send({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "nanohermes_reply", arguments: { threadId: "nope", prompt: "hi" } },
      });
      send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "nanohermes_run", arguments: { cwd: 42 } } });
      await until(() => replies().length === 5, "three answers");
      const byId = new Map(replies().map((r) => [r.id, r]));
      expect(byId.get(2)?.error?.code).toBe(-32601);
      // Tool failures are results with isError (the MCP convention), never a crash.
      expect(byId.get(3)?.result?.isError).toBe(true);
      expect(byId.get(4)?.result?.isError).toBe(true);
      expect(child.exitCode).toBeNull();
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    }
    expect(child.exitCode).toBe(0);
  });
});
