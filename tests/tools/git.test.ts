// The git tools against real repositories in temp directories: status, staged and unstaged diffs,
// log, commits with hooks, outside a repository, and repository config that must not run.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decide, newRemembered } from "../../src/sandbox/policy.js";
import { gitCommitTool, gitDiffTool, gitLogTool, gitStatusTool } from "../../src/tools/git.js";
import { tempDir } from "../helpers/cli.js";
import { callTool, type CallExtras } from "../helpers/tools.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, LC_ALL: "C" },
    stdio: ["ignore", "pipe", "pipe"],
  });

/** A repository with one commit of a.txt and an identity of its own. */
function repo(): string {
  const ws = tempDir("nh-git-");
  git(ws, "init", "-q", "-b", "main");
  git(ws, "config", "user.name", "Test Person");
  git(ws, "config", "user.email", "test@example.com");
  git(ws, "config", "commit.gpgSign", "false");
  writeFileSync(join(ws, "a.txt"), "alpha\n");
  git(ws, "add", "a.txt");
  git(ws, "commit", "-q", "-m", "first commit");
  return ws;
}

const call = (tool: Parameters<typeof callTool>[0], args: unknown, ws: string, extras: CallExtras = {}) =>
  callTool(tool, args, ws, new AbortController().signal, extras);
const head = (ws: string) => git(ws, "rev-parse", "HEAD").trim();

describe("git_status", () => {
  it("shows the branch and staged, unstaged and untracked files", async () => {
    const ws = repo();
    expect((await call(gitStatusTool, {}, ws)).forModel).toBe(
      "branch: main\nclean: nothing to commit, no untracked files",
    );
    writeFileSync(join(ws, "a.txt"), "alpha\nmore\n");
    writeFileSync(join(ws, "b.txt"), "beta\n");
    git(ws, "add", "b.txt");
    writeFileSync(join(ws, "c ü.txt"), "gamma\n");
    const r = await call(gitStatusTool, {}, ws);
    expect(r.status).toBe("ok");
    expect(r.forModel).toBe(
      'branch: main\n M a.txt\nA  b.txt\n?? "c ü.txt"\n(XY: X = staged, Y = not staged; M modified, A added, D deleted, R renamed, ?? untracked)',
    );
  });
});

