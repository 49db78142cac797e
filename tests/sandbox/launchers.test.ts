// Issue 26.4: the programs the user's hooks and MCP servers launch run outside the sandbox with the
// user's rights, so none may come from where a sandboxed command can write. Real processes.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HookRunner } from "../../src/hooks/hooks.js";
import { McpManager } from "../../src/mcp/manager.js";
import { launcherCwd, launcherPath, launcherProblem } from "../../src/sandbox/launchers.js";
import { tempDir } from "../helpers/cli.js";
import { waitFor } from "../helpers/wait.js";

/** A script that leaves a marker when it runs. */
function planted(dir: string, name: string, marker: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\ntouch ${marker}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe("hooks", () => {
  it.each([
    ["the README's own example", "./scripts/check-command.sh"],
    ["an interpreter running a workspace script", "bash $NANOHERMES_WORKSPACE/scripts/check-command.sh"],
    ["an absolute path into the workspace", "WS/scripts/check-command.sh"],
  ])("%s is refused with a message and never runs; the call is blocked", async (_, command) => {
    const ws = tempDir();
    const marks = tempDir();
    planted(join(ws, "scripts"), "check-command.sh", join(marks, "ran"));
    const runner = new HookRunner(
      [{ event: "PreToolUse", matcher: "*", command: command.replace("WS", ws), timeoutMs: 5_000 }],
      { workspace: ws, env: process.env, roots: [ws] },
    );
    const outcome = await runner.pre("run_command", { command: "ls" });
    expect(outcome.blocked).toBe(true);
    expect(outcome.runs[0]!.stderr).toMatch(
      /refused to start the hook: .*inside a folder sandboxed commands can write/,
    );
    expect(existsSync(join(marks, "ran"))).toBe(false);
  });

  it("start outside the writable roots, with no PATH entry into them", async () => {
    const ws = tempDir();
    const marks = tempDir();
    planted(join(ws, "node_modules/.bin"), "lint", join(marks, "ran"));
    const env = { ...process.env, PATH: `./node_modules/.bin:${join(ws, "node_modules/.bin")}:${process.env.PATH}` };
    const runner = new HookRunner([{ event: "PostToolUse", matcher: "*", command: "pwd; lint", timeoutMs: 5_000 }], {
      workspace: ws,
      env,
      roots: [ws],
    });
    const { runs } = await runner.post("write_file", {}, { status: "ok", forModel: "" });
    expect(runs[0]!.stdout.trim()).toBe(launcherCwd([ws]));
    expect(existsSync(join(marks, "ran"))).toBe(false);
    expect(launcherPath(env.PATH, [ws]).split(":")).not.toContain(join(ws, "node_modules/.bin"));
  });
});

describe("MCP servers", () => {
  it("a server whose program resolves into the workspace (node_modules/.bin, as npx would pick) never starts", async () => {
    const ws = tempDir();
    const marks = tempDir();
    const bin = planted(join(ws, "node_modules/.bin"), "planted-server", join(marks, "ran"));
    expect(launcherProblem("node", [bin], { workspace: ws, roots: [ws], env: process.env })).toMatch(/inside a folder/);
    // Inline code is no script file: `node -e CODE` is judged by its program alone, whatever paths
    // the code names; a script after options still is one.
    const opts = { workspace: ws, roots: [ws], env: process.env };
    expect(launcherProblem("node", ["-e", `import("${bin}")`, ws], opts)).toMatch(/inside a folder/);
    expect(launcherProblem("node", ["-e", `import("/usr/lib/x.js")`, ws], opts)).toBeNull();
    expect(launcherProblem("python3", ["-c", "print(1)", "a/b"], opts)).toBeNull();
    expect(launcherProblem("node", ["--no-warnings", bin], opts)).toMatch(/inside a folder/);
    const manager = new McpManager(
      [
        {
          name: "a",
          transport: "stdio",
          command: bin,
          args: [],
          env: {},
          trust: false,
          timeoutMs: 5_000,
          startupTimeoutMs: 3_000,
        },
        // Found only through a PATH entry into the workspace: that entry is dropped.
        {
          name: "b",
          transport: "stdio",
          command: "planted-server",
          args: [],
          env: { PATH: `${join(ws, "node_modules/.bin")}:/usr/bin:/bin` },
          trust: false,
          timeoutMs: 5_000,
          startupTimeoutMs: 3_000,
        },
        // npx in the workspace would find the planted package: a cwd there is refused.
        {
          name: "c",
          transport: "stdio",
          command: "npx",
          args: ["-y", "@scope/server"],
          env: {},
          cwd: ws,
          trust: false,
          timeoutMs: 5_000,
          startupTimeoutMs: 3_000,
        },
      ],
      { logDir: null, version: "test", workspace: ws, roots: [ws], retry: { baseMs: 10, maxAttempts: 1 } },
    );
    manager.start();
    // Every server settled (refused or failed to start): none of them can run "ran" afterwards.
    await waitFor(() => manager.statuses().every((s) => s.state !== "connecting" && s.state !== "restarting"), {
      what: "the three servers settled",
    });
    const statuses = manager.statuses();
    await manager.close();
    expect(existsSync(join(marks, "ran"))).toBe(false);
    const byName = Object.fromEntries(statuses.map((s) => [s.name, s]));
    expect(byName.a?.state).toBe("failed");
    expect(byName.a?.error).toMatch(/refused to start MCP server a: .*inside a folder sandboxed commands can write/);
    expect(byName.c?.error).toMatch(/cwd .* lies in a folder sandboxed commands can write/);
    expect(byName.b?.state).not.toBe("ready");
  });
});
