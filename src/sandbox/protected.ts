// Which paths a sandboxed command must not change although they lie inside a writable root:
// places whose contents run later outside the sandbox (git hooks and config, shell start-up
// files, ~/.ssh, NanoHermes's own config). Shared by the helper's mount layer and the check after
// every command, so both protect the same set.
import { existsSync, lstatSync, readdirSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import { nanohermesHome } from "../config/paths.js";
import { gitDirOf, gitlinks, hooksPathIn, includePathsIn, indexFileOf } from "./git-index.js";

const isInside = (root: string, path: string) =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** Inside a repository's git directory: read by every git command the user runs later. */
export const GIT_DIR_PROTECTED = ["config", "config.worktree", "commondir", "hooks", "info", "modules", "worktrees"];

/** Files and folders in the home folder that run code or grant access when the user next logs in. */
export const HOME_PROTECTED = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".kshrc",
  ".mkshrc",
  ".inputrc",
  ".config/fish",
  ".ssh",
  ".gitconfig",
  ".config/git",
  ".npmrc",
];

/** The folders among HOME_PROTECTED (the rest are files). */
const HOME_FOLDERS = new Set([".config/fish", ".ssh", ".config/git"]);

/**
 * What the after-command check compares in NanoHermes's own folder: the files that decide what
 * runs and what is allowed. Not its sessions, checkpoints, logs or memory, which NanoHermes itself
 * writes while a command of another task runs (the mount layer covers the whole folder).
 */
export const NH_HOME_CHECKED = [
  "config.json",
  "trusted.json",
  "permissions.json",
  "remotes.json",
  "AGENTS.md",
  "skills",
  "themes",
];

/** The protected set of one sandbox: what to bind in place, what to make read-only, what to check. */
export interface ProtectedSet {
  /** Writable roots checked for a `.git` and a `.nanohermes` of their own. */
  roots: string[];
  /** `.git` of each root: bound onto itself so it cannot be renamed away and replaced. */
  pins: string[];
  /** Absolute paths made read-only (whether they exist now or not). */
  paths: string[];
  /** What the after-command check snapshots besides each `.git`: `paths`, narrowed in ~/.nanohermes. */
  checked: string[];
  /** The `.git` of each submodule (gitlink) in the roots' indexes; also in `pins`. */
  submodules: string[];
  /** Those of `paths` that are files (a shell start-up file, an included config), not folders, when they do not exist. */
  files: string[];
}

/** Config includes followed at most this deep. */
const INCLUDE_DEPTH = 4;