describe("git_diff", () => {
  it("shows unstaged changes by default and staged ones with staged: true", async () => {
    const ws = repo();
    writeFileSync(join(ws, "a.txt"), "alpha\nunstaged line\n");
    writeFileSync(join(ws, "b.txt"), "staged file\n");
    git(ws, "add", "b.txt");
    const unstaged = await call(gitDiffTool, {}, ws);
    expect(unstaged.forModel).toContain("+unstaged line");
    expect(unstaged.forModel).not.toContain("b.txt");
    const staged = await call(gitDiffTool, { staged: true }, ws);
    expect(staged.forModel).toContain("+staged file");
    expect(staged.forModel).not.toContain("a.txt");
    const onlyB = await call(gitDiffTool, { path: "b.txt" }, ws);
    expect(onlyB.forModel).toBe(
      "no unstaged changes in b.txt (there are staged changes: git_diff with staged: true shows them)",
    );
  });

  it("diffs against a ref and refuses option-like refs", async () => {
    const ws = repo();
    writeFileSync(join(ws, "a.txt"), "alpha\nsecond\n");
    git(ws, "commit", "-qam", "second commit");
    const r = await call(gitDiffTool, { ref: "HEAD~1" }, ws);
    expect(r.forModel).toMatch(/^diff --git a\/a.txt b\/a.txt\n[\s\S]*\n\+second\n$/);
    expect((await call(gitDiffTool, { ref: "--output=/tmp/x" }, ws)).forModel).toBe(
      'not a valid ref: "--output=/tmp/x"',
    );
    const bad = await call(gitDiffTool, { ref: "no-such-branch" }, ws);
    expect(bad.status).toBe("error");
    expect(bad.forModel).toMatch(/^git diff failed \(exit 128\): fatal: bad revision 'no-such-branch'/);
    expect((await call(gitDiffTool, { ref: "HEAD" }, ws)).forModel).toBe("no unstaged changes against HEAD");
  });

  it("cuts a long diff with a note and the list of changed files", async () => {
    const ws = repo();
    for (const name of ["big1.txt", "big2.txt"]) writeFileSync(join(ws, name), "line of text\n".repeat(5_000));
    git(ws, "add", "-N", ".");
    const r = await call(gitDiffTool, {}, ws);
    expect(Buffer.byteLength(r.forModel)).toBeLessThanOrEqual(20 * 1024);
    expect(r.forModel).toMatch(
      /^\[unstaged changes: the diff is \d+ bytes, showing its first \d+; pass path for one file's diff\]\n big1.txt \| 5000 \++\n big2.txt \| 5000 \++\n 2 files changed, 10000 insertions\(\+\)\n/,
    );
    expect(r.forModel.endsWith("\n[diff cut here]")).toBe(true);
  });
});

describe("git_log", () => {
  it("lists commits one per line with count and path", async () => {
    const ws = repo();
    for (let i = 1; i <= 3; i++) {
      writeFileSync(join(ws, `f${i}.txt`), `${i}\n`);
      git(ws, "add", ".");
      git(ws, "commit", "-qm", `add f${i}`);
    }
    const all = await call(gitLogTool, {}, ws);
    const lines = all.forModel.split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^[0-9a-f]{7,} \d{4}-\d\d-\d\d Test Person: add f3$/);
    expect(lines[3]).toMatch(/ Test Person: first commit$/);
    const two = await call(gitLogTool, { count: 2 }, ws);
    expect(two.forModel.split("\n")).toEqual([
      expect.stringMatching(/add f3$/),
      expect.stringMatching(/add f2$/),
      "[more commits: pass count (at most 200) to see more]",
    ]);
    const byPath = await call(gitLogTool, { path: "f1.txt" }, ws);
    expect(byPath.forModel).toMatch(/^[0-9a-f]+ \S+ Test Person: add f1$/);
    expect((await call(gitLogTool, { path: "missing.txt" }, ws)).forModel).toBe("no commits touch missing.txt");
    expect((await call(gitLogTool, { count: 201 }, ws)).forModel).toMatch(/^invalid arguments for git_log: "count"/);
  });

  it("says so in a repository without commits", async () => {
    const ws = tempDir();
    git(ws, "init", "-q", "-b", "main");
    expect((await call(gitLogTool, {}, ws)).forModel).toBe("no commits yet");
  });
});

