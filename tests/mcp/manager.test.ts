// The MCP client against real servers from npm: server-everything (stdio, streamable HTTP, SSE)
// and server-filesystem. Connecting, calling, errors, slow calls, resources and prompts, a server
// killed mid-call, dead and hanging servers, list changes and the stderr log.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveServers, type McpServerConfig } from "../../src/config/mcp.js";
import { McpManager } from "../../src/mcp/manager.js";
import { mcpHelperTools, mcpToolSource } from "../../src/mcp/tools.js";
import type { AnyTool, ToolOutput } from "../../src/tools/define.js";
import { tempDir } from "../helpers/cli.js";
import { everythingStdio, filesystemStdio, startEverythingHttp, waitFor } from "../helpers/mcp.js";

const managers: McpManager[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  for (const c of cleanups.splice(0)) c();
});

function manager(
  servers: Record<string, McpServerConfig>,
  opts: { logDir?: string; retry?: { baseMs: number; maxAttempts: number } } = {},
): McpManager {
  const { specs, problems } = resolveServers(servers, { workspace: tempDir(), env: process.env });
  expect(problems).toEqual([]);
  const m = new McpManager(specs, {
    logDir: opts.logDir ?? null,
    version: "test",
    retry: opts.retry ?? { baseMs: 100, maxAttempts: 3 },
  });
  managers.push(m);
  m.start();
  return m;
}

const ready = (m: McpManager, name: string) =>
  waitFor(() => m.statuses().find((s) => s.name === name)?.state === "ready", 20_000, `${name} ready`);
