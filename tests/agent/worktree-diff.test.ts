// /diff's read of a real repository: tracked changes against HEAD (staged and not), untracked files
// as new ones, binary files named, the caps, a repository without a commit, and a folder outside git.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readWorktreeDiff, WORKTREE_CAPS } from "../../src/agent/worktree-diff.js";
import type { WorktreeDiff, WorktreeFile } from "../../src/agent/workspace-view.js";
import { tempDir } from "../helpers/cli.js";
import { type Git, gitRepo } from "../helpers/git-repo.js";

function repo(commit = true): { ws: string; git: Git } {
  return gitRepo(
    { "notes.txt": "one\ntwo\nthree\n", "image.bin": Buffer.from([1, 0, 2, 3]), "gone.txt": "bye\n" },
    { commit },
  );
}

function files(d: WorktreeDiff): Record<string, WorktreeFile> {
  if (!d.ok) throw new Error(d.error);
  return Object.fromEntries(d.files.map((f) => [f.path, f]));
}

describe("readWorktreeDiff", () => {
  it("lists modified, staged, deleted, binary and untracked files, with their hunks", async () => {
    const { ws, git } = repo();
    writeFileSync(join(ws, "notes.txt"), "one\ntwo changed\nthree\n");
    writeFileSync(join(ws, "image.bin"), Buffer.from([1, 0, 9, 3]));
    git("rm", "-q", "gone.txt");
    writeFileSync(join(ws, "staged.txt"), "in the index\n");
    git("add", "staged.txt");
    mkdirSync(join(ws, "sub dir"));
    writeFileSync(join(ws, "sub dir", "new file.txt"), "first\nno newline");
    writeFileSync(join(ws, ".gitignore"), "ignored.log\n");
    writeFileSync(join(ws, "ignored.log"), "not listed\n");
    const d = await readWorktreeDiff(ws);
    expect(d.ok && d.base).toBe("HEAD");
    const f = files(d);
    expect(Object.keys(f)).toEqual([
      "gone.txt",
      "image.bin",
      "notes.txt",
      "staged.txt",
      ".gitignore",
      "sub dir/new file.txt",
    ]);
    expect(f["notes.txt"]).toMatchObject({ status: "modified", added: 1, removed: 1, binary: false });
    expect(f["notes.txt"]!.patch).toMatch(/^@@ -1,3 \+1,3 @@\n one\n-two\n\+two changed\n three\n$/);
    expect(f["image.bin"]).toMatchObject({ binary: true, note: "binary", patch: null });
    expect(f["gone.txt"]).toMatchObject({ status: "deleted", removed: 1 });
    expect(f["staged.txt"]).toMatchObject({ status: "added", added: 1 });
    expect(f["sub dir/new file.txt"]).toMatchObject({ status: "untracked", added: 2 });
    expect(f["sub dir/new file.txt"]!.patch).toBe(
      "@@ -0,0 +1,2 @@\n+first\n+no newline\n\\ No newline at end of file\n",
    );
    expect(f["ignored.log"]).toBeUndefined();
  });

  it("caps a file's changed lines and the untracked content it reads; says so per file", async () => {
    const { ws } = repo();
    const many = Array.from({ length: WORKTREE_CAPS.fileLines + 1 }, (_, i) => `line ${i}`).join("\n");
    writeFileSync(join(ws, "notes.txt"), `${many}\n`);
    writeFileSync(join(ws, "huge.txt"), "x".repeat(WORKTREE_CAPS.fileBytes + 1));
    const f = files(await readWorktreeDiff(ws));
    expect(f["notes.txt"]!.patch).toBeNull();
    expect(f["notes.txt"]!.note).toMatch(/too large to show here \(4,004 lines changed; the cap is 4,000\)/);
    expect(f["huge.txt"]!.patch).toBeNull();
    expect(f["huge.txt"]!.note).toMatch(/too large to show here \(257 KiB; the cap is 256 KiB\)/);
  });

  it("past the diff-text and file caps: the first files are shown, the rest listed with why", async () => {
    const { ws, git } = repo();
    for (const name of ["a", "b", "c", "d"]) writeFileSync(join(ws, `${name}.txt`), `${name}\n`.repeat(50));
    git("add", ".");
    writeFileSync(join(ws, "e.txt"), "untracked\n");
    const caps = { ...WORKTREE_CAPS, patchBytes: 600, files: 4 };
    const d = await readWorktreeDiff(ws, AbortSignal.timeout(30_000), caps);
    if (!d.ok) throw new Error(d.error);
    expect(d.files.map((f) => f.path)).toEqual(["a.txt", "b.txt", "c.txt", "d.txt"]);
    expect(d.files[0]!.patch).toContain("+a");
    expect(d.files[3]!.patch).toBeNull();
    expect(d.files[3]!.note).toBe("not shown: /diff reads at most 1 KiB of diff text");
    expect(d.notes).toEqual([
      "5 files changed: the first 4 are listed",
      "the diff is over 1 KiB: the files past it are listed, not shown",
    ]);
  });

  it("a repository without a commit: its index and untracked files are all new", async () => {
    const { ws } = repo(false);
    writeFileSync(join(ws, "later.txt"), "later\n");
    const d = await readWorktreeDiff(ws);
    expect(d.ok && d.base).toBe("empty");
    const f = files(d);
    expect(f["notes.txt"]).toMatchObject({ status: "added", added: 3 });
    expect(f["later.txt"]).toMatchObject({ status: "untracked", added: 1 });
  });

  it("a clean tree has no files; a folder outside git says so", async () => {
    const { ws } = repo();
    expect(files(await readWorktreeDiff(ws))).toEqual({});
    const plain = tempDir();
    expect(await readWorktreeDiff(plain)).toEqual({ ok: false, error: `not a git repository: ${plain}` });
  });
});
