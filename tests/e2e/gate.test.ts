// Issue 25: one gate for every front end. The same five calls through each way of running the
// agent (one-shot text, --json, --stream-json, `tool`, subagents, the daemon with nobody attached,
// the UI): a blocked command is refused under --yolo, a dangerous one with nobody to ask, a deny
// rule holds, --approval untrusted with nobody to ask refuses, and a trusted `git status` runs
// rewritten (the repository's hostile fsmonitor never runs). The sandbox is off throughout: the
// gate alone stands in the way. Each refusal reaches the model, whose turn then ends normally.
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { daemonsStoppedAfterEach, http } from "../helpers/daemon.js";
import { mockModel } from "../helpers/e2e-env.js";
import { gitRepo } from "../helpers/git-repo.js";
import { textReply, toolReply, type MockServer, type RecordedRequest } from "../helpers/mock-openai.js";
import { keys, PtyApp } from "../helpers/pty.js";

const startDaemon = daemonsStoppedAfterEach();
let app: PtyApp | undefined;
afterEach(() => {
  if (app && app.exitCode === null) app.kill("SIGKILL");
  app = undefined;
});

/** A git repository with a victim folder and a hostile fsmonitor that leaves `pwned` behind. */
function hostileRepo(): string {
  const { ws, git } = gitRepo({ "a.txt": "a\n" });
  mkdirSync(join(ws, "victim"));
  writeFileSync(join(ws, "victim", "keep.txt"), "keep\n");
  const hook = join(ws, "monitor.sh");
  writeFileSync(hook, `#!/bin/sh\ntouch '${join(ws, "pwned")}'\nexit 1\n`);
  chmodSync(hook, 0o755);
  git("config", "core.fsmonitor", hook);
  return ws;
}

interface Case {
  name: string;
  command: string;
  flags: string[];
  /** What the tool result the model reads says. */
  says: RegExp;
  /** True when the call had its effect. */
  ran(ws: string): boolean;
  /** The call is meant to run (the trusted git status). */
  runs?: true;
}

const victimGone = (ws: string) => !existsSync(join(ws, "victim", "keep.txt"));

const cases: Case[] = [
  {
    name: "a blocked command is refused under --yolo",
    command: "rm -rf --no-preserve-root victim",
    flags: ["--yolo"],
    says: /^refused: refused in every mode: .*delete-root/,
    ran: victimGone,
  },
  {
    name: "a dangerous command is refused with nobody to ask",
    command: "chmod -R 777 victim",
    flags: [],
    says: /^not run: this call needs approval \(dangerous: .*\) and nobody can answer here\. To allow it, rerun with --yolo/,
    ran: (ws) => (statSync(join(ws, "victim")).mode & 0o777) === 0o777,
  },
  {
    name: "a deny rule holds, --yolo or not",
    command: "touch denied.txt",
    flags: ["--yolo"],
    says: /^refused: matches your deny rule `touch denied\*`/,
    ran: (ws) => existsSync(join(ws, "denied.txt")),
  },
  {
    name: "--approval untrusted refuses with nobody to ask",
    command: "touch u.txt",
    flags: ["--approval", "untrusted"],
    says: /^not run: this call needs approval \(untrusted policy: .*\) and nobody can answer here\. To allow it, rerun with --allow 'touch u\.txt' or --approval never/,
    ran: (ws) => existsSync(join(ws, "u.txt")),
  },
  {
    name: "a trusted git status runs rewritten, its fsmonitor never",
    command: "git status",
    flags: [],
    says: /On branch|nothing to commit|Untracked files/,
    ran: (ws) => existsSync(join(ws, "pwned")),
    runs: true,
  },
];

/** The deny rule comes from the user's config, as people write it. */
function envFor(url: string): Record<string, string | undefined> {
  const env = testEnv({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: url, NANOHERMES_MODEL: "m" });
  writeFileSync(join(env.NANOHERMES_HOME!, "config.json"), JSON.stringify({ deny: ["touch denied*"] }));
  return env;
}

const toolResult = (req: RecordedRequest | undefined) =>
  String((req?.messages as ChatMessage[] | undefined)?.find((m) => m.role === "tool")?.content ?? "");
const hasToolResult = (req: RecordedRequest) => (req.messages as ChatMessage[]).some((m) => m.role === "tool");

/** The model asks for `command` once, then answers with what the tool said. */
function scripted(command: string): Promise<MockServer> {
  return mockModel((req) =>
    hasToolResult(req) ? textReply("the model went on") : toolReply([{ name: "run_command", args: { command } }]),
  );
}