describe("git_commit", () => {
  it("stages and commits exactly the given paths and reports the new hash", async () => {
    const ws = repo();
    writeFileSync(join(ws, "a.txt"), "alpha changed\n");
    writeFileSync(join(ws, "new.txt"), "new\n");
    writeFileSync(join(ws, "other.txt"), "other\n");
    git(ws, "add", "other.txt");
    const r = await call(
      gitCommitTool,
      { message: "Change a and add new\n\nWith a body.", paths: ["a.txt", "new.txt"] },
      ws,
    );
    expect(r.status).toBe("ok");
    const hash = head(ws);
    expect(r.forModel.split("\n")[0]).toBe(`committed ${hash}`);
    expect(r.forModel).toContain("2 files changed");
    expect(git(ws, "show", "--name-only", "--format=%B", "HEAD")).toBe(
      "Change a and add new\n\nWith a body.\n\n\na.txt\nnew.txt\n",
    );
    // What was staged before stays staged and out of the commit.
    expect(git(ws, "status", "--short")).toBe("A  other.txt\n");
  });

  it("takes paths literally: a name with glob characters is that file only", async () => {
    const ws = repo();
    writeFileSync(join(ws, "weird*.txt"), "star\n");
    writeFileSync(join(ws, "weirdX.txt"), "x\n");
    const r = await call(gitCommitTool, { message: "add the star file", paths: ["weird*.txt"] }, ws);
    expect(r.status).toBe("ok");
    expect(git(ws, "show", "--name-only", "--format=", "HEAD")).toBe("weird*.txt\n");
    expect(git(ws, "status", "--short")).toBe("?? weirdX.txt\n");
    expect((await call(gitCommitTool, { message: "a\u0000b" }, ws)).forModel).toBe(
      "the commit message contains a NUL byte",
    );
  });

  it("commits a deletion, and without paths commits only what is staged", async () => {
    const ws = repo();
    unlinkSync(join(ws, "a.txt"));
    const del = await call(gitCommitTool, { message: "remove a", paths: ["a.txt"] }, ws);
    expect(del.status).toBe("ok");
    expect(git(ws, "ls-files")).toBe("");
    const none = await call(gitCommitTool, { message: "nothing" }, ws);
    expect(none).toMatchObject({
      status: "error",
      forModel: "nothing is staged, so nothing was committed: pass paths to stage and commit them",
    });
    writeFileSync(join(ws, "s.txt"), "s\n");
    git(ws, "add", "s.txt");
    writeFileSync(join(ws, "u.txt"), "u\n");
    const r = await call(gitCommitTool, { message: "staged only" }, ws);
    expect(r.forModel).toMatch(/^committed [0-9a-f]{40}\n/);
    expect(git(ws, "show", "--name-only", "--format=", "HEAD")).toBe("s.txt\n");
  });

  it("runs hooks: a failing pre-commit hook refuses the commit; skip_hooks bypasses it", async () => {
    const ws = repo();
    const hook = join(ws, ".git", "hooks", "pre-commit");
    writeFileSync(hook, "#!/bin/sh\necho 'lint failed: trailing space in a.txt' >&2\nexit 1\n");
    chmodSync(hook, 0o755);
    const before = head(ws);
    writeFileSync(join(ws, "a.txt"), "alpha \n");
    const refused = await call(gitCommitTool, { message: "with hook", paths: ["a.txt"] }, ws);
    expect(refused.status).toBe("error");
    expect(refused.forModel).toBe(
      "git commit failed (exit 1): nothing was committed. The given paths stay staged.\nlint failed: trailing space in a.txt",
    );
    expect(head(ws)).toBe(before);
    const skipped = await call(gitCommitTool, { message: "skipping hooks", paths: ["a.txt"], skip_hooks: true }, ws);
    expect(skipped.forModel).toMatch(/^committed [0-9a-f]{40} \(hooks skipped\)/);
    expect(head(ws)).not.toBe(before);
  });

  it("refuses paths outside the workspace, an empty message and a read-only sandbox", async () => {
    const ws = repo();
    expect((await call(gitCommitTool, { message: "x", paths: ["../elsewhere.txt"] }, ws)).forModel).toBe(
      `refusing ../elsewhere.txt: it is outside the workspace ${ws}`,
    );
    expect((await call(gitCommitTool, { message: "x", paths: ["/etc/passwd"] }, ws)).forModel).toMatch(
      /^refusing \/etc\/passwd: it is outside the workspace/,
    );
    expect((await call(gitCommitTool, { message: "  " }, ws)).forModel).toBe("the commit message is empty");
    expect((await call(gitCommitTool, { message: "x", paths: [] }, ws)).forModel).toMatch(
      /^invalid arguments for git_commit: "paths"/,
    );
    const ro = await call(gitCommitTool, { message: "x" }, ws, {
      boundary: { readOnly: true, extraRoots: [], protect: false },
    });
    expect(ro.forModel).toBe("refusing to commit: the sandbox is read-only");
    const missing = await call(gitCommitTool, { message: "x", paths: ["nope.txt"] }, ws);
    expect(missing.forModel).toMatch(
      /^git add failed \(exit 128\): fatal: pathspec 'nope.txt' did not match any files/,
    );
  });

  it("is an edit, so the approval policy asks for it (and plan mode refuses it)", () => {
    const input = {
      tool: "git_commit",
      kind: gitCommitTool.kind,
      args: { message: "x" },
      remembered: newRemembered(),
    } as const;
    expect(decide({ ...input, approval: "on-request", mode: "default" }).decision).toBe("ask");
    expect(decide({ ...input, approval: "on-request", mode: "plan" }).decision).toBe("deny");
    expect(gitStatusTool.kind).toBe("read");
  });
});

