// The second layer over protected paths: a snapshot before a sandboxed command, and after it every
// change found and reverted (a new `.git` is neutralised instead), so nothing a command planted
// runs later outside the sandbox. Holds also where the helper cannot make a mount namespace.
import { closeSync, existsSync, lstatSync, readdirSync, readlinkSync, type Stats } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { absentKinds, PLACEHOLDER_MTIME_MS, placeholderText, submoduleGits, type ProtectedSet } from "./protected.js";
import { gitDirOf } from "./git-index.js";
import { at, openDir, readRegular, RootedFs } from "./fd-ops.js";
import { neutraliseGitDir, neutraliseGitTree } from "./git-neutralise.js";

/** Files kept in a snapshot up to this size; a larger changed file is reported, not restored. */
const MAX_FILE_BYTES = 1024 * 1024;
/**
 * Entries the snapshot before a command records. Past it the check cannot tell what a command
 * changed, so the command is refused (fail closed) instead of walking part of the set: a silent cap
 * let 5,100 padding files hide a new hook. The walk after a command is bounded by this snapshot:
 * it descends only into folders the snapshot had, and removes whatever else it finds whole.
 */
export const MAX_ENTRIES = 20_000;

/** Thrown when the protected set holds more than MAX_ENTRIES entries before a command. */
export class ProtectedSetTooLarge extends Error {}
/**
 * Not compared inside .git/modules and .git/worktrees: the state that ordinary git use in a
 * submodule or linked worktree changes (objects, refs, index, HEAD, a rebase in progress). None
 * of it names a program; config, hooks and the pointers (commondir, gitdir) are still compared.
 */
const GIT_STATE = new Set([
  "objects",
  "refs",
  "lfs",
  "logs",
  "index",
  "HEAD",
  "ORIG_HEAD",
  "FETCH_HEAD",
  "MERGE_HEAD",
  "MERGE_MSG",
  "MERGE_MODE",
  "CHERRY_PICK_HEAD",
  "REVERT_HEAD",
  "AUTO_MERGE",
  "BISECT_LOG",
  "packed-refs",
  "COMMIT_EDITMSG",
  "rebase-merge",
  "rebase-apply",
  "sequencer",
  "shallow",
  "locked",
  "description",
  "gc.pid",
  "gc.log",
]);
const isGitState = (name: string) => GIT_STATE.has(name) || name.endsWith(".lock");

type Entry =
  | { type: "missing" }
  | { type: "dir"; mode: number; mtimeMs?: number }
  | { type: "file"; mode: number; size: number; data: Buffer | null; mtimeMs: number; ino: number }
  | { type: "link"; target: string }
  | { type: "other" }
  /** Behind a symlinked folder: not compared, never restored. */
  | { type: "unreachable" };

export interface Snapshot {
  entries: Map<string, Entry>;
  /** When it was taken (ms since the epoch): later change times are the command's doing. */
  takenAt: number;
  /** The `.git` of each root that did not exist: a new one is neutralised, not removed. */
  missingGit: Set<string>;
  /** Roots that were a git directory themselves (a `HEAD` with `objects` and `refs`, as git checks). */
  gitRoots?: string[];
}

/** Whether `dir` is a git directory as git's discovery sees one: HEAD, and objects and refs folders. */
function isGitDirectory(dir: string): boolean {
  try {
    return (
      lstatSync(join(dir, "HEAD")).isFile() &&
      (lstatSync(join(dir, "objects")).isDirectory() || lstatSync(join(dir, "commondir")).isFile()) &&
      lstatSync(join(dir, "refs")).isDirectory()
    );
  } catch {
    return false;
  }
}