describe.each(["text", "json", "stream-json"] as const)("one-shot (%s)", (output) => {
  for (const c of cases) {
    it(c.name, async () => {
      const ws = hostileRepo();
      const mock = await scripted(c.command);
      const modeFlags = output === "text" ? [] : [`--${output}`];
      const r = await runCli(["-p", "go", "-C", ws, "--sandbox", "off", ...modeFlags, ...c.flags], {
        env: envFor(mock.url),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(c.ran(ws)).toBe(false);
      expect(toolResult(mock.requests[1])).toMatch(c.says);
      if (output === "text") expect(r.stdout).toBe("the model went on\n");
      if (output === "json") expect(JSON.parse(r.stdout)).toMatchObject({ reason: "completed" });
      if (c.runs) return;
      // The user sees the refusal too: on stderr here, in the event stream for a program reading it.
      if (output === "stream-json") {
        const events = r.stdout
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { type: string; status?: string; level?: string; text?: string });
        expect(events.find((e) => e.type === "tool.completed")?.status).toBe("denied");
        expect(events.some((e) => e.type === "notice" && e.level === "warn" && /run_command: /.test(e.text!))).toBe(
          true,
        );
        expect(events.at(-1)).toMatchObject({ type: "turn.completed", reason: "completed" });
      } else expect(r.stderr).toMatch(/warn(ing)?: run_command: (refused|not run)/);
    });
  }

  it("--allow pre-approves a command that would ask, and nothing else", async () => {
    const ws = hostileRepo();
    const mock = await mockModel((req) =>
      hasToolResult(req)
        ? textReply("done")
        : toolReply([
            { name: "run_command", args: { command: "mkdir -p made/deep" } },
            { name: "run_command", args: { command: "touch other.txt" } },
          ]),
    );
    const modeFlags = output === "text" ? [] : [`--${output}`];
    const r = await runCli(
      ["-p", "go", "-C", ws, "--sandbox", "off", "--approval", "untrusted", "--allow", "mkdir -p", ...modeFlags],
      { env: envFor(mock.url) },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(ws, "made", "deep"))).toBe(true);
    expect(existsSync(join(ws, "other.txt"))).toBe(false);
  });
});

describe("nanohermes tool, without a terminal", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const ws = hostileRepo();
      const r = await runCli(
        ["tool", "run_command", JSON.stringify({ command: c.command }), "-C", ws, "--sandbox", "off", ...c.flags],
        { env: envFor("http://127.0.0.1:9") },
      );
      expect(c.ran(ws)).toBe(false);
      expect(r.stdout).toMatch(c.says);
      expect(r.code).toBe(c.runs ? 0 : 1);
    });
  }
});

describe("nanohermes tool, on a terminal", () => {
  it("asks about a call that would ask, and runs it only on y", async () => {
    const ws = hostileRepo();
    const run = (answer: string) => {
      app = new PtyApp({
        cols: 100,
        rows: 20,
        cwd: ws,
        env: envFor("http://127.0.0.1:9"),
        args: ["tool", "run_command", JSON.stringify({ command: "chmod -R 777 victim" }), "--sandbox", "off"],
      });
      return (async () => {
        await app!.waitFor("Run it? [y/N]");
        expect(app!.screen()).toContain("chmod -R 777 victim");
        app!.type(`${answer}\r`);
        return app!.exit();
      })();
    };
    expect(await run("n")).toBe(1);
    expect(statSync(join(ws, "victim")).mode & 0o777).not.toBe(0o777);
    expect(await run("y")).toBe(0);
    expect(statSync(join(ws, "victim")).mode & 0o777).toBe(0o777);
  });
});