/** The real path a symlink leads to, or null when `path` is not a symlink (or leads nowhere). */
function symlinkTarget(path: string): string | null {
  try {
    if (!lstatSync(path).isSymbolicLink()) return null;
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** Submodules followed at most this deep and this many in all (each costs a few binds). */
const SUBMODULE_DEPTH = 3;
const MAX_SUBMODULES = 256;

/**
 * The `.git` of every gitlink in the indexes of `roots` (and of theirs, a few levels deep): a later
 * `git status` in the parent recurses into each populated one and runs what its config names.
 */
export function submoduleGits(roots: string[]): string[] {
  const found: string[] = [];
  let level = roots;
  for (let depth = 0; depth < SUBMODULE_DEPTH && level.length > 0 && found.length < MAX_SUBMODULES; depth++) {
    const next: string[] = [];
    for (const root of level) {
      for (const link of gitlinks(indexFileOf(join(root, ".git")))) {
        const sub = resolve(root, link);
        if (!isInside(root, sub) || found.length >= MAX_SUBMODULES) continue;
        found.push(join(sub, ".git"));
        next.push(sub);
      }
    }
    level = next;
  }
  return [...new Set(found)];
}

/**
 * Contract: reads only the roots' git indexes. Every root's `.git` and every submodule's (pinned,
 * and its config, hooks, ... read-only), each root's `.nanohermes`, and the home and NanoHermes
 * config paths that fall inside one of the roots. Paths outside every root are left out:
 * Landlock already makes them read-only.
 */
export function protectedSet(roots: string[], home = homedir(), nhHome = nanohermesHome()): ProtectedSet {
  const absRoots = [...new Set(roots.map((r) => resolve(r)))];
  const pins: string[] = [];
  const paths: string[] = [];
  const files: string[] = [];
  for (const root of absRoots) {
    pins.push(join(root, ".git"));
    paths.push(join(root, ".nanohermes"));
  }
  const submodules = submoduleGits(absRoots).filter((git) => !pins.includes(git));
  pins.push(...submodules);
  const inRoot = (path: string) => absRoots.some((root) => isInside(root, path));
  // A `.git` file's repository inside a writable root (a submodule's absorbed git dir elsewhere in
  // the workspace, a linked worktree's) is protected as a git dir of its own.
  for (const pin of [...pins]) {
    const target = gitDirOf(pin);
    const inModules = pins.some(
      (git) => isInside(join(git, "modules"), target ?? "") || isInside(join(git, "worktrees"), target ?? ""),
    );
    if (target !== null && target !== pin && inRoot(target) && !inModules && !pins.includes(target)) pins.push(target);
  }
  // A core.hooksPath (husky and similar set one) inside a writable root holds hooks like .git/hooks.
  const globalConfigs = [
    join(home, ".gitconfig"),
    join(process.env.XDG_CONFIG_HOME ?? join(home, ".config"), "git", "config"),
  ];
  for (const root of absRoots) {
    const gitDir = gitDirOf(join(root, ".git"));
    const fromRepo = gitDir ? hooksPathIn(join(gitDir, "config")) : null;
    const value = fromRepo ?? globalConfigs.map(hooksPathIn).find((v) => v !== null) ?? null;
    if (!value) continue;
    const path = value.startsWith("~/") ? join(home, value.slice(2)) : resolve(root, value);
    if (inRoot(path)) paths.push(path);
  }
  // Files a config includes are config too (`include.path`, `includeIf`), a few levels deep.
  const configs = [
    ...globalConfigs,
    ...pins.flatMap((pin) => {
      const dir = gitDirOf(pin);
      return dir ? [join(dir, "config"), join(dir, "config.worktree")] : [];
    }),
  ];
  const seen = new Set<string>();
  for (let depth = 0; depth < INCLUDE_DEPTH && configs.length > 0; depth++) {
    const next: string[] = [];
    for (const config of configs) {
      if (seen.has(config)) continue;
      seen.add(config);
      for (const value of includePathsIn(config)) {
        const path = value.startsWith("~/") ? join(home, value.slice(2)) : resolve(dirname(config), value);
        if (inRoot(path)) paths.push(path), files.push(path);
        next.push(path);
      }
    }
    configs.splice(0, configs.length, ...next);
  }
  for (const rel of HOME_PROTECTED) {
    const path = join(home, rel);
    if (!inRoot(path)) continue;
    paths.push(path);
    if (!HOME_FOLDERS.has(rel)) files.push(path);
  }
  // A protected part that is a symlink (`.git/hooks -> ../hooks`) is read through: its target
  // inside a writable root is protected as well (the bind and the check both skip symlinks).
  const parts = [...paths, ...pins.flatMap((pin) => GIT_DIR_PROTECTED.map((part) => join(pin, part)))];
  for (const part of parts) {
    const target = symlinkTarget(part);
    if (target !== null && inRoot(target)) paths.push(target);
  }
  const checked = [...paths];
  if (inRoot(resolve(nhHome))) {
    paths.push(resolve(nhHome));
    checked.push(...NH_HOME_CHECKED.map((name) => join(resolve(nhHome), name)));
  }
  return {
    roots: absRoots,
    pins,
    paths: [...new Set(paths)],
    checked: [...new Set(checked)],
    submodules,
    files: [...new Set(files)],
  };
}

/**
 * Folders of a git dir that the helper makes (empty) when missing and keeps, so they are bound
 * read-only too: git itself makes both at `git init`.
 */
const PLACEHOLDERS = ["hooks", "info"];

/** Parts of a git dir that must stay absent when they are (the helper binds a placeholder while a command runs). */
const GIT_ABSENT: Record<string, "file" | "dir"> = {
  "config.worktree": "file",
  commondir: "file",
  modules: "dir",
  worktrees: "dir",
};

const exists = (path: string): boolean => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * Contract: every path of `set` that a command must not create when it does not exist, with the
 * kind of harmless placeholder that stands in for it (an empty folder or file; a commondir naming
 * the git dir itself): the parts of each `.git` folder above, the folder of each submodule that is
 * not checked out, and each protected path beyond `.git`. Not a root's own missing `.git` (`git init` must work; the
 * check after the command neutralises a new one) nor parts of a `.git` that is missing or a file.
 */
export function absentKinds(set: ProtectedSet, gitIsDir: (git: string) => boolean): Map<string, "file" | "dir"> {
  const kinds = new Map<string, "file" | "dir">();
  for (const pin of set.pins) {
    if (gitIsDir(pin)) for (const [part, kind] of Object.entries(GIT_ABSENT)) kinds.set(join(pin, part), kind);
    // A submodule not checked out: its folder (git leaves it empty) must not gain a `.git`. No
    // placeholder `.git` is harmless to git (an empty folder breaks `git add`, an empty file
    // `git status`), so the folder itself is bound read-only, or made when it is missing too.
    else if (set.submodules.includes(pin) && !exists(pin)) kinds.set(dirname(pin), "dir");
  }
  for (const path of set.paths) kinds.set(path, set.files.includes(path) ? "file" : "dir");
  return kinds;
}

/** The modification time the helper gives a placeholder (PLACEHOLDER_MTIME in native/placeholder.h): 1970-01-01T00:00:01.234Z. */
export const PLACEHOLDER_MTIME_MS = 1234;

/** What a placeholder of `kind` at `path` holds when it is a file (commondir cannot be empty: git refuses it). */
export const placeholderText = (path: string): string => (basename(path) === "commondir" ? ".\n" : "");

/**
 * The helper's arguments. The `.git` entry itself is pinned (a directory stays writable for
 * objects, refs and the index) and only made read-only when it is a file; its parts are read-only,
 * and a part or other protected path that does not exist is passed as one that must stay absent.
 */
export function protectArgs(set: ProtectedSet, gitIsFile: (git: string) => boolean): string[] {
  const args: string[] = [];
  const isDir = (git: string) => !gitIsFile(git) && exists(git);
  const absent = absentKinds(set, isDir);
  // Passed as one that must stay absent whether it exists now or not: the helper decides when it
  // runs (another command's placeholder may be there now; it is then shared, not taken for the user's).
  const guard = (path: string) => {
    const kind = absent.get(path);
    args.push(kind ? `--absent-${kind}` : "--protect", path);
  };
  for (const pin of set.pins) {
    args.push("--pin", pin);
    // A `.git` file (worktree, submodule) is itself the pointer to the repository.
    if (gitIsFile(pin)) args.push("--protect", pin);
    else if (!exists(pin)) {
      const folder = dirname(pin);
      if (absent.has(folder) && (!exists(folder) || isEmptyDir(folder))) guard(folder);
    } else
      for (const part of GIT_DIR_PROTECTED)
        if (PLACEHOLDERS.includes(part)) args.push("--placeholder", join(pin, part));
        else guard(join(pin, part));
  }
  for (const path of set.paths) guard(path);
  return args;
}

const isEmptyDir = (dir: string): boolean => {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return false;
  }
};