/** `name` in the folder open as `fd`, read without following a symlink. */
function entryAt(fd: number, name: string): Entry {
  const path = at(fd, name);
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return { type: "missing" };
  }
  if (stats.isDirectory()) return { type: "dir", mode: stats.mode & 0o7777, mtimeMs: stats.mtimeMs };
  if (stats.isSymbolicLink()) return { type: "link", target: readlinkSync(path) };
  if (stats.isFile()) {
    const data = stats.size <= MAX_FILE_BYTES ? readRegular(path, MAX_FILE_BYTES) : null;
    return { type: "file", mode: stats.mode & 0o7777, size: stats.size, data, mtimeMs: stats.mtimeMs, ino: stats.ino };
  }
  return { type: "other" };
}

/** How one walk goes: against a snapshot taken before (after a command), or bounded (before). */
interface WalkRun {
  into: Map<string, Entry>;
  /** The snapshot before the command: only its folders are entered, anything new is removed whole. */
  before?: Map<string, Entry>;
}

/** Records `name` (at `path`) and, for a real folder, everything beneath it, all by descriptor. */
function walkAt(
  fd: number,
  name: string,
  path: string,
  run: WalkRun,
  skip: (name: string) => boolean,
  depth: number,
): void {
  const { into, before } = run;
  if (!before && into.size >= MAX_ENTRIES)
    throw new ProtectedSetTooLarge(
      `the protected paths hold more than ${MAX_ENTRIES} entries (at ${path}), too many to check after a command`,
    );
  const entry = entryAt(fd, name);
  into.set(path, entry);
  // After the command, a folder that was not one before is new: removed whole, never walked.
  if (entry.type !== "dir" || depth > 8 || (before && before.get(path)?.type !== "dir")) return;
  let dir: number;
  try {
    dir = openDir(at(fd, name));
  } catch {
    return;
  }
  try {
    // Git never runs a *.sample hook, and samples are most of a fresh hooks folder: not compared.
    for (const child of readdirSync(`/proc/self/fd/${dir}`, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      if (skip(child.name) || child.name.endsWith(".sample")) continue;
      const childPath = join(path, child.name);
      // A name the snapshot before did not have: recorded by its type alone (no read, no descent),
      // so any number of padding entries costs one listing and cannot hide anything.
      if (before && !before.has(childPath)) into.set(childPath, child.isDirectory() ? NEW_DIR : NEW_OTHER);
      else walkAt(dir, child.name, childPath, run, skip, depth + 1);
    }
  } catch (error) {
    if (error instanceof ProtectedSetTooLarge) throw error;
    // unreadable: what was recorded stands
  } finally {
    closeSync(dir);
  }
}

const NEW_DIR: Entry = { type: "dir", mode: -1 };
const NEW_OTHER: Entry = { type: "other" };

/** Records `path` and beneath it; a path behind a symlinked folder is recorded as unreachable. */
const noSkip = () => false;

function walk(fs: RootedFs, path: string, run: WalkRun, skip: (name: string) => boolean = noSkip): Entry {
  try {
    fs.withParent(path, (fd, name) => walkAt(fd, name, path, run, skip, 0));
  } catch (error) {
    if (error instanceof ProtectedSetTooLarge) throw error;
    run.into.set(path, { type: "unreachable" });
  }
  return run.into.get(path) ?? { type: "unreachable" };
}

/**
 * Contract: reads only; never follows a symlink. Records each root's `.git` and its protected
 * parts, and each other protected path with what lies beneath it: the files that name programs
 * first (config, commondir), then hooks and the other folders, then submodule and worktree git
 * dirs. Given `before` (the snapshot before a command) it enters only folders that one had.
 * Throws ProtectedSetTooLarge past MAX_ENTRIES when `before` is not given.
 */
export function snapshotProtected(set: ProtectedSet, before?: Snapshot): Snapshot {
  // File change times come from a coarse kernel clock that may lag this one by a tick.
  const takenAt = Date.now() - CLOCK_SLACK_MS;
  const entries = new Map<string, Entry>();
  const run: WalkRun = before ? { into: entries, before: before.entries } : { into: entries };
  const missingGit = new Set<string>();
  const fs = new RootedFs(set.roots);
  const dirs: { git: string; fs: RootedFs }[] = [];
  for (const git of set.pins) {
    try {
      fs.withParent(git, (fd, name) => {
        const entry = entryAt(fd, name);
        entries.set(git, entry);
        if (entry.type === "missing") missingGit.add(git);
        if (entry.type === "dir") dirs.push({ git, fs });
      });
    } catch {
      entries.set(git, { type: "unreachable" });
    }
  }
  // In order of what matters most, so nothing important is behind whatever comes last.
  const order = [
    ["config", "config.worktree", "commondir"],
    ["hooks", "info"],
  ];
  for (const parts of order) for (const { git } of dirs) walkParts(fs, git, parts, run);
  for (const path of set.checked) walk(fs, path, run);
  for (const { git } of dirs) walkParts(fs, git, ["modules", "worktrees"], run);
  return { entries, missingGit, takenAt, gitRoots: set.roots.filter(isGitDirectory) };
}

/** Walks `parts` of the git dir `git` from one descriptor of it, not each from the root again. */
function walkParts(fs: RootedFs, git: string, parts: string[], run: WalkRun): void {
  try {
    fs.withParent(git, (fd, name) => {
      const dir = openDir(at(fd, name));
      try {
        for (const part of parts)
          walkAt(dir, part, join(git, part), run, part === "modules" || part === "worktrees" ? isGitState : noSkip, 0);
      } finally {
        closeSync(dir);
      }
    });
  } catch (error) {
    if (error instanceof ProtectedSetTooLarge) throw error;
    // swapped away since it was found: its parts are compared as missing, and put back
  }
}

const CLOCK_SLACK_MS = 100;

/** The files through which a git dir runs programs, changed (ctime, which a command cannot set back) since `since`. */
function touchedSince(gitDir: string, since: number): boolean {
  const paths = ["config", "config.worktree", "commondir"].map((name) => join(gitDir, name));
  try {
    for (const name of readdirSync(join(gitDir, "hooks"))) paths.push(join(gitDir, "hooks", name));
  } catch {
    // no hooks folder
  }
  return paths.some((path) => {
    try {
      return lstatSync(path).ctimeMs >= since;
    } catch {
      return false;
    }
  });
}

/**
 * Submodules the command added to an index (`git add` of a nested repository it made): a later
 * `git status` in the parent would run what their config names. One whose git dir changed during
 * the command is neutralised like a new repository; the rest were there before and are the user's.
 */
function neutraliseNewSubmodules(
  fs: RootedFs,
  set: ProtectedSet,
  since: number,
  label: (path: string) => string,
): string[] {
  const changes: string[] = [];
  for (const git of submoduleGits(set.roots)) {
    if (set.pins.includes(git)) continue;
    const gitDir = gitDirOf(git);
    if (gitDir === null || !set.roots.some((root) => under(root, gitDir)) || !touchedSince(gitDir, since)) continue;
    const done = neutraliseGitDir(fs, gitDir);
    if (done.length > 0)
      changes.push(`${label(gitDir)} (a repository staged as a submodule; removed ${done.join(", ")})`);
  }
  return changes;
}

const same = (a: Entry, b: Entry): boolean => {
  if (a.type === "unreachable" || b.type === "unreachable") return true;
  if (a.type !== b.type) return false;
  if (a.type === "dir" && b.type === "dir") return a.mode === b.mode;
  if (a.type === "link" && b.type === "link") return a.target === b.target;
  if (a.type === "file" && b.type === "file") {
    if (a.size !== b.size || a.mode !== b.mode) return false;
    if (a.data && b.data) return a.data.equals(b.data);
    return a.mtimeMs === b.mtimeMs && a.ino === b.ino;
  }
  return true;
};

const under = (root: string, path: string) => path === root || path.startsWith(root + sep);

/** Puts `entry` back at `path`, replacing whatever is there, through `fs` (no symlink followed). */
function restore(fs: RootedFs, path: string, entry: Entry, now: Entry): boolean {
  if (entry.type === "missing") {
    fs.remove(path);
    return true;
  }
  if (entry.type === "dir") {
    if (now.type !== "dir") {
      fs.remove(path);
      fs.mkdir(path, entry.mode);
    }
    fs.chmodDir(path, entry.mode);
    return true;
  }
  if (entry.type === "link") {
    fs.remove(path);
    fs.symlink(entry.target, path);
    return true;
  }
  if (entry.type === "file" && entry.data) {
    fs.replaceFile(path, entry.data, entry.mode);
    return true;
  }
  // Not kept (too large): what the command put there goes, rather than stay (fail closed).
  fs.remove(path);
  return false;
}

export interface Reverted {
  /** One phrase per change, paths relative to their root: ".git/config (changed, restored)". */
  changes: string[];
  /** Changes that could not be undone (a large file, an I/O error). */
  failures: string[];
}

/**
 * Contract: compares the protected set now with `before` and undoes every difference: changed and
 * removed entries are put back, new ones removed, and a `.git` that did not exist is kept but
 * neutralised (see git-neutralise.ts). Parents are restored before their children, and nothing
 * is written through a symlink. Returns what it did, for the notice to the user and the model.
 */
export function revertProtected(set: ProtectedSet, before: Snapshot, options: { sweep?: boolean } = {}): Reverted {
  const after = snapshotProtected(set, before);
  const fs = new RootedFs(set.roots);
  const placeholders = absentKinds(set, (git) => lstatSync(git, { throwIfNoEntry: false })?.isDirectory() === true);
  // The helper's placeholders (an empty folder, an empty file, a commondir of "."; marked by their
  // time) stand in while commands run and stay when they end: neither put back nor reported. The
  // last command of a workspace (`sweep`) removes them, its namespaces gone by then.
  const marked = (mtimeMs: number | undefined) => mtimeMs !== undefined && Math.round(mtimeMs) === PLACEHOLDER_MTIME_MS;
  // Read by path (a symlink on the way can at worst make it look like one; the removal itself goes
  // through `fs`, which follows none).
  const onDisk = (path: string): boolean => {
    if (!placeholders.has(path)) return false;
    try {
      const st = lstatSync(path);
      if (!marked(st.mtimeMs)) return false;
      if (st.isDirectory()) return readdirSync(path).length === 0;
      return st.isFile() && readRegular(path, 64)?.toString() === placeholderText(path);
    } catch {
      return false;
    }
  };
  const wasOne = (path: string, entry: Entry): boolean => {
    if (!placeholders.has(path)) return false;
    if (entry.type === "file") return marked(entry.mtimeMs) && entry.data?.toString() === placeholderText(path);
    return (
      entry.type === "dir" && marked(entry.mtimeMs) && ![...before.entries.keys()].some((k) => k.startsWith(path + sep))
    );
  };
  const sweepOne = (path: string) => {
    if (options.sweep) attempt(path, () => fs.remove(path));
  };
  const changes: string[] = [];
  const failures: string[] = [];
  const label = (path: string) => {
    const root = set.roots.filter((r) => under(r, path)).sort((a, b) => b.length - a.length)[0];
    return root ? relative(root, path) || basename(path) : path;
  };
  // A neutralisation that fails half way (a folder swapped for a link) is reported, not thrown.
  const attempt = (what: string, op: () => void) => {
    try {
      op();
    } catch (error) {
      failures.push(`${label(what)} (${(error as Error).message})`);
    }
  };
  const newGit = [...before.missingGit].filter((git) => after.entries.get(git)?.type !== "missing");
  const skip = (path: string) => newGit.some((git) => under(git, path));

  // Submodule and linked-worktree git directories come and go with ordinary use (`git submodule
  // add`, `git worktree remove`): new ones are kept but neutralised, removed ones stay removed.
  const subTree = (path: string): "modules" | "worktrees" | null => {
    for (const git of set.pins) {
      if (under(join(git, "modules"), path)) return "modules";
      if (under(join(git, "worktrees"), path)) return "worktrees";
    }
    return null;
  };
  const paths = [...new Set([...before.entries.keys(), ...after.entries.keys()])].sort(
    (a, b) => a.length - b.length || a.localeCompare(b),
  );
  const removed: string[] = [];
  for (const path of paths) {
    if (skip(path) || removed.some((r) => under(r, path))) continue;
    const was = before.entries.get(path);
    const now = after.entries.get(path) ?? { type: "missing" as const };
    // A path only the second walk found is new beneath a protected folder.
    const wanted: Entry = was ?? { type: "missing" };
    if (same(wanted, now)) {
      if (options.sweep && onDisk(path)) sweepOne(path);
      continue;
    }
    if ((wanted.type === "missing" || wasOne(path, wanted)) && onDisk(path)) {
      sweepOne(path);
      continue;
    }
    if (now.type === "missing" && wasOne(path, wanted)) continue;
    const tree = subTree(path);
    if (tree && now.type === "missing") continue;
    if (tree && wanted.type === "missing" && now.type === "dir") {
      removed.push(path);
      attempt(path, () => {
        const done = neutraliseGitTree(fs, path, label(path), tree === "worktrees");
        if (done.length > 0) changes.push(`${label(path)} (created; kept, removed ${done.join(", ")})`);
      });
      continue;
    }
    const what =
      wanted.type === "missing"
        ? "created, removed"
        : now.type === "missing"
          ? "deleted, restored"
          : "changed, restored";
    try {
      if (restore(fs, path, wanted, now)) {
        changes.push(`${label(path)} (${what})`);
        if (wanted.type === "missing") removed.push(path);
      } else failures.push(`${label(path)} (changed; too large to restore, so removed)`);
    } catch (error) {
      failures.push(`${label(path)} (${(error as Error).message})`);
    }
  }
  const inRoots = (path: string) => set.roots.some((root) => under(root, path));
  const inModules = (path: string) =>
    set.pins.some((git) => under(join(git, "modules"), path) || under(join(git, "worktrees"), path));
  for (const git of newGit) {
    // A `.git` file leads to the real git dir: neutralised there when a command could have written
    // it (inside a writable root), left to the modules check when it is a submodule's own.
    const gitDir = gitDirOf(git) ?? git;
    if ((gitDir !== git && inModules(gitDir)) || !inRoots(gitDir)) continue;
    attempt(gitDir, () => {
      const done = neutraliseGitDir(fs, gitDir);
      if (done.length > 0) changes.push(`${label(gitDir)} (a new repository, kept; removed ${done.join(", ")})`);
    });
  }
  attempt("submodules", () => changes.push(...neutraliseNewSubmodules(fs, set, before.takenAt, label)));
  // A writable root turned into a git directory: git run there (with no .git) would read its
  // config and hooks. Without its new HEAD it is not one.
  for (const root of set.roots) {
    if (before.gitRoots?.includes(root) || existsSync(join(root, ".git")) || !isGitDirectory(root)) continue;
    attempt(root, () => {
      fs.remove(join(root, "HEAD"));
      changes.push(`HEAD in ${root} (it made the folder a git directory; removed)`);
    });
  }
  return { changes, failures };
}

/** The notice appended to a command's result, or null when nothing protected changed. */
export function revertNotice(reverted: Reverted): string | null {
  if (reverted.changes.length === 0 && reverted.failures.length === 0) return null;
  const parts = [
    "[protected paths] This command changed files that would run code outside the sandbox later (git hooks and config, shell start-up files, ~/.ssh, NanoHermes config).",
  ];
  if (reverted.changes.length > 0) parts.push(`Reverted: ${reverted.changes.join("; ")}.`);
  if (reverted.failures.length > 0) parts.push(`NOT reverted, check by hand: ${reverted.failures.join("; ")}.`);
  parts.push("Do not change these from a command; ask the user to do it.");
  return parts.join(" ");
}
