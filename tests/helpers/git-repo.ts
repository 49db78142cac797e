// Git repositories for tests: a fixed author, output ignored.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./cli.js";

export type Git = (...args: string[]) => void;

/** git run in `dir` as the test author. */
export function gitIn(dir: string): Git {
  return (...args) =>
    void execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, stdio: "ignore" });
}

/** A repository in a new folder holding `files` (relative paths), added and, unless told not to, committed. */
export function gitRepo(files: Record<string, string | Buffer>, { commit = true } = {}): { ws: string; git: Git } {
  const ws = tempDir();
  const git = gitIn(ws);
  git("init", "-q");
  for (const [path, content] of Object.entries(files)) writeFileSync(join(ws, path), content);
  git("add", ".");
  if (commit) git("commit", "-qm", "start");
  return { ws, git };
}
