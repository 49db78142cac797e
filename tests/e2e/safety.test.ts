// Workspace trust, secrets kept out of every artifact, and the write boundary of file tools.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { startMockServer, textReply, toolReply } from "../helpers/mock-openai.js";

function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...allFiles(p));
    else out.push(p);
  }
  return out;
}

describe("workspace trust", () => {
  it("an untrusted workspace cannot redirect the endpoint; --trust honours it", async () => {
    const { mock } = await e2eEnv([textReply("from the real endpoint"), textReply("from the workspace endpoint")]);
    const decoy = await startMockServer([textReply("the decoy got the key")]);
    try {
      const ws = tempDir();
      mkdirSync(join(ws, ".nanohermes"));
      writeFileSync(join(ws, ".nanohermes", "config.json"), JSON.stringify({ baseUrl: decoy.url, model: "ws-model" }));
      // The user's own endpoint is in their config; the workspace tries to override it.
      const env = testEnv({ OPENAI_API_KEY: "sk-secret-abcdefgh" });
      writeFileSync(join(env.NANOHERMES_HOME!, "config.json"), JSON.stringify({ baseUrl: mock.url }));
      const r = await runCli(["-p", "hi", "-C", ws], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("from the real endpoint\n");
      expect(r.stderr).toMatch(/warning: ignoring baseUrl from .*: this workspace is not trusted/);
      expect(decoy.requests).toHaveLength(0);
      // The harmless key (model) still applies.
      expect(mock.requests[0]!.model).toBe("ws-model");
      const trusted = await runCli(["-p", "hi", "-C", ws, "--trust"], { env });
      expect(trusted.stdout).toBe("the decoy got the key\n");
      expect(decoy.requests).toHaveLength(1);
    } finally {
      await decoy.close();
    }
  });

  it("an untrusted workspace cannot lift the user's read-only sandbox, and may still turn the network off", async () => {
    const reply = () => {
      // The mock model's own port: with the network off, even loopback TCP is refused.
      const port = new URL(mock.url).port;
      return toolReply([
        {
          name: "run_command",
          args: {
            command: `touch made.txt; echo touch=$?; (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null; echo net=$?`,
          },
        },
      ]);
    };
    const { mock, env } = await e2eEnv([reply, textReply("done"), reply, textReply("done")]);
    const ws = tempDir();
    mkdirSync(join(ws, ".nanohermes"));
    writeFileSync(
      join(ws, ".nanohermes", "config.json"),
      JSON.stringify({ sandbox: { mode: "workspace-write", network: false }, mode: "goal" }),
    );
    writeFileSync(
      join(env.NANOHERMES_HOME!, "config.json"),
      JSON.stringify({ sandbox: { mode: "read-only", network: true } }),
    );
    // --yolo: the probe of the network writes to /dev/tcp, a dangerous command the gate would refuse
    // with nobody to ask; here the sandbox alone is under test.
    const r = await runCli(["-p", "go", "-C", ws, "--yolo"], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning: ignoring mode, sandbox\.mode from .*config\.json: this workspace is not trusted/,
    );
    // The stricter network key is not in the warning: it applies.
    expect(r.stderr).not.toMatch(/sandbox\.network/);
    const result = (mock.requests[1]!.messages as { role: string; content: string }[]).find(
      (m) => m.role === "tool",
    )!.content;
    expect(result).toMatch(/touch=1/);
    expect(result).toMatch(/net=1/);
    expect(existsSync(join(ws, "made.txt"))).toBe(false);
    // Trusted, the workspace's own sandbox applies.
    expect((await runCli(["-p", "go", "-C", ws, "--trust", "--yolo"], { env })).code).toBe(0);
    expect(existsSync(join(ws, "made.txt"))).toBe(true);
  });
});

describe("secrets", () => {
  it("the API key appears in no session file, event, export or log, even when a command prints the environment", async () => {
    const secret = "sk-live-0123456789abcdef";
    // The model echoes whatever it was given: the prompt, and the command's output.
    const echo = (req: { messages: unknown[] }) => JSON.stringify(req.messages);
    const { mock, env } = await e2eEnv(
      [
        (req) => ({
          ...toolReply([
            { name: "run_command", args: { command: "env; echo KEY=$OPENAI_API_KEY" } },
            { name: "write_file", args: { path: "echo.txt", content: echo(req) } },
          ]),
        }),
        (req) => textReply(`I was told: ${echo(req)}`),
      ],
      { key: secret },
    );
    const ws = tempDir();
    const r = await runCli(["-p", `remember ${secret}`, "-C", ws, "--stream-json", "--session", join(ws, "s.json")], {
      env,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(secret);
    expect(r.stdout).toContain("[redacted]");
    const commandResult = (mock.requests[1]!.messages as { role: string; content: string }[]).find(
      (m) => m.role === "tool",
    )!.content;
    expect(commandResult).toMatch(/^KEY=$/m);
    expect(commandResult).not.toMatch(/OPENAI_API_KEY=/);
    const exported = await runCli(["tool", "read_file", JSON.stringify({ path: "s.json" }), "-C", ws], { env });
    expect(exported.stdout).not.toContain(secret);
    for (const file of [...allFiles(env.NANOHERMES_HOME!), join(ws, "s.json")]) {
      expect(readFileSync(file, "utf8"), file).not.toContain(secret);
    }
  });
});

describe("write boundary of file tools", () => {
  it("refuses .git/hooks, .git/config and .nanohermes inside the workspace unless allowed", async () => {
    const ws = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: ws });
    for (const path of [".git/hooks/pre-commit", ".git/config", ".nanohermes/config.json"]) {
      const r = await runCli(["tool", "write_file", JSON.stringify({ path, content: "x" }), "-C", ws]);
      expect(r.code, path).toBe(1);
      expect(r.stdout).toMatch(/is protected/);
    }
    expect(existsSync(join(ws, ".git/hooks/pre-commit"))).toBe(false);
    const home = tempDir("nh-home-");
    writeFileSync(join(home, "config.json"), JSON.stringify({ allowProtectedWrites: true }));
    const allowed = await runCli(
      ["tool", "write_file", JSON.stringify({ path: ".git/hooks/pre-commit", content: "x" }), "-C", ws],
      { env: testEnv({ NANOHERMES_HOME: home }) },
    );
    expect(allowed.code).toBe(0);
  });

  it("a read-only sandbox refuses every write by the file tools", async () => {
    const ws = tempDir();
    const r = await runCli([
      "tool",
      "write_file",
      JSON.stringify({ path: "a.txt", content: "x" }),
      "-C",
      ws,
      "--sandbox",
      "read-only",
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/the sandbox is read-only/);
    expect(existsSync(join(ws, "a.txt"))).toBe(false);
  });

  it("extra writable roots are writable, other outside paths are not", async () => {
    const ws = tempDir();
    const extra = tempDir("nh-extra-");
    const ok = await runCli([
      "tool",
      "write_file",
      JSON.stringify({ path: join(extra, "a.txt"), content: "x" }),
      "-C",
      ws,
      "--writable",
      extra,
    ]);
    expect(ok.code).toBe(0);
    const other = tempDir("nh-other-");
    const no = await runCli([
      "tool",
      "write_file",
      JSON.stringify({ path: join(other, "a.txt"), content: "x" }),
      "-C",
      ws,
      "--writable",
      extra,
    ]);
    expect(no.code).toBe(1);
  });
});

describe("commands under the sandbox", () => {
  it("by default (auto) a command cannot write outside the workspace and temp dir; --sandbox off can", async () => {
    const outside = join("/var/tmp", `nh-outside-${process.pid}-${Date.now()}`);
    const command = `echo inside > in.txt; touch ${outside}; echo touch=$?`;
    const { mock, env } = await e2eEnv([
      toolReply([{ name: "run_command", args: { command } }]),
      textReply("done"),
      toolReply([{ name: "run_command", args: { command } }]),
      textReply("done"),
    ]);
    const ws = tempDir();
    expect((await runCli(["-p", "go", "-C", ws], { env })).code).toBe(0);
    const sandboxed = (mock.requests[1]!.messages as { role: string; content: string }[]).find(
      (m) => m.role === "tool",
    )!.content;
    expect(sandboxed).toMatch(/Permission denied/);
    expect(sandboxed).toMatch(/touch=1/);
    expect(existsSync(outside)).toBe(false);
    expect(readFileSync(join(ws, "in.txt"), "utf8")).toBe("inside\n");
    expect((await runCli(["-p", "go", "-C", ws, "--sandbox", "off"], { env })).code).toBe(0);
    expect(existsSync(outside)).toBe(true);
    execFileSync("rm", ["-f", outside]);
  });

  it("a command that plants an fsmonitor and a hook leaves nothing the user's next git runs, and the model is told", async () => {
    const ws = tempDir();
    const marks = tempDir("nh-marks-");
    const gitEnv = {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    };
    execFileSync("git", ["init", "-q"], { cwd: ws, env: gitEnv });
    execFileSync("git", ["commit", "-q", "--allow-empty", "-m", "one"], { cwd: ws, env: gitEnv });
    const command = `git config core.fsmonitor "touch ${marks}/fsmonitor"; printf '#!/bin/sh\\ntouch ${marks}/hook\\n' > .git/hooks/post-checkout; chmod +x .git/hooks/post-checkout; echo '../x' > .git/commondir; true`;
    const { mock, env } = await e2eEnv([toolReply([{ name: "run_command", args: { command } }]), textReply("done")]);
    expect((await runCli(["-p", "go", "-C", ws], { env })).code).toBe(0);
    const result = (mock.requests[1]!.messages as { role: string; content: string }[]).find(
      (m) => m.role === "tool",
    )!.content;
    // Protected before the fact (issue 26): the writes fail inside the command, and the model reads why.
    expect(result).toMatch(/\.git\/commondir: Read-only file system/);
    expect(result).toMatch(/\.git\/hooks\/post-checkout: Read-only file system/);
    // The read-only placeholder that stood for the absent commondir is gone once the command ended.
    expect(existsSync(join(ws, ".git", "commondir"))).toBe(false);
    execFileSync("git", ["status"], { cwd: ws, env: gitEnv, stdio: "ignore" });
    execFileSync("git", ["checkout", "-q", "-b", "later"], { cwd: ws, env: gitEnv, stdio: "ignore" });
    expect(readdirSync(marks)).toEqual([]);
  });

  it("an explicit sandbox that cannot be applied refuses the command in one line, never runs it", async () => {
    // A copy of the program without the built helper beside it.
    const copy = tempDir("nh-nohelper-");
    execFileSync("cp", ["-r", join(import.meta.dirname, "../../dist"), join(copy, "dist")]);
    writeFileSync(join(copy, "package.json"), JSON.stringify({ name: "nanohermes", version: "0.0.0", type: "module" }));
    const ws = tempDir();
    const { spawnSync } = await import("node:child_process");
    const r = spawnSync(
      process.execPath,
      [
        join(copy, "dist/cli.js"),
        "tool",
        "run_command",
        JSON.stringify({ command: "touch made.txt" }),
        "-C",
        ws,
        "--sandbox",
        "workspace-write",
      ],
      { encoding: "utf8", env: testEnv() as NodeJS.ProcessEnv },
    );
    expect(r.status).toBe(1);
    expect(r.stdout.trim()).toBe(
      "sandbox workspace-write refused: the sandbox helper was not built (no C compiler at install?); run `npm run build:native` or use --sandbox off",
    );
    expect(existsSync(join(ws, "made.txt"))).toBe(false);
    const status = spawnSync(process.execPath, [join(copy, "dist/cli.js"), "sandbox", "status"], { encoding: "utf8" });
    expect(status.stdout).toMatch(/not built/);
  });
});
