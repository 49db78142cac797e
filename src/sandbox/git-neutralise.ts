// A `.git` that a sandboxed command created where there was none (`git init`, `git clone .`): kept
// so the repository works, but with everything that would run a program on the user's next git
// command taken out: config keys beyond a short allowlist, hooks, and pointers elsewhere.
import { execFileSync } from "node:child_process";
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readRegular, type RootedFs } from "./fd-ops.js";

/**
 * Config keys a repository keeps: what `git init`, `git clone` and ordinary use write, none of which
 * names a program. Everything else (core.fsmonitor, core.hooksPath, core.pager, alias.*, filter.*,
 * diff.*.textconv, include.path, submodule.*.update, credential.helper, ...) is dropped.
 */
const ALLOWED_KEYS = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf|quotepath)$/,
  /^user\.(name|email)$/,
  /^init\.defaultbranch$/,
  /^extensions\.(objectformat|refstorage)$/,
  /^remote\..+\.(url|pushurl|fetch|tagopt|mirror|prune)$/,
  /^branch\..+\.(remote|merge|rebase)$/,
  /^submodule\..+\.(url|active)$/,
];
const MINIMAL_CONFIG =
  "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n";

const quote = (text: string) =>
  `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t")}"`;

/** Git's own reading of the file (so a config crafted to fool a hand parser cannot), as key/value pairs. */
function readConfig(file: string): [string, string][] | null {
  try {
    const out = execFileSync("git", ["config", "--file", file, "--no-includes", "--list", "--null"], {
      cwd: "/",
      encoding: "utf8",
      timeout: 5_000,
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    });
    return out
      .split("\0")
      .filter((record) => record !== "")
      .map((record) => {
        const cut = record.indexOf("\n");
        return cut < 0 ? [record, ""] : [record.slice(0, cut), record.slice(cut + 1)];
      });
  } catch {
    return null;
  }
}

/** Rewrites `file` with only the allowed keys; returns the keys dropped (or why it was replaced). */
function filterConfig(fs: RootedFs, file: string): string[] {
  const pairs = readConfig(file);
  if (pairs === null) {
    fs.replaceFile(file, MINIMAL_CONFIG);
    return ["config (unreadable by git: replaced with a minimal one)"];
  }
  const dropped = [...new Set(pairs.filter(([key]) => !ALLOWED_KEYS.some((re) => re.test(key))).map(([key]) => key))];
  if (dropped.length === 0) return [];
  const sections = new Map<string, string[]>();
  for (const [key, value] of pairs) {
    if (!ALLOWED_KEYS.some((re) => re.test(key))) continue;
    const first = key.indexOf(".");
    const last = key.lastIndexOf(".");
    const section = key.slice(0, first);
    const sub = first === last ? null : key.slice(first + 1, last);
    const header = sub === null ? `[${section}]` : `[${section} ${quote(sub)}]`;
    const lines = sections.get(header) ?? [];
    lines.push(`\t${key.slice(last + 1)} = ${quote(value)}`);
    sections.set(header, lines);
  }
  const text = [...sections].map(([header, lines]) => `${header}\n${lines.join("\n")}\n`).join("");
  fs.replaceFile(file, text || MINIMAL_CONFIG);
  return dropped.map((key) => `config ${key}`);
}

function kind(path: string): "file" | "dir" | "other" | "missing" {
  try {
    const stats = lstatSync(path);
    return stats.isDirectory() ? "dir" : stats.isFile() ? "file" : "other";
  } catch {
    return "missing";
  }
}

/** Removes every hook that git would run: anything in hooks/ not named *.sample. */
function dropHooks(fs: RootedFs, hooks: string, label: string): string[] {
  const dropped: string[] = [];
  const k = kind(hooks);
  if (k === "missing") return dropped;
  if (k !== "dir") {
    fs.remove(hooks);
    return [`${label} (not a folder)`];
  }
  for (const name of readdirSync(hooks)) {
    if (name.endsWith(".sample") && kind(join(hooks, name)) === "file") continue;
    fs.remove(join(hooks, name));
    dropped.push(`${label}/${name}`);
  }
  return dropped;
}

/** What a worktree's commondir must say: back to the repository that holds it. */
const commonDirOk = (dir: string): boolean =>
  readRegular(join(dir, "commondir"), 4096)?.toString("utf8").trim() === "../..";

/**
 * One git directory: config filtered, hooks removed, config.worktree removed, and commondir removed
 * unless it is a linked worktree's plain way back (`../..`), which `git worktree add` writes.
 */
function neutraliseOne(fs: RootedFs, gitDir: string, prefix: string, worktree: boolean): string[] {
  const done: string[] = [];
  const config = join(gitDir, "config");
  if (kind(config) === "file") done.push(...filterConfig(fs, config).map((d) => `${prefix}${d}`));
  else if (kind(config) !== "missing") {
    fs.remove(config);
    done.push(`${prefix}config (not a file)`);
  }
  done.push(...dropHooks(fs, join(gitDir, "hooks"), `${prefix}hooks`));
  for (const pointer of ["commondir", "config.worktree"]) {
    if (kind(join(gitDir, pointer)) === "missing" || (pointer === "commondir" && worktree && commonDirOk(gitDir)))
      continue;
    fs.remove(join(gitDir, pointer));
    done.push(`${prefix}${pointer}`);
  }
  return done;
}

const looksLikeGitDir = (dir: string) =>
  kind(join(dir, "HEAD")) !== "missing" || kind(join(dir, "config")) !== "missing";

/** `dir` and the git directories beneath it (submodule names may have slashes; modules nest). */
function gitDirsIn(dir: string, depth = 0): string[] {
  if (depth > 8 || kind(dir) !== "dir") return [];
  const found = looksLikeGitDir(dir) ? [dir] : [];
  for (const name of readdirSync(dir)) {
    if (name === "objects" || name === "refs" || name === "logs" || name === "hooks") continue;
    found.push(...gitDirsIn(join(dir, name), depth + 1));
  }
  return found;
}

/**
 * Contract: `dir` is a folder a command created beneath `.git/modules` or `.git/worktrees` of an
 * existing repository (`git submodule add`, `git worktree add`). Kept, with every git directory
 * in it neutralised as a new repository's would be. `label` prefixes what is reported.
 */
export function neutraliseGitTree(fs: RootedFs, dir: string, label: string, worktree: boolean): string[] {
  return gitDirsIn(dir).flatMap((gitDir) =>
    neutraliseOne(fs, gitDir, `${label}${gitDir.slice(dir.length)}/`.replace(/\/\/$/, "/"), worktree),
  );
}

/**
 * Contract: `git` is a `.git` that did not exist before the command. A file or symlink (a pointer
 * to a repository elsewhere) is removed; a folder is kept with its config filtered, hooks and
 * pointers removed, and the same for each submodule and worktree inside it. Returns what it
 * removed (empty for a plain `git init`).
 */
export function neutraliseGitDir(fs: RootedFs, git: string): string[] {
  const k = kind(git);
  if (k === "missing") return [];
  if (k !== "dir") {
    fs.remove(git);
    return ["the .git file or link itself (it pointed to a repository elsewhere)"];
  }
  return [
    ...neutraliseOne(fs, git, "", false),
    ...neutraliseGitTree(fs, join(git, "modules"), "modules", false),
    ...neutraliseGitTree(fs, join(git, "worktrees"), "worktrees", true),
  ];
}