const output: string[] = [];
const ctx = (signal = new AbortController().signal) => ({
  workspace: "/",
  signal,
  output: (_s: "stdout" | "stderr", chunk: string) => void output.push(chunk),
});
async function run(
  tool: AnyTool | undefined,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ToolOutput> {
  if (!tool) throw new Error("no such tool");
  const out = await tool.run(args, ctx(signal));
  return typeof out === "string" ? { forModel: out } : out;
}
const find = (tools: AnyTool[], name: string) => tools.find((t) => t.name === name);

describe("MCP over stdio with real servers", () => {
  it("connects two servers in parallel and exposes their tools as mcp__server__tool", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "hello.txt"), "hello from the filesystem server\n");
    const m = manager({ everything: everythingStdio(), fs: filesystemStdio(dir) });
    expect(m.statuses().map((s) => s.state)).toEqual(["connecting", "connecting"]);
    await Promise.all([ready(m, "everything"), ready(m, "fs")]);
    const tools = mcpToolSource(m).tools();
    const names = tools.map((t) => t.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__everything__get-sum");
    expect(names).toContain("mcp__fs__read_text_file");
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const echo = find(tools, "mcp__everything__echo")!;
    expect(echo.kind).toBe("mcp");
    expect(echo.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    expect(echo.mcp).toEqual({ server: "everything", tool: "echo", readOnly: true, trusted: false });
    expect(find(tools, "mcp__fs__write_file")!.mcp!.readOnly).toBe(false);

    expect((await run(echo, { message: "hi there" })).forModel).toBe("Echo: hi there");
    const sum = await run(find(tools, "mcp__everything__get-sum"), { a: 2, b: 40 });
    expect(sum.forModel).toContain("42");
    // Calls to different servers run at the same time.
    const [read, listed] = await Promise.all([
      run(find(tools, "mcp__fs__read_text_file"), { path: join(dir, "hello.txt") }),
      run(find(tools, "mcp__fs__list_directory"), { path: dir }),
    ]);
    expect(read.forModel).toContain("hello from the filesystem server");
    expect(listed.forModel).toContain("hello.txt");
  });

  it("does not hold one server's calls behind another's slow call", async () => {
    const m = manager({ slow: everythingStdio(), quick: filesystemStdio(tempDir()) });
    await Promise.all([ready(m, "slow"), ready(m, "quick")]);
    const tools = mcpToolSource(m).tools();
    const order: string[] = [];
    const long = run(find(tools, "mcp__slow__trigger-long-running-operation"), { duration: 3, steps: 3 }).then(() =>
      order.push("slow"),
    );
    // Wait until the slow call is surely in flight (its first progress arrived).
    output.length = 0;
    await waitFor(() => output.some((o) => o.startsWith("progress")), 10_000, "first progress");
    await run(find(tools, "mcp__quick__list_allowed_directories"), {}).then(() => order.push("quick"));
    await long;
    expect(order).toEqual(["quick", "slow"]);
  });

  it("reports a tool error as an error result, and an unknown server clearly", async () => {
    const dir = tempDir();
    const m = manager({ fs: filesystemStdio(dir) });
    await ready(m, "fs");
    const read = find(mcpToolSource(m).tools(), "mcp__fs__read_text_file")!;
    const missing = await run(read, { path: join(dir, "nope.txt") });
    expect(missing.isError).toBe(true);
    expect(missing.forModel).toMatch(/^the MCP tool reported an error: .*(ENOENT|no such file)/is);
    // Outside the allowed directory: the server refuses.
    const outside = await run(read, { path: "/etc/hostname" });
    expect(outside.isError).toBe(true);
    await expect(m.client("nope")).rejects.toThrow(/no MCP server "nope" is configured \(servers: fs\)/);
  });

  it("runs a slow tool to the end and passes its progress on as live output", async () => {
    const m = manager({ everything: everythingStdio() });
    await ready(m, "everything");
    const slow = find(mcpToolSource(m).tools(), "mcp__everything__trigger-long-running-operation")!;
    output.length = 0;
    const result = await run(slow, { duration: 1.5, steps: 3 });
    expect(result.forModel).toMatch(/completed/i);
    expect(output.join("")).toMatch(/progress 1\/3\nprogress 2\/3/);
  });

  it("stops a slow call when the turn is force-stopped", async () => {
    const m = manager({ everything: everythingStdio() });
    await ready(m, "everything");
    const slow = find(mcpToolSource(m).tools(), "mcp__everything__trigger-long-running-operation")!;
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    // A minute-long operation: a call that did not stop would outlast the test's timeout.
    await expect(run(slow, { duration: 60, steps: 4 }, abort.signal)).rejects.toThrow();
    // The server is still there for the next call.
    expect(
      (await run(find(mcpToolSource(m).tools(), "mcp__everything__echo"), { message: "still here" })).forModel,
    ).toBe("Echo: still here");
  });

  it("reads resources and prompts through the mcp_* helper tools", async () => {
    const m = manager({ everything: everythingStdio(), fs: filesystemStdio(tempDir()) });
    await Promise.all([ready(m, "everything"), ready(m, "fs")]);
    const helpers = mcpHelperTools(m);
    expect(helpers.map((t) => t.name)).toEqual([
      "mcp_list_resources",
      "mcp_read_resource",
      "mcp_list_prompts",
      "mcp_get_prompt",
    ]);
    const resources = (await run(find(helpers, "mcp_list_resources"), {})).forModel;
    expect(resources).toMatch(/everything: demo:\/\/resource\//);
    const uri = /everything: (demo:\/\/resource\/static\/document\/\S+)/.exec(resources)?.[1];
    expect(uri).toBeDefined();
    const text = (await run(find(helpers, "mcp_read_resource"), { server: "everything", uri })).forModel;
    expect(text.length).toBeGreaterThan(20);
    const templated = (
      await run(find(helpers, "mcp_read_resource"), { server: "everything", uri: "demo://resource/dynamic/text/7" })
    ).forModel;
    expect(templated).toMatch(/7/);
    await expect(
      run(find(helpers, "mcp_read_resource"), { server: "everything", uri: "demo://nothing/here" }),
    ).rejects.toThrow(/reading demo:\/\/nothing\/here from everything failed/);

    const prompts = (await run(find(helpers, "mcp_list_prompts"), { server: "everything" })).forModel;
    expect(prompts).toContain("everything: simple-prompt");
    expect(prompts).toMatch(/everything: args-prompt \(city\*, state\)/);
    const prompt = (
      await run(find(helpers, "mcp_get_prompt"), {
        server: "everything",
        name: "args-prompt",
        arguments: { city: "Lisbon" },
      })
    ).forModel;
    expect(prompt).toMatch(/^user: .*Lisbon/m);
  });

  it("fails a call cleanly when the server is killed mid-call, restarts it, and calls work again", async () => {
    const marker = `nh-kill-${process.pid}-${Date.now()}`;
    const m = manager({ everything: everythingStdio(marker) }, { retry: { baseMs: 100, maxAttempts: 5 } });
    await ready(m, "everything");
    const slow = find(mcpToolSource(m).tools(), "mcp__everything__trigger-long-running-operation")!;
    const call = run(slow, { duration: 20, steps: 4 });
    setTimeout(() => execFileSync("pkill", ["-9", "-f", marker]), 500);
    await expect(call).rejects.toThrow(/closed the connection during the call.*restarted/);
    await waitFor(() => m.statuses()[0]!.restarts === 1 && m.statuses()[0]!.state === "ready", 20_000, "restart");
    expect((await run(find(mcpToolSource(m).tools(), "mcp__everything__echo"), { message: "back" })).forModel).toBe(
      "Echo: back",
    );
  });

  it("keeps a dead server and a hanging one from blocking the others, and gives up on them with a reason", async () => {
    const hang = { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], startupTimeout: 500 };
    const m = manager(
      { dead: { command: "/nonexistent/mcp-server" }, hang, everything: everythingStdio() },
      { retry: { baseMs: 50, maxAttempts: 2 } },
    );
    await ready(m, "everything");
    expect(find(mcpToolSource(m).tools(), "mcp__everything__echo")).toBeDefined();
    await waitFor(() => m.statuses().filter((s) => s.state === "failed").length === 2, 20_000, "both failed");
    const [dead, hung] = m.statuses();
    expect(dead!.error).toMatch(/^cannot start \/nonexistent\/mcp-server: .*ENOENT/);
    expect(hung!.error).toMatch(/timed out after 1 s|timed out after 0 s/);
    await expect(m.client("dead")).rejects.toThrow(/MCP server "dead" is not available \(failed: /);
    expect(
      mcpToolSource(m)
        .tools()
        .every((t) => t.mcp?.server === "everything"),
    ).toBe(true);
  });

  it("refreshes the tool list on tools/list_changed and keeps read-only hints", async () => {
    const fixture = resolve(import.meta.dirname, "../fixtures/mcp/changing-server.mjs");
    const m = manager({ changing: { command: process.execPath, args: [fixture] } });
    await ready(m, "changing");
    const source = mcpToolSource(m);
    expect(
      source
        .tools()
        .map((t) => t.name)
        .sort(),
    ).toEqual(["mcp__changing__add_tool", "mcp__changing__read_only_tool"]);
    expect(find(source.tools(), "mcp__changing__read_only_tool")!.mcp!.readOnly).toBe(true);
    const before = source.version();
    await run(find(source.tools(), "mcp__changing__add_tool"), { name: "fresh.tool" });
    await waitFor(() => source.tools().some((t) => t.name === "mcp__changing__fresh_tool"), 10_000, "list_changed");
    expect(source.version()).not.toBe(before);
    expect((await run(find(source.tools(), "mcp__changing__fresh_tool"), {})).forModel).toBe("I am fresh.tool");
  });

  it("writes a server's stderr to its log file, never to ours", async () => {
    const logDir = tempDir();
    const fixture = resolve(import.meta.dirname, "../fixtures/mcp/changing-server.mjs");
    const m = manager({ changing: { command: process.execPath, args: [fixture] } }, { logDir });
    await ready(m, "changing");
    const status = m.statuses()[0]!;
    expect(status.logFile).toBe(join(logDir, "mcp-changing.log"));
    await waitFor(() => readFileSync(status.logFile!, "utf8").includes("changing server up"), 5_000, "log");
  });

  it("does not pass our secrets to a stdio server, only its own env", async () => {
    process.env.NH_TEST_SECRET_KEY = "sk-do-not-leak";
    try {
      const m = manager({ everything: { ...everythingStdio(), env: { ONLY_THIS: "yes" } } });
      await ready(m, "everything");
      const env = (await run(find(mcpToolSource(m).tools(), "mcp__everything__get-env"), {})).forModel;
      expect(env).toContain("ONLY_THIS");
      expect(env).toContain("PATH");
      expect(env).not.toContain("sk-do-not-leak");
    } finally {
      delete process.env.NH_TEST_SECRET_KEY;
    }
  });
});

describe("MCP over HTTP with real servers", () => {
  it("speaks streamable HTTP", async () => {
    const http = await startEverythingHttp("streamableHttp");
    cleanups.push(http.close);
    const m = manager({ web: { url: http.url } });
    await ready(m, "web");
    expect(m.statuses()[0]!.transport).toBe("http");
    expect((await run(find(mcpToolSource(m).tools(), "mcp__web__echo"), { message: "over http" })).forModel).toBe(
      "Echo: over http",
    );
  });

  it("speaks the older SSE transport, by type or by falling back from streamable HTTP", async () => {
    const sse = await startEverythingHttp("sse");
    cleanups.push(sse.close);
    const m = manager({ typed: { type: "sse", url: sse.url }, guessed: { url: sse.url } });
    await Promise.all([ready(m, "typed"), ready(m, "guessed")]);
    const tools = mcpToolSource(m).tools();
    expect((await run(find(tools, "mcp__typed__echo"), { message: "a" })).forModel).toBe("Echo: a");
    expect((await run(find(tools, "mcp__guessed__echo"), { message: "b" })).forModel).toBe("Echo: b");
  });
});
