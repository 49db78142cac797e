// Issue 26.2: where no mount namespace can be made (simulated with the helper's --no-namespace,
// which fails exactly where a host without user namespaces does), the binds do not hold, so git run
// by commands and by the git_commit tool runs none of the repository's programs, and `sandbox
// status` says so. Real helper, real git; the same repository with the namespace runs its hook.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  describeSandbox,
  GIT_SWITCHED_OFF,
  helperPath,
  probeLandlock,
  probeProtect,
  sandboxArgv,
} from "../../src/sandbox/landlock.js";
import type { CommandSandbox } from "../../src/tools/define.js";
import { gitCommitTool } from "../../src/tools/git.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { callTool, testSession } from "../helpers/tools.js";

const repo = join(import.meta.dirname, "../..");
const dirs: string[] = [];
const fresh = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "nh-nons-")));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) spawnSync("rm", ["-rf", dir]);
});
let helper = "";
beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-native.mjs"], { cwd: repo, stdio: "pipe" });
  helper = helperPath() ?? "";
  expect(helper).not.toBe("");
  expect(probeProtect().mountNamespace, "the contrast needs the namespace on this host").toBe(true);
});

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};
const userGit = (cwd: string, ...args: string[]) => spawnSync("git", args, { cwd, encoding: "utf8", env: GIT_ENV });

/** A repository whose pre-commit hook and fsmonitor leave a mark in `marks/` when they run. */
function newRepo(): { ws: string; marks: string } {
  const ws = fresh();
  userGit(ws, "init", "-q", "-b", "main");
  writeFileSync(join(ws, "a.txt"), "a\n");
  userGit(ws, "add", "a.txt");
  userGit(ws, "commit", "-q", "-m", "first");
  const marks = join(ws, "marks");
  mkdirSync(marks);
  writeFileSync(join(ws, ".git/hooks/pre-commit"), `#!/bin/sh\ntouch ${marks}/hook\n`);
  chmodSync(join(ws, ".git/hooks/pre-commit"), 0o755);
  writeFileSync(join(ws, ".git/fsmonitor"), `#!/bin/sh\ntouch ${marks}/fsmonitor\n`);
  chmodSync(join(ws, ".git/fsmonitor"), 0o755);
  userGit(ws, "config", "core.fsmonitor", join(ws, ".git/fsmonitor"));
  writeFileSync(join(ws, ".gitignore"), "marks/\n");
  return { ws, marks };
}

/** The sandbox run_command uses; `namespace: false` is a host where the helper cannot make one. */
const sandboxOf = (ws: string, namespace: boolean): CommandSandbox => ({
  mode: "workspace-write",
  network: false,
  writableRoots: [],
  wrap: async (argv) => {
    const result = sandboxArgv({ mode: "workspace-write", workspace: ws, writableRoots: [], network: false }, argv);
    if ("refused" in result || namespace) return result;
    const [bin, ...rest] = result.argv;
    return { argv: [bin!, "--no-namespace", ...rest] };
  },
});

async function run(ws: string, command: string, namespace: boolean) {
  const session = testSession();
  try {
    return await callTool(runCommandTool, { command }, ws, undefined, {
      sandbox: sandboxOf(ws, namespace),
      session: session.session,
    });
  } finally {
    await session.close();
  }
}

const COMMIT =
  "git status --short >/dev/null; echo c > c.txt && git add c.txt && git -c user.name=t -c user.email=t@t commit -q -m second && echo committed";

describe("no mount namespace: git runs none of the repository's programs", () => {
  it("with the namespace the repository's hook and fsmonitor run (inside the sandbox)", async () => {
    const { ws, marks } = newRepo();
    const r = await run(ws, COMMIT, true);
    expect(r.forModel).toMatch(/committed/);
    expect(readdirSync(marks).sort()).toEqual(["fsmonitor", "hook"]);
  });

  it("without it, git in a command commits with no hook and no fsmonitor run", async () => {
    const { ws, marks } = newRepo();
    const r = await run(ws, `${COMMIT}; git config --get core.hooksPath`, false);
    expect(r.forModel).toMatch(/committed/);
    expect(r.forModel).toMatch(/^\/dev\/null$/m);
    expect(readdirSync(marks)).toEqual([]);
    expect(userGit(ws, "log", "-1", "--format=%s").stdout.trim()).toBe("second");
  });

  it("the settings the user gave through GIT_CONFIG_COUNT are kept, ours added after them", async () => {
    const { ws, marks } = newRepo();
    const saved = { ...process.env };
    Object.assign(process.env, { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "user.name", GIT_CONFIG_VALUE_0: "Given" });
    try {
      const r = await run(ws, "git config --get user.name; git config --get core.fsmonitor", false);
      expect(r.forModel).toMatch(/^Given$/m);
      expect(r.forModel).toMatch(/^false$/m);
    } finally {
      for (const key of ["GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0"]) delete process.env[key];
      Object.assign(process.env, saved);
    }
    expect(readdirSync(marks)).toEqual([]);
  });

  it("the git_commit tool too", async () => {
    const { ws, marks } = newRepo();
    writeFileSync(join(ws, "d.txt"), "d\n");
    const session = testSession();
    const r = await callTool(gitCommitTool, { message: "by the tool", paths: ["d.txt"] }, ws, undefined, {
      sandbox: sandboxOf(ws, false),
      session: session.session,
    });
    await session.close();
    expect(r.status).toBe("ok");
    expect(userGit(ws, "log", "-1", "--format=%s").stdout.trim()).toBe("by the tool");
    expect(readdirSync(marks)).toEqual([]);
  });

  it("sandbox status says so, and the helper's probe reports no namespace", () => {
    const out = JSON.parse(execFileSync(helper, ["--no-namespace", "--probe-protect"], { encoding: "utf8" })) as {
      mountNamespace: boolean;
      reason: string;
    };
    expect(out.mountNamespace).toBe(false);
    const text = describeSandbox({ helper, probe: probeLandlock(), protect: out }).join("\n");
    expect(text).toContain(GIT_SWITCHED_OFF);
    expect(describeSandbox({ helper, probe: probeLandlock() }).join("\n")).not.toContain(GIT_SWITCHED_OFF);
  });
});
