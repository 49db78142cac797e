// The index reader that finds submodules: every index version git writes, both hash formats,
// long and non-ASCII paths, against indexes made by the real git.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitDirOf, gitlinks, indexFileOf } from "../../src/sandbox/git-index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};
const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", env: ENV });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};

/** A repository with plain files, an intent-to-add entry (extended flags) and three gitlinks. */
function repo(format: "sha1" | "sha256"): { ws: string; commit: string } {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), "nh-index-")));
  dirs.push(ws);
  git(ws, "init", "-q", `--object-format=${format}`);
  for (const name of ["a.txt", "dir/b.txt", `${"long/".repeat(30)}c.txt`, "ünï/d.txt"]) {
    mkdirSync(join(ws, name, ".."), { recursive: true });
    writeFileSync(join(ws, name), name);
  }
  git(ws, "add", ".");
  git(ws, "commit", "-q", "-m", "one");
  const commit = git(ws, "rev-parse", "HEAD").trim();
  for (const path of ["mods/one", "mods/twö", "z-last"])
    git(ws, "update-index", "--add", "--cacheinfo", `160000,${commit},${path}`);
  writeFileSync(join(ws, "new.txt"), "n");
  git(ws, "add", "-N", "new.txt");
  return { ws, commit };
}

describe("gitlinks", () => {
  it.each([
    ["sha1", "2"],
    ["sha1", "3"],
    ["sha1", "4"],
    ["sha256", "2"],
    ["sha256", "4"],
  ] as const)("%s, index version %s", (format, version) => {
    const { ws } = repo(format);
    git(ws, "update-index", "--index-version", version);
    expect(gitlinks(indexFileOf(join(ws, ".git")))).toEqual(["mods/one", "mods/twö", "z-last"]);
  });

  it("no index, a missing file, or garbage give none, never an error", () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), "nh-index-")));
    dirs.push(ws);
    expect(gitlinks(null)).toEqual([]);
    expect(gitlinks(join(ws, "missing"))).toEqual([]);
    writeFileSync(
      join(ws, "index"),
      Buffer.concat([Buffer.from("DIRC"), Buffer.from([0, 0, 0, 2, 0, 0, 0, 9]), Buffer.alloc(30, 7)]),
    );
    expect(gitlinks(join(ws, "index"))).toEqual([]);
  });

  it("follows a gitdir: file to its repository", () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), "nh-index-")));
    dirs.push(ws);
    writeFileSync(join(ws, ".git"), "gitdir: ../elsewhere/.git\n");
    expect(gitDirOf(join(ws, ".git"))).toBe(join(ws, "../elsewhere/.git"));
    expect(indexFileOf(join(ws, ".git"))).toBe(join(ws, "../elsewhere/.git/index"));
  });
});
