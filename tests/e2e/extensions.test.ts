// The built program with what users add to it: MCP servers (real npm servers over stdio and
// streamable HTTP), PreToolUse / PostToolUse hooks, skills and AGENTS.md, in one-shot mode
// against the mock model. Real processes throughout; only the model is scripted.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BusEventSchema } from "../../src/protocol/events.js";
import { runCli, tempDir, testEnv, type CliResult } from "../helpers/cli.js";
import { everythingStdio, filesystemStdio, ownTmp, startEverythingHttp } from "../helpers/mcp.js";
import { startMockServer, textReply, toolReply, type MockServer, type Responder } from "../helpers/mock-openai.js";

const SLOW = 60_000;
let server: MockServer | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const c of cleanups.splice(0)) c();
});

type Msg = {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string } }[];
  tool_call_id?: string;
};
type Event = { type: string; [key: string]: unknown };

/** A run's own home folders: NANOHERMES_HOME and the OS HOME (for ~/.agents/skills). */
interface Run {
  ws: string;
  home: string;
  osHome: string;
}

function setup(): Run {
  return { ws: tempDir(), home: tempDir("nh-home-"), osHome: tempDir("nh-oshome-") };
}

function write(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function run(r: Run, script: Responder[], args: string[]): Promise<CliResult> {
  server = await startMockServer(script);
  const env = testEnv({
    OPENAI_API_KEY: "sk-test-secret-value-123",
    OPENAI_BASE_URL: server.url,
    NANOHERMES_MODEL: "mock-model",
    NANOHERMES_HOME: r.home,
    HOME: r.osHome,
    ...ownTmp(),
  });
  return runCli(["-p", "go", "-C", r.ws, ...args], { env, timeoutMs: 45_000 });
}

const messagesOf = (i: number) => server!.requests[i]!.messages as Msg[];
const toolMessages = (i: number) => messagesOf(i).filter((m) => m.role === "tool");
const toolResults = (i: number) => toolMessages(i).map((m) => m.content as string);
const systemPrompt = (i = 0) => messagesOf(i)[0]!.content as string;
const toolNames = (i = 0) =>
  ((server!.requests[i]!.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const MCP_HELPERS = ["mcp_list_resources", "mcp_read_resource", "mcp_list_prompts", "mcp_get_prompt"];

/** Parses --stream-json output, checking every line against the published event schema. */
function events(stdout: string): Event[] {
  const all = stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Event);
  for (const event of all) expect(BusEventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
  return all;
}
const ofType = (all: Event[], type: string) => all.filter((e) => e.type === type);

describe("MCP servers", () => {
  it("exposes two stdio servers' tools and runs parallel calls to both, results in call order", {
    timeout: SLOW,
  }, async () => {
    const r = setup();
    write(join(r.ws, "hello.txt"), "hello from the filesystem server\n");
    const file = write(
      join(r.ws, "mcp.json"),
      JSON.stringify({ mcpServers: { everything: everythingStdio(), fs: filesystemStdio(r.ws) } }),
    );
    const res = await run(
      r,
      [
        toolReply([
          { name: "mcp__everything__echo", args: { message: "ping from the model" } },
          { name: "mcp__fs__read_text_file", args: { path: join(r.ws, "hello.txt") } },
        ]),
        textReply("Both servers answered."),
      ],
      ["--mcp", file],
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Both servers answered.\n");
    const names = toolNames(0);
    for (const name of ["mcp__everything__echo", "mcp__fs__read_text_file", ...MCP_HELPERS])
      expect(names).toContain(name);
    expect(systemPrompt()).toMatch(/MCP servers the user configured \(everything, fs\)/);
    const ids = messagesOf(1)
      .find((m) => m.tool_calls)!
      .tool_calls!.map((c) => c.id);
    expect(toolMessages(1).map((m) => m.tool_call_id)).toEqual(ids);
    const [echo, read] = toolResults(1);
    expect(echo).toBe("Echo: ping from the model");
    expect(read).toContain("hello from the filesystem server");
    // A stdio server's stderr goes to its own log file in the home folder.
    expect(existsSync(join(r.home, "logs", "mcp-everything.log"))).toBe(true);
  });

  it("offers no MCP tools when no server is configured", async () => {
    const r = setup();
    const res = await run(r, [textReply("plain")], []);
    expect(res.code).toBe(0);
    expect(toolNames(0)).toContain("read_file");
    expect(toolNames(0).filter((n) => n.startsWith("mcp"))).toEqual([]);
    expect(systemPrompt()).not.toContain("mcp__");
  });

  for (const key of ["mcpServers", "servers"]) {
    it(`reads servers from the user config.json "${key}" key`, { timeout: SLOW }, async () => {
      const r = setup();
      write(join(r.home, "config.json"), JSON.stringify({ [key]: { ev: everythingStdio() } }));
      const res = await run(r, [toolReply([{ name: "mcp__ev__echo", args: { message: key } }]), textReply("ok")], []);
      expect(res.code).toBe(0);
      expect(toolNames(0)).toContain("mcp__ev__echo");
      expect(toolNames(0)).toEqual(expect.arrayContaining(MCP_HELPERS));
      expect(toolResults(1)).toEqual([`Echo: ${key}`]);
    });
  }

  it("completes the turn with the good server while a dead one keeps failing", { timeout: SLOW }, async () => {
    const r = setup();
    const file = write(
      join(r.ws, "mcp.json"),
      JSON.stringify({
        mcpServers: { dead: { command: "/nonexistent/mcp-server-nh" }, everything: everythingStdio() },
      }),
    );
    const res = await run(
      r,
      [toolReply([{ name: "mcp__everything__echo", args: { message: "still works" } }]), textReply("done")],
      ["--mcp", file, "--stream-json"],
    );
    expect(res.code).toBe(0);
    expect(toolNames(0)).toContain("mcp__everything__echo");
    expect(toolNames(0).some((n) => n.startsWith("mcp__dead__"))).toBe(false);
    expect(toolResults(1)).toEqual(["Echo: still works"]);
    const all = events(res.stdout);
    expect(all.at(-1)).toMatchObject({ type: "turn.completed", reason: "completed", response: "done" });
    const dead = ofType(all, "mcp.updated")
      .flatMap((e) => e.servers as { name: string; state: string; error?: string }[])
      .filter((s) => s.name === "dead");
    expect(dead.length).toBeGreaterThan(0);
    expect(dead.every((s) => s.state !== "ready")).toBe(true);
    // A missing program fails at once rather than retrying.
    expect(dead.at(-1)).toMatchObject({
      state: "failed",
      error: expect.stringMatching(/^cannot start \/nonexistent\/mcp-server-nh: .*ENOENT/),
    });
    expect(readFileSync(join(r.home, "logs", "mcp-dead.log"), "utf8")).toMatch(/connect failed: .*ENOENT/);
    await server!.close();
    // In text mode, --verbose puts the failure on stderr; the answer still goes to stdout.
    const text = await run(
      r,
      [toolReply([{ name: "mcp__everything__echo", args: { message: "again" } }]), textReply("done again")],
      ["--mcp", file, "--verbose"],
    );
    expect(text.code).toBe(0);
    expect(text.stdout).toBe("done again\n");
    expect(text.stderr).toMatch(/MCP server dead failed: cannot start \/nonexistent\/mcp-server-nh: .*ENOENT/);
  });

  it("gives the model a server's tool error and a clear error for an unknown server", { timeout: SLOW }, async () => {
    const r = setup();
    const file = write(join(r.ws, "mcp.json"), JSON.stringify({ mcpServers: { fs: filesystemStdio(r.ws) } }));
    const res = await run(
      r,
      [
        toolReply([
          { name: "mcp__fs__read_text_file", args: { path: join(r.ws, "missing.txt") } },
          { name: "mcp_read_resource", args: { server: "nope", uri: "demo://x" } },
        ]),
        textReply("reported"),
      ],
      ["--mcp", file, "--stream-json"],
    );
    expect(res.code).toBe(0);
    const [missing, unknown] = toolResults(1);
    expect(missing).toMatch(/^the MCP tool reported an error: .*(ENOENT|no such file)/is);
    expect(unknown).toBe('no MCP server "nope" is configured (servers: fs)');
    // Events come in completion order; the results above are in call order.
    const statuses = ofType(events(res.stdout), "tool.completed").map((e) => `${String(e.name)} ${String(e.status)}`);
    expect(statuses.sort()).toEqual(["mcp__fs__read_text_file error", "mcp_read_resource error"]);
  });

  it("reaches resources and prompts through the four mcp_* helpers", { timeout: SLOW }, async () => {
    const r = setup();
    const file = write(join(r.ws, "mcp.json"), JSON.stringify({ mcpServers: { everything: everythingStdio() } }));
    let uri = "";
    const res = await run(
      r,
      [
        toolReply([
          { name: "mcp_list_resources", args: {} },
          { name: "mcp_list_prompts", args: { server: "everything" } },
        ]),
        (req) => {
          const listing = (req.messages as Msg[]).filter((m) => m.role === "tool")[0]!.content as string;
          uri = /everything: (demo:\/\/resource\/static\/document\/\S+)/.exec(listing)?.[1] ?? "not-found";
          return toolReply([
            { name: "mcp_read_resource", args: { server: "everything", uri } },
            {
              name: "mcp_get_prompt",
              args: { server: "everything", name: "args-prompt", arguments: { city: "Lisbon" } },
            },
          ]);
        },
        textReply("read them"),
      ],
      ["--mcp", file],
    );
    expect(res.code).toBe(0);
    const [resources, prompts] = toolResults(1);
    expect(resources).toMatch(/^everything: demo:\/\/resource\//m);
    expect(uri).toMatch(/^demo:\/\/resource\/static\/document\//);
    expect(prompts).toContain("everything: simple-prompt");
    expect(prompts).toMatch(/everything: args-prompt \(city\*, state\)/);
    const [, , resource = "", prompt] = toolResults(2);
    expect(resource.length).toBeGreaterThan(20);
    expect(resource).not.toMatch(/failed|not available/);
    expect(prompt).toMatch(/^user: .*Lisbon/m);
  });

  it("calls a tool over streamable HTTP", { timeout: SLOW }, async () => {
    const http = await startEverythingHttp("streamableHttp");
    cleanups.push(http.close);
    const r = setup();
    write(join(r.home, "config.json"), JSON.stringify({ mcpServers: { web: { url: http.url } } }));
    const res = await run(
      r,
      [toolReply([{ name: "mcp__web__echo", args: { message: "over http" } }]), textReply("ok")],
      ["--stream-json"],
    );
    expect(res.code).toBe(0);
    expect(toolResults(1)).toEqual(["Echo: over http"]);
    const states = ofType(events(res.stdout), "mcp.updated").flatMap(
      (e) => e.servers as { name: string; transport: string; state: string }[],
    );
    expect(states).toContainEqual(expect.objectContaining({ name: "web", transport: "http", state: "ready" }));
  });
});

describe("hooks", () => {
  const hooksConfig = (hooks: unknown) => JSON.stringify({ hooks });

  it("a failing PreToolUse hook blocks the call; a failing PostToolUse hook adds a warning", {
    timeout: SLOW,
  }, async () => {
    const r = setup();
    write(join(r.ws, "notes.txt"), "alpha\n");
    write(
      join(r.home, "config.json"),
      hooksConfig({
        PreToolUse: [{ matcher: "run_command,write_file", command: 'echo "no commands here" >&2; exit 3' }],
        PostToolUse: [{ matcher: "read_file", command: 'echo "lint failed"; exit 1' }],
      }),
    );
    const res = await run(
      r,
      [
        toolReply([
          { name: "run_command", args: { command: "touch created.txt" } },
          { name: "read_file", args: { path: "notes.txt" } },
        ]),
        textReply("blocked"),
      ],
      ["--stream-json"],
    );
    expect(res.code).toBe(0);
    expect(existsSync(join(r.ws, "created.txt"))).toBe(false);
    const [blocked, read] = toolResults(1);
    expect(blocked).toMatch(
      /^Blocked by a PreToolUse hook \(`echo "no commands here" >&2; exit 3`\): it exited with code 3\.\nno commands here$/,
    );
    expect(read).toMatch(/^ {5}1\talpha/);
    expect(read).toMatch(
      /\n\n\[warning\] PostToolUse hook \(`echo "lint failed"; exit 1`\) exited with code 1:\nlint failed$/,
    );
    const all = events(res.stdout);
    expect(ofType(all, "tool.completed").map((e) => [e.name, e.status])).toEqual(
      expect.arrayContaining([
        ["run_command", "denied"],
        ["read_file", "ok"],
      ]),
    );
    expect(ofType(all, "tool.started").map((e) => e.name)).toEqual(["read_file"]);
    const hooks = ofType(all, "hook.completed");
    expect(hooks).toHaveLength(2);
    expect(hooks).toContainEqual(
      expect.objectContaining({
        tool: "run_command",
        event: "PreToolUse",
        exitCode: 3,
        outcome: "blocked",
        output: "no commands here",
      }),
    );
    expect(hooks).toContainEqual(
      expect.objectContaining({
        tool: "read_file",
        event: "PostToolUse",
        exitCode: 1,
        outcome: "warned",
        output: "lint failed",
      }),
    );
  });

  it("a passing hook lets the call run and gets the call as JSON on stdin and its names in the environment", {
    timeout: SLOW,
  }, async () => {
    const r = setup();
    const out = tempDir("nh-hook-out-");
    const record = `cat > "${out}/$NANOHERMES_HOOK_EVENT.json"; printf '%s %s %s' "$NANOHERMES_TOOL_NAME" "$NANOHERMES_HOOK_EVENT" "$NANOHERMES_WORKSPACE" > "${out}/$NANOHERMES_HOOK_EVENT.env"`;
    write(
      join(r.home, "config.json"),
      hooksConfig({
        PreToolUse: [{ matcher: "run_command", command: record }],
        PostToolUse: [{ matcher: "*", command: record }],
      }),
    );
    const res = await run(
      r,
      [toolReply([{ name: "run_command", args: { command: "echo ran > ran.txt; echo hi" } }]), textReply("ran")],
      ["--stream-json"],
    );
    expect(res.code).toBe(0);
    expect(readFileSync(join(r.ws, "ran.txt"), "utf8")).toBe("ran\n");
    const pre = JSON.parse(readFileSync(join(out, "PreToolUse.json"), "utf8")) as Record<string, unknown>;
    expect(pre).toMatchObject({
      tool: "run_command",
      event: "PreToolUse",
      arguments: { command: "echo ran > ran.txt; echo hi" },
    });
    const post = JSON.parse(readFileSync(join(out, "PostToolUse.json"), "utf8")) as Record<string, unknown>;
    expect(post).toMatchObject({
      tool: "run_command",
      event: "PostToolUse",
      status: "ok",
      arguments: { command: "echo ran > ran.txt; echo hi" },
    });
    expect(post.result).toContain("hi");
    expect(readFileSync(join(out, "PreToolUse.env"), "utf8")).toBe(`run_command PreToolUse ${r.ws}`);
    expect(readFileSync(join(out, "PostToolUse.env"), "utf8")).toBe(`run_command PostToolUse ${r.ws}`);
    expect(toolResults(1)[0]).not.toContain("[warning]");
    const hooks = ofType(events(res.stdout), "hook.completed");
    expect(hooks.map((e) => [e.event, e.outcome, e.exitCode])).toEqual([
      ["PreToolUse", "passed", 0],
      ["PostToolUse", "passed", 0],
    ]);
  });

  it("ignores a workspace config's hooks and servers without --trust, with a warning, and applies them with it", {
    timeout: SLOW,
  }, async () => {
    const r = setup();
    write(
      join(r.ws, ".nanohermes", "config.json"),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "run_command", command: "echo workspace hook says no; exit 1" }] },
        mcpServers: { wsev: everythingStdio() },
      }),
    );
    const untrusted = await run(
      r,
      [toolReply([{ name: "run_command", args: { command: "touch first.txt" } }]), textReply("ok")],
      [],
    );
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toMatch(
      /^warning: ignoring (mcpServers, hooks|hooks, mcpServers) from .*\.nanohermes\/config\.json: this workspace is not trusted/m,
    );
    expect(existsSync(join(r.ws, "first.txt"))).toBe(true);
    expect(toolNames(0).filter((n) => n.startsWith("mcp"))).toEqual([]);
    await server!.close();

    const trusted = await run(
      r,
      [toolReply([{ name: "run_command", args: { command: "touch second.txt" } }]), textReply("ok")],
      ["--trust"],
    );
    expect(trusted.code).toBe(0);
    expect(trusted.stderr).not.toContain("not trusted");
    expect(existsSync(join(r.ws, "second.txt"))).toBe(false);
    expect(toolResults(1)[0]).toMatch(/^Blocked by a PreToolUse hook .*exited with code 1\.\nworkspace hook says no$/);
    expect(toolNames(0)).toContain("mcp__wsev__echo");
  });
});

describe("skills", () => {
  const skill = (dir: string, name: string, description: string, body: string) =>
    write(join(dir, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);

  it("lists skills in the system prompt (workspace over user) and loads one with the skill tool", async () => {
    const r = setup();
    skill(
      join(r.ws, ".nanohermes", "skills"),
      "deploy",
      "Workspace deploy steps",
      "# Deploy\nRun make ship-it from the workspace.",
    );
    skill(join(r.home, "skills"), "deploy", "User deploy steps", "User body that must not win.");
    skill(join(r.ws, ".agents", "skills"), "review", "Review checklist", "Check the tests.");
    skill(join(r.osHome, ".agents", "skills"), "release", "Release from the OS home", "Tag it.");
    const res = await run(r, [toolReply([{ name: "skill", args: { name: "deploy" } }]), textReply("deployed")], []);
    expect(res.code).toBe(0);
    const prompt = systemPrompt();
    expect(prompt).toContain("# Skills");
    expect(prompt).toContain("- deploy: Workspace deploy steps");
    expect(prompt).toContain("- review: Review checklist");
    expect(prompt).toContain("- release: Release from the OS home");
    expect(prompt).not.toContain("User deploy steps");
    expect(toolNames(0)).toContain("skill");
    const [body] = toolResults(1);
    expect(body).toMatch(/^# Deploy\nRun make ship-it from the workspace\./);
    expect(body).toContain(`Skill "deploy" lives in ${join(r.ws, ".nanohermes", "skills", "deploy")}`);
    expect(body).not.toContain("User body");
  });

  it("offers no skill tool and no Skills section when there are no skills", async () => {
    const r = setup();
    const res = await run(r, [textReply("none")], []);
    expect(res.code).toBe(0);
    expect(toolNames(0)).not.toContain("skill");
    expect(systemPrompt()).not.toContain("# Skills");
  });
});

describe("AGENTS.md", () => {
  it("puts the workspace and global files into the system prompt, and --no-agents-md leaves them out", async () => {
    const r = setup();
    write(join(r.home, "AGENTS.md"), "Global rule: answer in haiku.\n");
    write(join(r.ws, "AGENTS.md"), "Workspace rule: run npm test before finishing.\n");
    const res = await run(r, [textReply("ok")], []);
    expect(res.code).toBe(0);
    const prompt = systemPrompt();
    expect(prompt).toContain("# Project instructions (AGENTS.md)");
    expect(prompt).toContain("Global rule: answer in haiku.");
    expect(prompt).toContain("Workspace rule: run npm test before finishing.");
    // The workspace file comes last, so it has the final word.
    expect(prompt.indexOf("Global rule")).toBeLessThan(prompt.indexOf("Workspace rule"));
    await server!.close();

    const without = await run(r, [textReply("ok")], ["--no-agents-md"]);
    expect(without.code).toBe(0);
    expect(systemPrompt()).not.toContain("Global rule");
    expect(systemPrompt()).not.toContain("Workspace rule");
    expect(systemPrompt()).not.toContain("AGENTS.md");
  });

  it("cuts a 30 KB AGENTS.md and says so", async () => {
    const r = setup();
    const line = "Keep functions small and name things well. ".repeat(2);
    const big = `HEAD-MARKER\n${`${line}\n`.repeat(Math.ceil(30_000 / (line.length + 1)))}TAIL-MARKER\n`;
    expect(big.length).toBeGreaterThan(30_000);
    const file = write(join(r.ws, "AGENTS.md"), big);
    const res = await run(r, [textReply("ok")], []);
    expect(res.code).toBe(0);
    const prompt = systemPrompt();
    expect(prompt).toContain("HEAD-MARKER");
    expect(prompt).not.toContain("TAIL-MARKER");
    expect(prompt).toContain(`[${file} cut at 20000 characters]`);
    expect(prompt.length).toBeLessThan(big.length);
    expect(res.stderr).toContain(`warning: ${file} is longer than 20000 characters; only the start is used`);
  });
});
