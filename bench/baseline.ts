// Builds the program as it was at a git revision, for side-by-side figures: a detached worktree
// in a temp folder sharing this tree's node_modules, built with that revision's own build script.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Baseline {
  rev: string;
  cli: string;
  remove(): void;
}

export function buildBaseline(root: string, rev: string): Baseline {
  const dir = join(mkdtempSync(join(tmpdir(), "nh-bench-base-")), "tree");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  git("worktree", "add", "--detach", dir, rev);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
  execFileSync(process.execPath, [join(dir, "scripts/build.mjs")], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const cli = join(dir, "dist/cli.js");
  if (!existsSync(cli)) throw new Error(`bench: building ${rev} gave no dist/cli.js`);
  return { rev, cli, remove: () => git("worktree", "remove", "--force", dir) };
}
