// The no-follow path walk every file tool, checkpoint restore and daemon file read goes through:
// each component is opened relative to the directory descriptor before it, so no symlink is ever
// followed by the kernel and a directory swapped for a link mid-call cannot redirect a write.
import { closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";
import { fsPath, nameFromBytes } from "../fs/byte-names.js";
import { ToolError } from "./define.js";

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
/**
 * O_PATH (Node does not export it): a directory opened only to look names up in needs search
 * permission, not read, as the kernel's own walk. The value is the generic Linux one; on other
 * architectures the walk opens directories for reading instead.
 */
const O_PATH =
  process.platform === "linux" && ["x64", "arm64", "arm", "ia32", "riscv64", "s390x"].includes(process.arch)
    ? 0o10000000
    : 0;
const DIR_FLAGS = (O_PATH || O_RDONLY | O_NONBLOCK) | O_DIRECTORY | O_NOFOLLOW;
/** Symlinks the walk resolves itself before giving up, as the kernel's own limit. */
const MAX_LINKS = 40;

let procFd: boolean | undefined;

/**
 * Whether `/proc/self/fd/<dirfd>/<name>` works as `openat(dirfd, name)` here (Linux with /proc).
 * The magic link pins the already-open directory, so with a single name after it only that last
 * name is looked up, and O_NOFOLLOW, lstat, rename, unlink and mkdir never follow it.
 */
export function descriptorWalk(): boolean {
  if (procFd !== undefined) return procFd;
  procFd = false;
  // NANOHERMES_TEST_PATH_FS=1 forces the path-based fallback, to show the race test fails without descriptors.
  if (process.platform !== "linux" || process.env.NANOHERMES_TEST_PATH_FS === "1") return procFd;
  let fd: number | undefined;
  try {
    fd = openSync("/", DIR_FLAGS);
    procFd = statSync(`/proc/self/fd/${fd}/.`).ino === statSync("/").ino;
  } catch {
    procFd = false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return procFd;
}

/** A directory reached by the walk: its canonical path, and the descriptor that pins it (null off Linux). */
interface Dir {
  fd: number | null;
  path: string;
}

/** The path the kernel resolves as `name` inside `dir`, following nothing; bytes exact for a name that is not UTF-8. */
function inDir(dir: Dir, name: string): string | Buffer {
  return fsPath(dir.fd === null ? join(dir.path, name) : `/proc/self/fd/${dir.fd}/${name}`);
}

function openDir(parent: Dir | null, name: string, path: string): Dir {
  if (!descriptorWalk()) return { fd: null, path };
  return { fd: openSync(parent === null ? "/" : inDir(parent, name), DIR_FLAGS), path };
}

function closeDir(dir: Dir): void {
  if (dir.fd !== null) closeSync(dir.fd);
}

/** What kind of file `st` is, in words, for refusals ("a FIFO (named pipe)"). */
export function fileType(st: Stats): string {
  if (st.isFile()) return "a regular file";
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

export interface WalkOptions {
  /** Resolve a symlink in the last component (read, write); false to act on the link itself (delete, move, restore). */
  followFinal: boolean;
}

/**
 * The target of a walk: the directory that holds it (pinned), the name inside it, and its canonical
 * path. Contract: `close()` must be called once done; until then `at()` names the target without
 * any symlink being followed at any step, even if directories above it are swapped meanwhile.
 */
export class Walked {
  /** Directories the walk made (canonical paths, top first), for a rollback to remove. */
  readonly made: string[] = [];
  private closed = false;

  constructor(
    private readonly stack: Dir[],
    /** The final name; null when the path names the starting directory itself (`/`, or links ending in `..`). */
    readonly name: string | null,
    /** Missing directories between the deepest existing one and the name. */
    private missing: string[],
    /** The canonical absolute path of the target (symlinks resolved by the walk, never by the kernel). */
    readonly real: string,
  ) {}

  private get dir(): Dir {
    return this.stack[this.stack.length - 1]!;
  }

  /** Whether every directory up to the target exists (else the target is absent). */
  get parentExists(): boolean {
    return this.missing.length === 0;
  }

  /** A path for `name` (default: the target) in the target's directory that follows nothing. */
  at(name = this.target()): string | Buffer {
    if (this.missing.length > 0) {
      throw Object.assign(new Error(`ENOENT: no such directory, ${join(this.dir.path, this.missing[0]!)}`), {
        code: "ENOENT",
      });
    }
    return inDir(this.dir, name);
  }

  private target(): string {
    if (this.name === null) throw new ToolError(`${this.real} is a directory`);
    return this.name;
  }

  /** The first parent on the way that exists but is not a directory (a file now), or null. */
  blockedParent(): string | null {
    if (this.missing.length === 0) return null;
    const name = this.missing[0]!;
    return lstatSync(inDir(this.dir, name), { throwIfNoEntry: false }) ? join(this.dir.path, name) : null;
  }

  /** lstat of the target; null when it (or a parent) does not exist. */
  lstat(): Stats | null {
    if (this.missing.length > 0) return null;
    return lstatSync(this.at(), { throwIfNoEntry: false }) ?? null;
  }

  /** Creates the missing parent directories one by one, each opened no-follow right after it is made. */
  makeParents(mode = 0o777): void {
    while (this.missing.length > 0) {
      const name = this.missing[0]!;
      const path = join(this.dir.path, name);
      try {
        mkdirSync(inDir(this.dir, name), mode);
        this.made.push(path);
      } catch (error) {
        // Made meanwhile by someone else: fine, as long as it is a real directory (the open checks).
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      try {
        this.stack.push(openDir(this.dir, name, path));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOTDIR" || code === "ELOOP")
          throw Object.assign(new Error(`${path} is not a directory`), { code: "ENOTDIR" });
        throw error;
      }
      this.missing.shift();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const dir of this.stack) closeDir(dir);
  }
}

function split(path: string): string[] {
  return path.split("/").filter((c) => c !== "" && c !== ".");
}

/**
 * Contract: walks absolute path `abs` from `/`, one component at a time with O_NOFOLLOW|O_DIRECTORY
 * relative to the directory before it. A symlink met on the way is resolved by the walk itself
 * (read with readlink, its target spliced into the rest, `..` pops the walked directories), so
 * links keep working and the canonical path it reports is the one acted on. Missing components at
 * the end are allowed (reported as `missing`); a `..` after a missing one is refused. Throws a
 * ToolError for loops, a file used as a directory, or a directory that changed under the walk.
 */
export function walk(abs: string, opts: WalkOptions): Walked {
  if (!abs.startsWith("/")) throw new ToolError(`internal: ${abs} is not absolute`);
  const stack: Dir[] = [openDir(null, "/", "/")];
  const done = (name: string | null, missing: string[], real: string) => new Walked(stack, name, missing, real);
  try {
    const queue = split(abs);
    let links = 0;
    while (queue.length > 0) {
      const name = queue.shift()!;
      const cur = stack[stack.length - 1]!;
      if (name === "..") {
        // The root's parent is the root, as in the kernel.
        if (stack.length > 1) closeDir(stack.pop()!);
        continue;
      }
      const last = queue.length === 0;
      const path = join(cur.path, name);
      // Fast path for a directory on the way: one no-follow open, which fails for a link or a file
      // (ENOTDIR, ELOOP) or a missing name (ENOENT); only then is the name looked at more closely.
      if (!last && cur.fd !== null) {
        const opened = tryOpenDir(cur, name, path);
        if (opened) {
          stack.push(opened);
          continue;
        }
      }
      const st = lstatSync(inDir(cur, name), { throwIfNoEntry: false });
      // Nothing exists below a missing name (or a file used as a directory), so the rest is plain
      // names: no links, no `..`. Creating them later fails on the file, as the kernel would.
      if (!st || (!last && !st.isDirectory() && !st.isSymbolicLink())) {
        const rest = [name, ...queue];
        if (rest.includes(".."))
          throw new ToolError(
            `cannot resolve ${abs}: it goes through ${path}, which is not a directory, and back up with ..`,
          );
        return done(rest.at(-1)!, rest.slice(0, -1), join(cur.path, ...rest));
      }
      if (st.isSymbolicLink() && (!last || opts.followFinal)) {
        if (++links > MAX_LINKS) throw new ToolError(`cannot resolve ${abs}: too many levels of symbolic links`);
        let target: string;
        try {
          target = nameFromBytes(readlinkSync(inDir(cur, name), { encoding: "buffer" }));
        } catch (error) {
          // EINVAL/ENOENT: no longer a link (swapped back, or removed) between the lstat and the read.
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "EINVAL" || code === "ENOENT" || code === "ENOTDIR")
            throw new ToolError(`cannot resolve ${abs}: ${path} changed while it was being read (a link swapped away)`);
          throw error;
        }
        // An absolute target starts again from `/`; a relative one continues in the link's directory.
        if (target.startsWith("/")) while (stack.length > 1) closeDir(stack.pop()!);
        queue.unshift(...split(target));
        continue;
      }
      if (last) return done(name, [], path);
      try {
        stack.push(openDir(cur, name, path));
      } catch (error) {
        // ELOOP/ENOTDIR: swapped for a link or a file between the lstat and the open.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ELOOP" || code === "ENOTDIR")
          throw new ToolError(
            `cannot resolve ${abs}: ${path} changed while it was being opened (now a link or a file)`,
          );
        throw error;
      }
    }
    return done(null, [], stack[stack.length - 1]!.path);
  } catch (error) {
    for (const dir of stack) closeDir(dir);
    throw error;
  }
}

/** The directory `name` opened no-follow, or null when it is not one (a link, a file, missing). */
function tryOpenDir(cur: Dir, name: string, path: string): Dir | null {
  try {
    return openDir(cur, name, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR" || code === "ELOOP" || code === "ENOENT") return null;
    throw error;
  }
}

/** Runs `fn` on the walked target and always closes it. */
export async function withWalk<T>(abs: string, opts: WalkOptions, fn: (w: Walked) => Promise<T> | T): Promise<T> {
  const w = walk(abs, opts);
  try {
    return await fn(w);
  } finally {
    w.close();
  }
}
