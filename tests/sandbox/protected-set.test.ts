// Issue 26.1: one protected set for the helper's binds, the check after every command and the file
// tools. Each write here is one that write_file, edit_file or apply_patch accepted before, and that
// a later unsandboxed git (or shell, or ssh) would have run.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { protectedReason, protectedSet } from "../../src/sandbox/protected.js";
import { applyPatchTool } from "../../src/tools/apply-patch.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { callTool } from "../helpers/tools.js";

const dirs: string[] = [];
const fresh = (prefix = "nh-set-") => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) spawnSync("rm", ["-rf", dir]);
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null" } });

function repo(): string {
  const ws = fresh();
  git(ws, "init", "-q");
  return ws;
}

const write = (ws: string, path: string, extras = {}) =>
  callTool(writeFileTool, { path, content: "#!/bin/sh\ntouch /tmp/planted\n" }, ws, undefined, extras);

describe("the file tools refuse the whole protected set", () => {
  it.each([
    ".git/commondir",
    ".git/config.worktree",
    ".git/info/attributes",
    ".git/hooks/pre-push",
    ".git/modules/x/config",
    ".git/worktrees/w/gitdir",
    "sub/.git",
    ".git",
  ])("write_file %s", async (path) => {
    const ws = repo();
    const r = await write(ws, path);
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(/is protected/);
    if (path !== ".git") expect(existsSync(join(ws, path))).toBe(false);
  });

  it("another writable root's hooks and config", async () => {
    const ws = repo();
    const other = repo();
    const boundary = { readOnly: false, extraRoots: [other], protect: true };
    for (const path of [join(other, ".git/hooks/post-checkout"), join(other, ".git/config")]) {
      const r = await write(ws, path, { boundary });
      expect(r.forModel, path).toMatch(/is protected/);
    }
    // An ordinary file there is fine.
    expect((await write(ws, join(other, "ok.txt"), { boundary })).status).toBe("ok");
  });

  it("with the workspace at $HOME: shell start-up files, ~/.ssh, ~/.gitconfig", async () => {
    const home = fresh("nh-home-");
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      for (const path of [".bashrc", ".ssh/authorized_keys", ".gitconfig", ".zshenv", ".config/git/config"]) {
        const r = await write(home, path);
        expect(r.forModel, path).toMatch(/is protected/);
        expect(existsSync(join(home, path)), path).toBe(false);
      }
    } finally {
      process.env.HOME = saved;
    }
  });

  it("a file a git config includes, and the target of a symlinked .git part", async () => {
    const ws = repo();
    writeFileSync(join(ws, "shared.gitconfig"), "[user]\n\tname = me\n");
    git(ws, "config", "include.path", "../shared.gitconfig");
    mkdirSync(join(ws, "myhooks"));
    spawnSync("rm", ["-rf", join(ws, ".git/hooks")]);
    symlinkSync("../myhooks", join(ws, ".git/hooks"));
    expect(protectedSet([ws]).paths).toEqual(
      expect.arrayContaining([join(ws, "shared.gitconfig"), join(ws, "myhooks")]),
    );
    const inc = await callTool(
      editFileTool,
      {
        path: "shared.gitconfig",
        old_string: "name = me",
        new_string: "name = me\n[core]\n\tfsmonitor = touch /tmp/x",
      },
      ws,
    );
    expect(inc.forModel).toMatch(/is protected/);
    expect((await write(ws, "myhooks/post-checkout")).forModel).toMatch(/is protected/);
    expect(readFileSync(join(ws, "shared.gitconfig"), "utf8")).toBe("[user]\n\tname = me\n");
  });

  it("a folder turned into a git directory (HEAD and config), and a new .git file", async () => {
    const ws = fresh();
    mkdirSync(join(ws, "objects"));
    writeFileSync(join(ws, "HEAD"), "ref: refs/heads/main\n");
    const r = await callTool(
      applyPatchTool,
      { patch: "*** Begin Patch\n*** Add File: config\n+[core]\n+\tfsmonitor = touch /tmp/x\n*** End Patch" },
      ws,
    );
    expect(r.forModel).toMatch(/is protected/);
    expect(existsSync(join(ws, "config"))).toBe(false);
    expect((await write(ws, "sub/.git")).forModel).toMatch(/is protected/);
    // Ordinary files called config stay writable.
    expect((await write(ws, "app/config")).status).toBe("ok");
  });

  it("objects, refs and ordinary files stay writable; allowProtectedWrites lifts the refusal", async () => {
    const ws = repo();
    expect((await write(ws, "src/main.sh")).status).toBe("ok");
    expect(protectedReason(join(ws, ".git/objects/ab/cd"), [ws])).toBeNull();
    expect(protectedReason(join(ws, ".git/refs/heads/x"), [ws])).toBeNull();
    const r = await write(ws, ".git/hooks/pre-push", { boundary: { readOnly: false, extraRoots: [], protect: false } });
    expect(r.status).toBe("ok");
  });
});