describe("subagents", () => {
  it("a child's calls pass the parent's gate: refused with nobody to ask, and both turns end normally", async () => {
    const ws = hostileRepo();
    const agentsFile = join(tempDir(), "agents.json");
    writeFileSync(
      agentsFile,
      JSON.stringify({ agents: { worker: { prompt: "You do things.", description: "does" } } }),
    );
    const isChild = (req: RecordedRequest) =>
      String((req.messages[0] as ChatMessage).content).includes('You are the subagent "worker"');
    const childResults: string[] = [];
    const mock = await mockModel((req) => {
      if (isChild(req)) {
        if (!hasToolResult(req))
          return toolReply([
            { name: "run_command", args: { command: "chmod -R 777 victim" } },
            { name: "run_command", args: { command: "rm -rf --no-preserve-root victim" } },
            { name: "run_command", args: { command: "git status" } },
          ]);
        childResults.push(
          ...(req.messages as ChatMessage[]).filter((m) => m.role === "tool").map((m) => String(m.content)),
        );
        return textReply("child: done");
      }
      return hasToolResult(req)
        ? textReply("parent: done")
        : toolReply([{ name: "subagent", args: { agent: "worker", task: "break things" } }]);
    });
    const r = await runCli(["-p", "go", "-C", ws, "--sandbox", "off", "--subagents", agentsFile], {
      env: envFor(mock.url),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("parent: done\n");
    expect(childResults[0]).toMatch(/^not run: this call needs approval \(dangerous/);
    expect(childResults[1]).toMatch(/^refused: refused in every mode/);
    expect(childResults[2]).toMatch(/On branch|nothing to commit|Untracked files/);
    expect(victimGone(ws)).toBe(false);
    expect((statSync(join(ws, "victim")).mode & 0o777) === 0o777).toBe(false);
    expect(existsSync(join(ws, "pwned"))).toBe(false);
  });
});

describe("the daemon with nobody attached", () => {
  it("refuses what would ask, blocks under --yolo, keeps deny rules, and runs git status rewritten", async () => {
    const ws = hostileRepo();
    const byPrompt: Record<string, string> = {
      blocked: "rm -rf --no-preserve-root victim",
      denied: "touch denied.txt",
      status: "git status",
    };
    const lastUser = (req: RecordedRequest) =>
      String((req.messages as ChatMessage[]).filter((m) => m.role === "user").at(-1)?.content ?? "");
    const mock = await mockModel((req) => {
      const last = (req.messages as ChatMessage[]).at(-1)!;
      if (last.role === "tool") return textReply(`tool said: ${String(last.content)}`);
      return toolReply([{ name: "run_command", args: { command: byPrompt[lastUser(req)] ?? lastUser(req) } }]);
    });
    const home = tempDir("nh-home-");
    writeFileSync(join(home, "config.json"), JSON.stringify({ deny: ["touch denied*"] }));
    const daemon = await startDaemon({ modelUrl: mock.url, workspace: ws, home, args: ["--yolo"] });
    const ask = async (text: string) =>
      (await http(daemon.url, "/", { body: JSON.stringify({ prompt: text }), headers: { "X-Session-Id": "g" } }))
        .json as { response: string; reason: string };
    const blocked = await ask("blocked");
    expect(blocked.response).toMatch(/^tool said: refused: refused in every mode/);
    expect(blocked.reason).toBe("completed");
    expect((await ask("denied")).response).toMatch(/^tool said: refused: matches your deny rule/);
    expect((await ask("status")).response).toMatch(/On branch|nothing to commit|Untracked files/);
    expect(victimGone(ws)).toBe(false);
    expect(existsSync(join(ws, "denied.txt"))).toBe(false);
    expect(existsSync(join(ws, "pwned"))).toBe(false);
  });

  it("refuses a dangerous command under the default policy, and every command under untrusted", async () => {
    const ws = hostileRepo();
    const mock = await mockModel((req) => {
      const last = (req.messages as ChatMessage[]).at(-1)!;
      if (last.role === "tool") return textReply(`tool said: ${String(last.content)}`);
      return toolReply([{ name: "run_command", args: { command: String(last.content) } }]);
    });
    const daemon = await startDaemon({ modelUrl: mock.url, workspace: ws, args: ["--approval", "untrusted"] });
    const ask = async (text: string) =>
      (await http(daemon.url, "/", { body: JSON.stringify({ prompt: text }), headers: { "X-Session-Id": "u" } }))
        .json as { response: string; reason: string };
    const dangerous = await ask("chmod -R 777 victim");
    expect(dangerous.response).toMatch(/^tool said: not run: this call needs approval \(dangerous/);
    expect(dangerous.reason).toBe("completed");
    expect((await ask("touch u.txt")).response).toMatch(/needs approval \(untrusted policy/);
    expect(existsSync(join(ws, "u.txt"))).toBe(false);
    expect(statSync(join(ws, "victim")).mode & 0o777).not.toBe(0o777);
  });
});

describe("the UI", () => {
  it("refuses a blocked command under --yolo without asking, and runs git status rewritten", async () => {
    const ws = hostileRepo();
    const mock = await mockModel([
      toolReply([
        { name: "run_command", args: { command: "rm -rf --no-preserve-root victim" } },
        { name: "run_command", args: { command: "touch denied.txt" } },
        { name: "run_command", args: { command: "git status" } },
      ]),
      textReply("the model went on"),
    ]);
    app = new PtyApp({ cols: 120, rows: 40, cwd: ws, env: envFor(mock.url), args: ["--yolo", "--sandbox", "off"] });
    await app.waitFor("Ask anything");
    await app.typeSlowly("go");
    app.type(keys.enter);
    await app.waitFor("the model went on");
    expect(app.screen()).not.toMatch(/Approval needed/);
    const results = (mock.requests[1]!.messages as ChatMessage[])
      .filter((m) => m.role === "tool")
      .map((m) => String(m.content));
    expect(results[0]).toMatch(/^refused: refused in every mode/);
    expect(results[1]).toMatch(/^refused: matches your deny rule/);
    expect(results[2]).toMatch(/On branch|nothing to commit|Untracked files/);
    expect(victimGone(ws)).toBe(false);
    expect(existsSync(join(ws, "pwned"))).toBe(false);
  });
});
