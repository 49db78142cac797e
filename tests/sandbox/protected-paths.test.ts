// Issue 14.3: a sandboxed command cannot plant code that runs later outside the sandbox. Real
// helper, real git, real files: each layer alone (the helper's read-only binds; the check after
// the command) and both together, proven with marker files the planted hooks would create.
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  describeSandbox,
  helperPath,
  probeProtect,
  PROTECT_NOT_COVERED,
  sandboxArgv,
} from "../../src/sandbox/landlock.js";
import { protectArgs, protectedSet } from "../../src/sandbox/protected.js";
import type { CommandSandbox } from "../../src/tools/define.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { taskOutputTool } from "../../src/tools/task-tools.js";
import { callTool, testSession } from "../helpers/tools.js";

const repo = join(import.meta.dirname, "../..");
const dirs: string[] = [];
const fresh = (prefix = "nh-protect-") => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) spawnSync("rm", ["-rf", dir]);
});

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-native.mjs"], { cwd: repo, stdio: "pipe" });
  expect(helperPath(), "the helper must build here").not.toBeNull();
});

/** Git as the user runs it later: unsandboxed, with no help from us. */
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

function newRepo(): string {
  const ws = fresh();
  userGit(ws, "init", "-q", "-b", "main");
  writeFileSync(join(ws, "a.txt"), "a\n");
  userGit(ws, "add", "a.txt");
  expect(userGit(ws, "commit", "-q", "-m", "first").status).toBe(0);
  return ws;
}

/** The sandbox run_command uses; `mounts: false` strips the helper's binds (a host without namespaces). */
function sandboxOf(ws: string, mounts = true): CommandSandbox {
  return {
    mode: "workspace-write",
    network: true,
    writableRoots: [],
    wrap: async (argv) => {
      const result = sandboxArgv({ mode: "workspace-write", workspace: ws, writableRoots: [], network: true }, argv);
      if ("refused" in result || mounts) return result;
      // --no-namespace: the helper behaves as on a host where no mount namespace can be made.
      const out: string[] = [result.argv[0]!, "--no-namespace"];
      for (let i = 1; i < result.argv.length; i++) {
        const arg = result.argv[i]!;
        if (/^--(pin|protect|placeholder|absent-file|absent-dir)$/.test(arg)) i++;
        else out.push(arg);
      }
      return { argv: out };
    },
  };
}

async function run(ws: string, command: string, mounts = true) {
  const session = testSession();
  const r = await callTool(runCommandTool, { command }, ws, undefined, {
    sandbox: sandboxOf(ws, mounts),
    session: session.session,
  });
  await session.close();
  return r;
}

/** Plants an fsmonitor (both ways), a post-checkout and a pre-commit hook, and an alias. */
const plant = (marks: string) =>
  [
    `git config core.fsmonitor "touch ${marks}/fsmonitor"`,
    `printf '[core]\\n\\tfsmonitor = touch ${marks}/fsmonitor-edit\\n' >> .git/config`,
    `printf '#!/bin/sh\\ntouch ${marks}/post-checkout\\n' > .git/hooks/post-checkout; chmod +x .git/hooks/post-checkout`,
    `mkdir -p .git/hooks; printf '#!/bin/sh\\ntouch ${marks}/pre-commit\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit`,
    `git config alias.st '!touch ${marks}/alias'`,
    `echo '#!/bin/sh' > .git/commondir-not; echo ../../evil > .git/commondir`,
    "true",
  ].join("; ");

/** Runs what the user would run next, unsandboxed, and returns the markers any planted code made. */
function afterwards(ws: string, marks: string): string[] {
  userGit(ws, "status");
  userGit(ws, "checkout", "-q", "-b", "later");
  writeFileSync(join(ws, "b.txt"), "b\n");
  userGit(ws, "add", "b.txt");
  userGit(ws, "commit", "-q", "-m", "later");
  userGit(ws, "st");
  return readdirSync(marks);
}

