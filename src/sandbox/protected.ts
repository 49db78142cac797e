// Which paths a sandboxed command must not change although they lie inside a writable root:
// places whose contents run later outside the sandbox (git hooks and config, shell start-up
// files, ~/.ssh, NanoHermes's own config). Shared by the helper's mount layer and the check after
// every command, so both protect the same set.
import { homedir } from "node:os";
import { join, resolve, sep } from "node:path";
import { nanohermesHome } from "../config/paths.js";
import { gitDirOf, gitlinks, hooksPathIn, indexFileOf } from "./git-index.js";

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
];

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
  const configs = [
    join(home, ".gitconfig"),
    join(process.env.XDG_CONFIG_HOME ?? join(home, ".config"), "git", "config"),
  ];
  for (const root of absRoots) {
    const gitDir = gitDirOf(join(root, ".git"));
    const fromRepo = gitDir ? hooksPathIn(join(gitDir, "config")) : null;
    const value = fromRepo ?? configs.map(hooksPathIn).find((v) => v !== null) ?? null;
    if (!value) continue;
    const path = value.startsWith("~/") ? join(home, value.slice(2)) : resolve(root, value);
    if (inRoot(path)) paths.push(path);
  }
  for (const rel of HOME_PROTECTED) {
    const path = join(home, rel);
    if (inRoot(path)) paths.push(path);
  }
  const checked = [...paths];
  if (inRoot(resolve(nhHome))) {
    paths.push(resolve(nhHome));
    checked.push(...NH_HOME_CHECKED.map((name) => join(resolve(nhHome), name)));
  }
  return { roots: absRoots, pins, paths: [...new Set(paths)], checked: [...new Set(checked)], submodules };
}

/**
 * The helper's arguments. The `.git` entry itself is pinned (a directory stays writable for
 * objects, refs and the index) and only made read-only when it is a file; its parts are read-only.
 */
export function protectArgs(set: ProtectedSet, gitIsFile: (git: string) => boolean): string[] {
  const args: string[] = [];
  for (const pin of set.pins) {
    args.push("--pin", pin);
    // A `.git` file (worktree, submodule) is itself the pointer to the repository.
    if (gitIsFile(pin)) args.push("--protect", pin);
    else for (const part of GIT_DIR_PROTECTED) args.push("--protect", join(pin, part));
  }
  for (const path of set.paths) args.push("--protect", path);
  return args;
}