/** What a git directory holds besides objects, refs and the index: a folder with these and a HEAD is one. */
const GIT_DIR_NAMES = new Set([...GIT_DIR_PROTECTED, "gitdir", "HEAD"]);

/** Whether `dir` is (or with one more file becomes) a git directory that git would use. */
function looksLikeGitDir(dir: string, adding: string): boolean {
  const has = (name: string) => name === adding || existsSync(join(dir, name));
  return has("HEAD") && (has("config") || has("commondir") || existsSync(join(dir, "objects")));
}

/**
 * Contract: why a write to the canonical path `real` would plant something a later unsandboxed
 * program reads as code or configuration, or null. The file tools ask this before every write; it
 * reads the same set as the helper's binds and the check after every command (`protectedSet` of
 * `roots`), plus what that set names by shape wherever it lies: any `.git` entry and its control
 * files, any `.nanohermes` folder, and a folder that is or would become a git directory.
 */
export function protectedReason(
  real: string,
  roots: string[],
  home = homedir(),
  nhHome = nanohermesHome(),
): string | null {
  const parts = real.split(sep);
  const git = parts.indexOf(".git");
  if (git >= 0) {
    const part = parts[git + 1];
    if (part === undefined) return ".git is where git finds its repository";
    if (GIT_DIR_PROTECTED.includes(part)) return `.git/${part} is read by every later git command`;
  }
  if (parts.includes(".nanohermes")) return ".nanohermes holds NanoHermes's own configuration";
  const name = basename(real);
  const dir = dirname(real);
  if (GIT_DIR_NAMES.has(name) && looksLikeGitDir(dir, name))
    return `${dir} is (or would become) a git directory, whose ${name} git reads`;
  const parentName = basename(dir);
  if ((parentName === "hooks" || parentName === "info") && looksLikeGitDir(dirname(dir), ""))
    return `${dir} belongs to a git directory`;
  const set = protectedSet(roots, home, nhHome);
  const under = (p: string) => real === p || real.startsWith(p.endsWith(sep) ? p : p + sep);
  for (const pin of set.pins) {
    if (real === pin) return `${pin} is where git finds its repository`;
    for (const part of GIT_DIR_PROTECTED) if (under(join(pin, part))) return `${join(pin, part)} is read by git`;
  }
  const hit = set.paths.find(under);
  return hit === undefined ? null : `${hit} is read as code or configuration outside the sandbox`;
}