describe.each([
  { layers: "both layers (read-only binds and the check after)", mounts: true },
  { layers: "the check after the command alone (no mount namespace)", mounts: false },
])("$layers", ({ mounts }) => {
  it("an fsmonitor, hooks, an alias and a commondir planted by a command never run in the user's later git", async () => {
    if (mounts) expect(probeProtect().mountNamespace).toBe(true);
    const ws = newRepo();
    const marks = fresh("nh-marks-");
    const configBefore = readFileSync(join(ws, ".git/config"));
    const r = await run(ws, plant(marks), mounts);
    // With the binds the writes fail inside; without them they land and are reverted after.
    if (!mounts) {
      expect(r.forModel).toMatch(/\[protected paths\].*Reverted: .*\.git\/config \(changed, restored\)/s);
      expect(r.forModel).toMatch(/\.git\/hooks\/post-checkout \(created, removed\)/);
      expect(r.forModel).toMatch(/\.git\/commondir \(created, removed\)/);
    } else {
      expect(r.forModel).toMatch(/Device or resource busy|Read-only file system/);
    }
    expect(readFileSync(join(ws, ".git/config")).equals(configBefore)).toBe(true);
    expect(existsSync(join(ws, ".git/hooks/post-checkout"))).toBe(false);
    expect(existsSync(join(ws, ".git/commondir"))).toBe(false);
    expect(afterwards(ws, marks)).toEqual([]);
    // The user's own later commit worked: the repository is intact.
    expect(userGit(ws, "log", "--oneline").stdout.trim().split("\n")).toHaveLength(2);
  });

  it("git add and git commit still work inside the sandbox", async () => {
    const ws = newRepo();
    const r = await run(
      ws,
      "echo c > c.txt && git add c.txt && git -c user.name=t -c user.email=t@t commit -q -m second && git log --oneline | wc -l",
      mounts,
    );
    expect(r.forModel).toMatch(/exit code 0/);
    expect(r.forModel).not.toMatch(/protected paths/);
    expect(userGit(ws, "log", "--format=%s").stdout.trim().split("\n")).toEqual(["second", "first"]);
  });

  it("replacing .git by a rename fails (binds) or is reverted (check after), and nothing planted runs", async () => {
    const ws = newRepo();
    const marks = fresh("nh-marks-");
    const command = `mv .git .git-away; echo mv=$?; git init -q; git config core.fsmonitor "touch ${marks}/fsmonitor"; printf '#!/bin/sh\\ntouch ${marks}/hook\\n' > .git/hooks/post-checkout; chmod +x .git/hooks/post-checkout; true`;
    const r = await run(ws, command, mounts);
    if (mounts) {
      expect(r.forModel).toMatch(/mv=1/);
      expect(userGit(ws, "log", "--oneline").stdout.trim()).toMatch(/first/);
    } else {
      expect(r.forModel).toMatch(/mv=0/);
      expect(r.forModel).toMatch(/\[protected paths\]/);
    }
    expect(afterwards(ws, marks)).toEqual([]);
  });

  it("a linked worktree: refused under the binds (.git/worktrees stays absent); without them it works and a commondir leading to planted config is removed", async () => {
    const ws = newRepo();
    const marks = fresh("nh-marks-");
    if (mounts) {
      const r = await run(ws, "git worktree add -q wt -b side; echo add=$?", mounts);
      expect(r.forModel).toMatch(/Read-only file system[\s\S]*add=[1-9]|add=[1-9][\s\S]*Read-only file system/);
      expect(r.forModel).not.toMatch(/protected paths/);
      expect(existsSync(join(ws, ".git/worktrees"))).toBe(false);
      expect(userGit(ws, "worktree", "list").stdout.trim().split("\n")).toHaveLength(1);
      return;
    }
    const ok = await run(
      ws,
      "git worktree add -q wt -b side && git -C wt -c user.name=t -c user.email=t@t commit -q --allow-empty -m side && echo made",
      mounts,
    );
    expect(ok.forModel).toMatch(/made/);
    expect(ok.forModel).not.toMatch(/protected paths/);
    expect(userGit(join(ws, "wt"), "log", "-1", "--format=%s").stdout.trim()).toBe("side");

    const evil = `git worktree add -q wt2 -b other && mkdir -p evil && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = touch ${marks}/fsmonitor\\n' > evil/config && echo $PWD/evil > .git/worktrees/wt2/commondir; true`;
    const r = await run(ws, evil, mounts);
    expect(r.forModel).toMatch(/\.git\/worktrees\/wt2 \(created; kept, removed .*commondir/);
    if (existsSync(join(ws, "wt2"))) userGit(join(ws, "wt2"), "status");
    expect(readdirSync(marks)).toEqual([]);
  });

  it("a nested repository with a planted fsmonitor, staged as a submodule, is neutralised", async () => {
    const ws = newRepo();
    const marks = fresh("nh-marks-");
    const command = `mkdir sub && cd sub && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m s && git config core.fsmonitor "touch ${marks}/fsmonitor" && cd .. && git add sub 2>/dev/null; git ls-files -s sub`;
    const r = await run(ws, command, mounts);
    expect(r.forModel).toMatch(/^160000 /m);
    expect(r.forModel).toMatch(/sub\/\.git \(a repository staged as a submodule; removed config core\.fsmonitor\)/);
    expect(afterwards(ws, marks)).toEqual([]);
  });

  it("an existing submodule's .git pointer cannot be turned to a planted git dir", async () => {
    const ws = newRepo();
    const marks = fresh("nh-marks-");
    const upstream = newRepo();
    expect(userGit(ws, "-c", "protocol.file.allow=always", "submodule", "add", "-q", upstream, "sub").status).toBe(0);
    userGit(ws, "commit", "-q", "-m", "with sub");
    const pointer = readFileSync(join(ws, "sub/.git"), "utf8");
    // Unsandboxed, this very command makes the parent's next `git status` run the fsmonitor.
    const command = `cp -r .git/modules/sub evil && git config --file evil/config core.worktree ../sub && git config --file evil/config core.fsmonitor "touch ${marks}/fsmonitor"; echo "gitdir: ../evil" > sub/.git; echo w=$?`;
    const r = await run(ws, command, mounts);
    expect(r.forModel).toMatch(mounts ? /w=1/ : /sub\/\.git \(changed, restored\)/);
    expect(readFileSync(join(ws, "sub/.git"), "utf8")).toBe(pointer);
    expect(afterwards(ws, marks)).toEqual([]);
  });

  it("hooks in a core.hooksPath folder inside the workspace (as husky sets) are protected too", async () => {
    const ws = newRepo();
    const marks = fresh("nh-marks-");
    mkdirSync(join(ws, ".githooks"));
    writeFileSync(join(ws, ".githooks/pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    userGit(ws, "config", "core.hooksPath", ".githooks");
    const r = await run(
      ws,
      `printf '#!/bin/sh\\ntouch ${marks}/pre-commit\\n' > .githooks/pre-commit; printf '#!/bin/sh\\ntouch ${marks}/post-checkout\\n' > .githooks/post-checkout; chmod +x .githooks/*; true`,
      mounts,
    );
    if (!mounts)
      expect(r.forModel).toMatch(
        /\.githooks\/pre-commit \(changed, restored\).*\.githooks\/post-checkout \(created, removed\)|\.githooks\/post-checkout \(created, removed\).*\.githooks\/pre-commit \(changed, restored\)/s,
      );
    else expect(r.forModel).toMatch(/Read-only file system/);
    expect(readFileSync(join(ws, ".githooks/pre-commit"), "utf8")).toBe("#!/bin/sh\nexit 0\n");
    expect(afterwards(ws, marks)).toEqual([]);
  });

  it("no repository before: a plain git init is left alone; programs planted in a new one are removed", async () => {
    const plain = fresh();
    const r1 = await run(plain, "git init -q && ls .git/hooks | grep -c sample", mounts);
    expect(r1.forModel).not.toMatch(/protected paths/);
    expect(userGit(plain, "rev-parse", "--git-dir").stdout.trim()).toBe(".git");

    const ws = fresh();
    const marks = fresh("nh-marks-");
    const r2 = await run(ws, `git init -q && git config user.name sandboxed && ${plant(marks)}`, mounts);
    expect(r2.forModel).toMatch(
      /\.git \(a new repository, kept; removed .*config core\.fsmonitor.*config alias\.st.*hooks\/post-checkout.*hooks\/pre-commit.*commondir/s,
    );
    // Harmless keys stay; the samples stay.
    expect(userGit(ws, "config", "user.name").stdout.trim()).toBe("sandboxed");
    expect(readdirSync(join(ws, ".git/hooks")).every((name) => name.endsWith(".sample"))).toBe(true);
    expect(afterwards(ws, marks)).toEqual([]);
  });
});

describe("the helper's binds", () => {
  it("cannot be unmounted from inside, also not from a nested user namespace", async () => {
    const ws = newRepo();
    const r = await run(
      ws,
      "umount .git/hooks; echo umount=$?; unshare -Urm umount $PWD/.git/hooks; echo nested=$?; touch .git/hooks/x; echo touch=$?",
    );
    expect(r.forModel).toMatch(/umount=(1|32)/);
    expect(r.forModel).not.toMatch(/nested=0/);
    expect(r.forModel).toMatch(/touch=1/);
    expect(existsSync(join(ws, ".git/hooks/x"))).toBe(false);
  });

  it("hold for an unprivileged user too (a user namespace maps only their own uid)", () => {
    const ws = fresh();
    const asUser = process.geteuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
    if (asUser.length > 0) chmodSync(ws, 0o777);
    const unprivileged = (argv: string[]) =>
      spawnSync(asUser[0] ?? argv[0]!, [...asUser.slice(1), ...(asUser.length > 0 ? argv : argv.slice(1))], {
        cwd: ws,
        encoding: "utf8",
        env: { ...GIT_ENV, HOME: ws },
      });
    // The checkout may sit below a folder only root can enter (CI clones into a private temp
    // folder): the unprivileged user runs a copy of the helper from a folder everyone can read.
    const shared = mkdtempSync(join(tmpdir(), "nh-helper-"));
    chmodSync(shared, 0o755);
    const helper = join(shared, "nh-sandbox");
    copyFileSync(helperPath()!, helper);
    chmodSync(helper, 0o755);
    expect(unprivileged(["git", "init", "-q", "-b", "main"]).status).toBe(0);
    const probe = JSON.parse(unprivileged([helper, "--probe-protect"]).stdout) as {
      mountNamespace: boolean;
      reason: string;
    };
    expect(probe.reason).toMatch(probe.mountNamespace ? /user and mount namespace|as root/ : /failed/);
    const set = protectedSet([ws]);
    // Last, the helper again inside (NanoHermes testing itself): it must still run.
    const nested = `${helper} --mode workspace-write --workspace ${ws} ${protectArgs(set, () => false).join(" ")} -- sh -c 'touch .git/hooks/z; echo nested=$?'`;
    const script = `git config core.fsmonitor x; echo cfg=$?; touch .git/hooks/post-checkout; echo hook=$?; echo a > a; git add a && git commit -qm one && echo commit=ok; ${nested}; id -u`;
    const r = unprivileged([
      helper,
      "--mode",
      "workspace-write",
      "--workspace",
      ws,
      ...protectArgs(set, () => false),
      "--",
      "sh",
      "-c",
      script,
    ]);
    expect(r.stdout).toMatch(/commit=ok/);
    // Where the kernel refuses unprivileged user namespaces the writes land: the check after covers it.
    expect(r.stdout).toMatch(probe.mountNamespace ? /cfg=[1-9]\d*\nhook=1\n/ : /cfg=0\nhook=0\n/);
    if (asUser.length > 0) expect(r.stdout).toMatch(/\n65534\n$/);
    expect(r.stdout).toMatch(probe.mountNamespace ? /nested=1/ : /nested=0/);
  });

  it("a helper run inside the sandbox (NanoHermes testing itself) still runs, and the outer binds hold", async () => {
    const ws = newRepo();
    const inner = `${helperPath()!} --mode workspace-write --workspace $PWD --pin $PWD/.git --protect $PWD/.git/hooks -- sh -c 'touch .git/hooks/x; echo inner=$?'`;
    const r = await run(ws, `${helperPath()!} --probe-protect; ${inner}; echo code=$?`);
    expect(r.forModel).toMatch(/"mountNamespace":false/);
    expect(r.forModel).toMatch(/inner=1\ncode=0/);
    expect(existsSync(join(ws, ".git/hooks/x"))).toBe(false);
  });

  it("never show in the user's own mount table", async () => {
    const ws = newRepo();
    await run(ws, "true");
    expect(readFileSync("/proc/self/mountinfo", "utf8")).not.toContain(ws);
  });

  it("protect a .git file (a worktree's pointer) from being rewritten", async () => {
    const ws = fresh();
    const elsewhere = newRepo();
    writeFileSync(join(ws, ".git"), `gitdir: ${join(elsewhere, ".git")}\n`);
    const r = await run(ws, "echo 'gitdir: /tmp/evil' > .git; echo w=$?");
    expect(r.forModel).toMatch(/w=1/);
    expect(readFileSync(join(ws, ".git"), "utf8")).toBe(`gitdir: ${join(elsewhere, ".git")}\n`);
  });
});

describe("home files inside a writable root", () => {
  it("with the workspace at $HOME, shell start-up files, ~/.ssh, ~/.gitconfig and ~/.nanohermes stay as they were", async () => {
    const home = fresh("nh-home-");
    for (const [path, text] of [
      [".bashrc", "# mine\n"],
      [".ssh/authorized_keys", "ssh-ed25519 mine\n"],
      [".gitconfig", "[user]\n\tname = me\n"],
      [".nanohermes/config.json", "{}\n"],
    ] as const) {
      mkdirSync(join(home, path, ".."), { recursive: true });
      writeFileSync(join(home, path), text);
    }
    chmodSync(join(home, ".ssh"), 0o700);
    const saved = { HOME: process.env.HOME, NANOHERMES_HOME: process.env.NANOHERMES_HOME };
    process.env.HOME = home;
    process.env.NANOHERMES_HOME = join(home, ".nanohermes");
    try {
      const set = protectedSet([home]);
      expect(set.paths).toEqual(
        expect.arrayContaining([
          join(home, ".bashrc"),
          join(home, ".ssh"),
          join(home, ".gitconfig"),
          join(home, ".nanohermes"),
          join(home, ".zshrc"),
        ]),
      );
      for (const mounts of [true, false]) {
        const r = await run(
          home,
          "echo evil >> .bashrc; echo 'ssh-rsa evil' >> .ssh/authorized_keys; echo evil > .zshrc; echo '[core]' >> .gitconfig; echo '{\"mode\":\"goal\"}' > .nanohermes/config.json; true",
          mounts,
        );
        // Under the binds a missing .zshrc cannot be created (absent-paths.test.ts); without, it is removed after.
        if (mounts) expect(r.forModel).toMatch(/\.zshrc: Read-only file system/);
        else expect(r.forModel).toMatch(/\[protected paths\].*\.zshrc \(created, removed\)/s);
        if (!mounts)
          expect(r.forModel).toMatch(
            /\.bashrc \(changed, restored\).*\.ssh\/authorized_keys \(changed, restored\).*\.nanohermes\/config\.json \(changed, restored\)/s,
          );
        else expect(r.forModel).not.toMatch(/\.bashrc \(/);
        expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("# mine\n");
        expect(readFileSync(join(home, ".ssh/authorized_keys"), "utf8")).toBe("ssh-ed25519 mine\n");
        expect(readFileSync(join(home, ".gitconfig"), "utf8")).toBe("[user]\n\tname = me\n");
        expect(readFileSync(join(home, ".nanohermes/config.json"), "utf8")).toBe("{}\n");
        expect(existsSync(join(home, ".zshrc"))).toBe(false);
      }
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it("home paths outside every writable root are left to Landlock", () => {
    const set = protectedSet(["/srv/ws"], "/home/u", "/home/u/.nanohermes");
    expect(set.paths).toEqual(["/srv/ws/.nanohermes"]);
    expect(set.pins).toEqual(["/srv/ws/.git"]);
    expect(protectArgs(set, () => false)).toEqual(["--pin", "/srv/ws/.git", "--absent-dir", "/srv/ws/.nanohermes"]);
    expect(protectArgs(set, () => true)).toEqual([
      "--pin",
      "/srv/ws/.git",
      "--protect",
      "/srv/ws/.git",
      "--absent-dir",
      "/srv/ws/.nanohermes",
    ]);
  });
});

describe("background jobs", () => {
  it("a job that plants a hook has it reverted when it ends, with the notice in its output", async () => {
    const ws = newRepo();
    const session = testSession();
    const extras = { sandbox: sandboxOf(ws, false), session: session.session };
    const started = await callTool(
      runCommandTool,
      { command: "echo '#!/bin/sh' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit", background: true },
      ws,
      undefined,
      extras,
    );
    const id = /started (job-\d+)/.exec(started.forModel)?.[1];
    expect(id).toBeDefined();
    const { jobsOf } = await import("../../src/tools/background.js");
    const job = jobsOf({
      workspace: ws,
      signal: new AbortController().signal,
      output: () => {},
      session: session.session,
    }).get(id!);
    await job.finished;
    // The check runs as the job's end is handled: wait for its notice to be appended.
    await new Promise((resolve) => setImmediate(resolve));
    const out = await callTool(taskOutputTool, { id }, ws, undefined, extras);
    expect(out.forModel).toMatch(/\[protected paths\].*hooks\/pre-commit \(created, removed\)/s);
    expect(existsSync(join(ws, ".git/hooks/pre-commit"))).toBe(false);
    await session.close();
  });
});

describe("nanohermes sandbox run", () => {
  it("gets the binds and the check after, with the notice on stderr", () => {
    const ws = newRepo();
    const cli = join(repo, "dist/cli.js");
    const r = spawnSync(
      process.execPath,
      [
        cli,
        "sandbox",
        "run",
        "--mode",
        "workspace-write",
        "-C",
        ws,
        "--",
        "sh",
        "-c",
        "touch .git/hooks/pre-commit; echo hook=$?; echo ../x > .git/commondir",
      ],
      { cwd: ws, encoding: "utf8" },
    );
    expect(r.stdout).toMatch(/hook=1/);
    expect(r.stderr).toMatch(/\.git\/commondir: Read-only file system/);
    expect(r.stderr).not.toMatch(/protected paths/);
    expect(existsSync(join(ws, ".git/commondir"))).toBe(false);
  });
});

describe("sandbox status", () => {
  it("says which layer holds here", () => {
    const text = describeSandbox().join("\n");
    expect(text).toMatch(/protected paths \(.*\): read-only inside the sandbox through a private mount namespace/);
    const without = describeSandbox({
      helper: "/h",
      probe: { available: true, abi: 7, reason: "" },
      protect: { mountNamespace: false, reason: "unshare failed: EPERM" },
    }).join("\n");
    expect(without).toMatch(
      /no mount namespace here \(unshare failed: EPERM\), so commands can change them while they run; after every command NanoHermes reverts/,
    );
    expect(text).toContain(`  - protected paths: ${PROTECT_NOT_COVERED}`);
  });

  it("the README names what is not covered in the same words", () => {
    const readme = readFileSync(join(repo, "README.md"), "utf8").replace(/`/g, "").replace(/\s+/g, " ");
    expect(readme).toContain(`Not covered (sandbox status says the same): ${PROTECT_NOT_COVERED}.`);
  });
});