describe("git tools outside the happy path", () => {
  it("say 'not a git repository' in one line outside a repository", async () => {
    const ws = tempDir();
    for (const [tool, args] of [
      [gitStatusTool, {}],
      [gitDiffTool, {}],
      [gitLogTool, {}],
      [gitCommitTool, { message: "x" }],
    ] as const) {
      const r = await call(tool, args, ws);
      expect(r).toMatchObject({ status: "error", forModel: `not a git repository: ${ws}` });
    }
  });

  it("never run the repository's fsmonitor, pager, external diff or textconv", async () => {
    const ws = repo();
    const marker = join(ws, "..", `marker-${Date.now()}`);
    const script = join(tempDir(), "marker.sh");
    writeFileSync(script, `#!/bin/sh\necho ran "$@" >> ${marker}\n`);
    chmodSync(script, 0o755);
    for (const [key, value] of [
      ["core.fsmonitor", script],
      ["core.pager", script],
      ["pager.diff", script],
      ["diff.external", script],
      ["diff.conv.textconv", script],
      ["color.ui", "always"],
    ]) {
      git(ws, "config", key!, value!);
    }
    writeFileSync(join(ws, ".gitattributes"), "*.txt diff=conv\n");
    writeFileSync(join(ws, "a.txt"), "alpha\nchanged\n");
    // The config is live: plain git runs the marker.
    git(ws, "diff");
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    const status = await call(gitStatusTool, {}, ws);
    const diff = await call(gitDiffTool, {}, ws);
    const log = await call(gitLogTool, {}, ws);
    expect(existsSync(marker)).toBe(false);
    expect(diff.forModel).toContain("+changed");
    expect(`${status.forModel}${diff.forModel}${log.forModel}`).not.toContain("\x1b[");
    expect(status.forModel).toContain(" M a.txt");
  });

  it("say clearly when git is not installed", async () => {
    const ws = repo();
    const path = process.env.PATH;
    const empty = tempDir();
    mkdirSync(join(empty, "bin"));
    process.env.PATH = join(empty, "bin");
    try {
      const r = await call(gitStatusTool, {}, ws);
      expect(r.forModel).toBe("git is not installed: there is no `git` program on the PATH");
    } finally {
      process.env.PATH = path;
    }
  });

  it("run under the sandbox prefix and refuse when the sandbox refuses", async () => {
    const ws = repo();
    const refusing: CallExtras = {
      sandbox: {
        mode: "workspace-write",
        network: false,
        writableRoots: [],
        wrap: async () => ({ refused: "sandbox workspace-write refused: no Landlock" }),
      },
    };
    expect((await call(gitStatusTool, {}, ws, refusing)).forModel).toBe("sandbox workspace-write refused: no Landlock");
    const wrapping: CallExtras = {
      sandbox: {
        mode: "workspace-write",
        network: false,
        writableRoots: [],
        wrap: async (argv) => ({ argv: ["env", "GIT_AUTHOR_NAME=Sandboxed", ...argv] }),
      },
    };
    writeFileSync(join(ws, "z.txt"), "z\n");
    await call(gitCommitTool, { message: "in the sandbox", paths: ["z.txt"] }, ws, wrapping);
    expect(git(ws, "log", "-1", "--format=%an")).toBe("Sandboxed\n");
  });
});
