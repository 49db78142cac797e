// Issue 26.3: the check after a command has no blind spots. No silent cap on the walk (padding
// entries cannot hide a hook), and one guard per workspace across sessions and processes (a second
// command never takes the first one's plant as its "before" and puts it back). Real helper, real git.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { helperPath, sandboxArgv } from "../../src/sandbox/landlock.js";
import type { CommandSandbox } from "../../src/tools/define.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { callTool, testSession } from "../helpers/tools.js";
import { waitFor } from "../helpers/wait.js";

const repo = join(import.meta.dirname, "../..");
const dirs: string[] = [];
const fresh = (prefix = "nh-guard-") => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) spawnSync("rm", ["-rf", dir]);
});
beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-native.mjs"], { cwd: repo, stdio: "pipe" });
  expect(helperPath()).not.toBeNull();
});

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
const userGit = (cwd: string, ...args: string[]) => spawnSync("git", args, { cwd, encoding: "utf8", env: GIT_ENV });

function newRepo(): string {
  const ws = fresh();
  userGit(ws, "init", "-q", "-b", "main");
  writeFileSync(join(ws, "a.txt"), "a\n");
  userGit(ws, "add", "a.txt");
  userGit(ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first");
  return ws;
}

const PROTECT_ARG = /^--(pin|protect|placeholder|absent-file|absent-dir)$/;

/** The sandbox without the helper's binds: the check after the command is the layer under test. */
function checkOnly(ws: string): CommandSandbox {
  return {
    mode: "workspace-write",
    network: true,
    writableRoots: [],
    wrap: async (argv) => {
      const result = sandboxArgv({ mode: "workspace-write", workspace: ws, writableRoots: [], network: true }, argv);
      if ("refused" in result) return result;
      // --no-namespace: the helper behaves as on a host where no mount namespace can be made.
      const [helper, ...rest] = result.argv.filter(
        (a, i, all) => !PROTECT_ARG.test(a) && !PROTECT_ARG.test(all[i - 1] ?? ""),
      );
      return { argv: [helper!, "--no-namespace", ...rest] };
    },
  };
}

async function run(ws: string, command: string) {
  const session = testSession();
  try {
    return await callTool(runCommandTool, { command }, ws, undefined, {
      sandbox: checkOnly(ws),
      session: session.session,
    });
  } finally {
    await session.close();
  }
}

describe("no silent cap", () => {
  it("a hook behind 5,100 padding entries is found and removed, padding and all", async () => {
    const ws = newRepo();
    const marks = fresh("nh-marks-");
    const r = await run(
      ws,
      `cd .git/hooks && seq -f 'aaa%05g' 5100 | xargs touch && printf '#!/bin/sh\\ntouch ${marks}/hook\\n' > post-checkout && chmod +x post-checkout; ls | wc -l`,
    );
    expect(r.forModel).toMatch(/^51\d\d$/m);
    expect(r.forModel).toMatch(/hooks\/post-checkout \(created, removed\)/);
    expect(existsSync(join(ws, ".git/hooks/post-checkout"))).toBe(false);
    expect(readdirSync(join(ws, ".git/hooks")).filter((n) => !n.endsWith(".sample"))).toEqual([]);
    userGit(ws, "checkout", "-q", "-b", "later");
    expect(readdirSync(marks)).toEqual([]);
  });

  it("a protected folder already past the limit refuses the command, with a notice", async () => {
    const ws = newRepo();
    execFileSync("sh", ["-c", "mkdir -p .git/info/pad && cd .git/info/pad && seq -f 'p%05g' 20001 | xargs touch"], {
      cwd: ws,
    });
    const r = await run(ws, "echo ran");
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(/not run: the protected paths hold more than 20000 entries/);
    expect(r.forModel).not.toMatch(/^ran$/m);
  });
});

describe("a workspace turned into a git directory", () => {
  it("loses the HEAD that made it one, so the user's next git there runs nothing", async () => {
    const ws = fresh();
    const marks = fresh("nh-marks-");
    const r = await run(
      ws,
      `git init -q --bare . && git config core.bare false && git config core.worktree . && git config core.fsmonitor "touch ${marks}/fsmonitor"; true`,
    );
    expect(r.forModel).toMatch(/HEAD in .* \(it made the folder a git directory; removed\)/);
    userGit(ws, "status");
    expect(readdirSync(marks)).toEqual([]);
    // A plain git init (a .git folder) is not this.
    const plain = fresh();
    expect((await run(plain, "git init -q && echo ok")).forModel).not.toMatch(/protected paths/);
  });
});

describe("one guard per workspace", () => {
  it("a second session's command does not put back what the first one's check removed", async () => {
    const ws = newRepo();
    const a = run(ws, "echo ../../evil > .git/commondir; sleep 2");
    await waitFor(() => existsSync(join(ws, ".git/commondir")), { what: "the first command planted .git/commondir" });
    const b = run(ws, "sleep 2.5");
    const [ra] = await Promise.all([a, b]);
    expect(ra.forModel).toMatch(/\.git\/commondir \(created, removed\)/);
    expect(existsSync(join(ws, ".git/commondir"))).toBe(false);
  });

  it("nor does another process's command (nanohermes sandbox run), either way round", async () => {
    const ws = newRepo();
    const cli = join(repo, "dist/cli.js");
    // Without the binds in the other process too: its own helper gets --protect, so plant in a
    // path the binds do not cover before it exists (.git/commondir) from the in-process command.
    const a = run(ws, "echo ../../evil > .git/commondir; sleep 2");
    await waitFor(() => existsSync(join(ws, ".git/commondir")), { what: "the first command planted .git/commondir" });
    const other = spawn(
      process.execPath,
      [cli, "sandbox", "run", "--mode", "workspace-write", "-C", ws, "--", "sleep", "2.5"],
      {
        cwd: ws,
        stdio: "ignore",
      },
    );
    const otherDone = new Promise((resolve) => other.on("exit", resolve));
    await Promise.all([a, otherDone]);
    expect(existsSync(join(ws, ".git/commondir"))).toBe(false);
  });
});
