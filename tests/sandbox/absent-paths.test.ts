// Issue 26.2: protected paths that do not exist yet are protected before the fact. While a command
// runs, a harmless placeholder (an empty folder or file, a commondir of ".") is bound read-only where
// each would appear, so creating one fails inside the command; afterwards nothing is left in the
// user's tree. Real helper, real git, real npm; several helpers at once; a helper killed outright.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { helperPath, probeProtect, sandboxArgv } from "../../src/sandbox/landlock.js";
import type { CommandSandbox } from "../../src/tools/define.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { callTool, testSession } from "../helpers/tools.js";

const repo = join(import.meta.dirname, "../..");
const dirs: string[] = [];
const fresh = (prefix = "nh-absent-") => {
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
  expect(probeProtect().mountNamespace, "these tests need the mount namespace the binds use").toBe(true);
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

/** A repository with a submodule entry not checked out, a missing included config and a missing core.hooksPath. */
function newRepo(): string {
  const ws = fresh();
  userGit(ws, "init", "-q", "-b", "main");
  writeFileSync(join(ws, "a.txt"), "a\n");
  userGit(ws, "add", "a.txt");
  userGit(ws, "commit", "-q", "-m", "first");
  const head = userGit(ws, "rev-parse", "HEAD").stdout.trim();
  mkdirSync(join(ws, "sub"));
  userGit(ws, "update-index", "--add", "--cacheinfo", `160000,${head},sub`);
  userGit(ws, "commit", "-q", "-m", "sub");
  userGit(ws, "config", "include.path", "../extra.cfg");
  userGit(ws, "config", "core.hooksPath", ".githooks");
  return ws;
}

/** Every path that must stay absent in newRepo, and how a command would make each. */
const ABSENT = [
  [".git/commondir", "echo ../../evil > .git/commondir"],
  [".git/config.worktree", "printf '[core]\\n\\tfsmonitor = x\\n' > .git/config.worktree"],
  [".git/modules", "mkdir -p .git/modules/sub"],
  [".git/worktrees", "mkdir -p .git/worktrees/x"],
  [".nanohermes", "mkdir -p .nanohermes && echo '{}' > .nanohermes/config.json"],
  ["extra.cfg", "printf '[core]\\n\\tfsmonitor = x\\n' > extra.cfg"],
  [".githooks", "mkdir -p .githooks && echo x > .githooks/pre-commit"],
  ["sub/.git", "echo 'gitdir: ../evil' > sub/.git"],
] as const;

/** Each attempt prints `NAME=STATUS`, so a test can tell which one got through. */
const attempts = (list: readonly (readonly [string, string])[]) =>
  list.map(([name, command]) => `(${command}) 2>/dev/null; echo "${name}=$?"`).join("; ");

const sandboxOf = (ws: string): CommandSandbox => ({
  mode: "workspace-write",
  network: false,
  writableRoots: [],
  wrap: async (argv) =>
    sandboxArgv({ mode: "workspace-write", workspace: ws, writableRoots: [], network: false }, argv),
});

async function run(ws: string, command: string) {
  const session = testSession();
  try {
    return await callTool(runCommandTool, { command }, ws, undefined, {
      sandbox: sandboxOf(ws),
      session: session.session,
    });
  } finally {
    await session.close();
  }
}

const statuses = (out: string) =>
  Object.fromEntries([...out.matchAll(/^([^\s=]+)=(\d+)$/gm)].map((m) => [m[1], Number(m[2])]));

/** Resolves once `file` exists (the command's handshake), or rejects after `ms`. */
async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("protected paths that do not exist yet", () => {
  it("cannot be created by a command, and leave no placeholder behind", async () => {
    const ws = newRepo();
    const r = await run(ws, attempts(ABSENT));
    const got = statuses(r.forModel);
    for (const [name] of ABSENT) expect(got[name], `${name} was created inside the sandbox`).not.toBe(0);
    expect(r.forModel).not.toMatch(/protected paths/);
    for (const [name] of ABSENT) expect(existsSync(join(ws, name)), `${name} left behind`).toBe(false);
    expect(userGit(ws, "status", "--short").status).toBe(0);
  });

  it("keep the user's git working while the command runs: the placeholders are harmless to it", async () => {
    const ws = newRepo();
    const pending = run(ws, "touch ready; while [ ! -e go ]; do sleep 0.05; done; echo done");
    await until("the command", () => existsSync(join(ws, "ready")));
    // What another terminal sees meanwhile: a commondir naming the git dir itself, empty folders.
    expect(readFileSync(join(ws, ".git/commondir"), "utf8")).toBe(".\n");
    expect(existsSync(join(ws, ".nanohermes"))).toBe(true);
    expect(userGit(ws, "status", "--short").status).toBe(0);
    writeFileSync(join(ws, "b.txt"), "b\n");
    expect(userGit(ws, "add", "b.txt").status).toBe(0);
    expect(userGit(ws, "commit", "-q", "-m", "meanwhile").status).toBe(0);
    writeFileSync(join(ws, "go"), "");
    expect((await pending).forModel).toMatch(/done/);
    for (const [name] of ABSENT) expect(existsSync(join(ws, name)), `${name} left behind`).toBe(false);
    expect(userGit(ws, "log", "-1", "--format=%s").stdout.trim()).toBe("meanwhile");
  });

  it("git add, git commit, git worktree list and an offline npm install still work", async () => {
    const ws = newRepo();
    mkdirSync(join(ws, "vendor/dep"), { recursive: true });
    writeFileSync(join(ws, "vendor/dep/package.json"), '{"name":"dep","version":"1.0.0"}\n');
    writeFileSync(join(ws, "vendor/dep/index.js"), "module.exports = 42;\n");
    writeFileSync(
      join(ws, "package.json"),
      '{"name":"app","version":"1.0.0","dependencies":{"dep":"file:vendor/dep"}}\n',
    );
    const r = await run(
      ws,
      [
        "echo c > c.txt && git add c.txt && git -c user.name=t -c user.email=t@t commit -q -m second && echo commit=0",
        "git worktree list | wc -l",
        'npm install --offline --no-audit --no-fund --cache "$TMPDIR/npm-cache" >/dev/null 2>&1; echo npm=$?',
        "node -p 'require(\"dep\")'",
      ].join("; "),
    );
    expect(r.forModel).toMatch(/^commit=0$/m);
    expect(r.forModel).toMatch(/^1$/m);
    expect(r.forModel).toMatch(/^npm=0$/m);
    expect(r.forModel).toMatch(/^42$/m);
    expect(r.forModel).not.toMatch(/protected paths/);
    expect(userGit(ws, "log", "--format=%s").stdout.trim().split("\n")).toEqual(["second", "sub", "first"]);
    for (const [name] of ABSENT) expect(existsSync(join(ws, name)), `${name} left behind`).toBe(false);
  });

  it("with the workspace at $HOME, missing start-up files and ~/.ssh cannot be created either", async () => {
    const home = fresh("nh-home-");
    const saved = { HOME: process.env.HOME, NANOHERMES_HOME: process.env.NANOHERMES_HOME };
    process.env.HOME = home;
    process.env.NANOHERMES_HOME = join(home, ".nanohermes");
    try {
      const list = [
        [".bashrc", "echo evil > .bashrc"],
        [".profile", "echo evil > .profile"],
        [".zshenv", "echo evil > .zshenv"],
        [".ssh", "mkdir -p .ssh && echo 'ssh-rsa evil' > .ssh/authorized_keys"],
        [".gitconfig", "printf '[core]\\n\\tfsmonitor = x\\n' > .gitconfig"],
        [".nanohermes", "mkdir -p .nanohermes && echo '{}' > .nanohermes/config.json"],
      ] as const;
      const r = await run(home, attempts(list));
      const got = statuses(r.forModel);
      for (const [name] of list) expect(got[name], `${name} was created inside the sandbox`).not.toBe(0);
      for (const [name] of list) expect(existsSync(join(home, name)), `${name} left behind`).toBe(false);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it("two commands at once: the first to end leaves the other's placeholders in place, the last removes them", async () => {
    const ws = newRepo();
    const wait = (name: string) => `touch ${name}-ready; while [ ! -e ${name}-go ]; do sleep 0.05; done`;
    const a = run(ws, `${wait("a")}; echo a-ended`);
    await until("command a", () => existsSync(join(ws, "a-ready")));
    const b = run(ws, `${wait("b")}; ${attempts(ABSENT)}`);
    await until("command b", () => existsSync(join(ws, "b-ready")));
    writeFileSync(join(ws, "a-go"), "");
    expect((await a).forModel).toMatch(/a-ended/);
    // a has ended and its helper is gone; b's attempts come after that.
    expect(existsSync(join(ws, ".git/commondir"))).toBe(true);
    writeFileSync(join(ws, "b-go"), "");
    const rb = await b;
    const got = statuses(rb.forModel);
    for (const [name] of ABSENT) expect(got[name], `${name} was created inside the sandbox`).not.toBe(0);
    expect(rb.forModel).not.toMatch(/protected paths/);
    for (const [name] of ABSENT) expect(existsSync(join(ws, name)), `${name} left behind`).toBe(false);
  });

  it("placeholders a helper killed with SIGKILL left are swept by the next command's check, and the user's own empty files stay", async () => {
    const ws = newRepo();
    // The user's own empty folder where a placeholder would go: theirs, never swept.
    mkdirSync(join(ws, ".git/modules"));
    const result = sandboxArgv({ mode: "workspace-write", workspace: ws, writableRoots: [], network: false }, [
      "sleep",
      "60",
    ]);
    if (!("argv" in result)) throw new Error(result.refused);
    const [helper, ...args] = result.argv;
    const child = spawn(helper!, args, { cwd: ws, stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const made = ABSENT.filter(([n]) => n !== ".git/modules" && n !== "sub/.git");
    // Made and marked (a helper killed between the two leaves an entry nobody can tell from the user's).
    const marked = (name: string) =>
      Math.round(lstatSync(join(ws, name), { throwIfNoEntry: false })?.mtimeMs ?? 0) === 1234;
    await until("the placeholders", () => made.every(([name]) => marked(name)));
    child.kill("SIGKILL");
    await exited;
    expect(existsSync(join(ws, ".git/commondir"))).toBe(true);
    const r = await run(ws, "echo next");
    expect(r.forModel).toMatch(/next/);
    expect(r.forModel).not.toMatch(/protected paths/);
    for (const [name] of made) expect(existsSync(join(ws, name)), `${name} left behind`).toBe(false);
    expect(existsSync(join(ws, ".git/modules"))).toBe(true);
  });
});
