// Writes and removals beneath a writable root that no symlink can redirect, for the after-command
// check (which runs with the user's rights while sandboxed processes may still run): each path is
// walked from an open descriptor of the root, one component at a time with O_NOFOLLOW, and the
// last step goes through /proc/self/fd/N/NAME, the kernel's stand-in for the *at() calls Node lacks.
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { relative, sep } from "node:path";

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The path of `name` inside the directory open as `fd`, resolved by the kernel without a walk. */
export const at = (fd: number, name: string) => `/proc/self/fd/${fd}/${name}`;

/** Thrown when a component on the way is not a real directory (a symlink planted in the race). */
export class RedirectedPath extends Error {}

export function openDir(path: string): number {
  try {
    return openSync(path, DIR_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR")
      throw new RedirectedPath(`${path} is not a real folder (a symlink?); left alone`);
    throw error;
  }
}

/**
 * Contract: `roots` are writable roots whose own ancestors no sandboxed process can change (the
 * outermost containing root is used). Every operation takes an absolute path beneath a root.
 */
export class RootedFs {
  /** As given (paths are built from these) and as opened (its real path: the root may be a link). */
  private readonly roots: { given: string; real: string }[];
  constructor(roots: string[]) {
    // Outermost first: /tmp before /tmp/ws, so a swap of /tmp/ws itself is caught.
    this.roots = [...roots]
      .sort((a, b) => a.length - b.length)
      .map((given) => {
        try {
          return { given, real: realpathSync(given) };
        } catch {
          return { given, real: given };
        }
      });
  }

  /**
   * Runs `op` with a descriptor of `path`'s parent folder and its last name; closes what it
   * opened. Throws RedirectedPath when a folder on the way is a symlink.
   */
  withParent<T>(path: string, op: (fd: number, name: string) => T): T {
    const root = this.roots.find((r) => path.startsWith(r.given.endsWith(sep) ? r.given : r.given + sep));
    if (!root) throw new RedirectedPath(`${path} is outside the writable roots`);
    const parts = relative(root.given, path).split(sep);
    const name = parts.pop()!;
    let fd = openSync(root.real, DIR_FLAGS);
    try {
      for (const part of parts) {
        const next = openDir(at(fd, part));
        closeSync(fd);
        fd = next;
      }
      return op(fd, name);
    } finally {
      closeSync(fd);
    }
  }

  /** Removes a file, a symlink (never its target) or a folder with everything in it; missing is fine. */
  remove(path: string): void {
    this.withParent(path, (fd, name) => removeAt(fd, name));
  }

  /** Creates `path` (which must not exist) with `data`; a symlink planted there is not followed. */
  writeFile(path: string, data: Buffer | string, mode = 0o644): void {
    this.withParent(path, (fd, name) => {
      const file = openSync(
        at(fd, name),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        mode,
      );
      try {
        const buf = typeof data === "string" ? Buffer.from(data) : data;
        let done = 0;
        while (done < buf.length) done += writeSync(file, buf, done, buf.length - done);
        fchmodSync(file, mode);
      } finally {
        closeSync(file);
      }
    });
  }

  /** Replaces whatever is at `path` with `data`. */
  replaceFile(path: string, data: Buffer | string, mode = 0o644): void {
    this.remove(path);
    this.writeFile(path, data, mode);
  }

  mkdir(path: string, mode: number): void {
    this.withParent(path, (fd, name) => mkdirSync(at(fd, name), { mode }));
  }

  symlink(target: string, path: string): void {
    this.withParent(path, (fd, name) => symlinkSync(target, at(fd, name)));
  }

  /** Sets a folder's mode, through a descriptor opened without following a symlink. */
  chmodDir(path: string, mode: number): void {
    this.withParent(path, (fd, name) => {
      const dir = openDir(at(fd, name));
      try {
        fchmodSync(dir, mode);
      } finally {
        closeSync(dir);
      }
    });
  }
}

function removeAt(parent: number, name: string): void {
  let stats;
  try {
    stats = lstatSync(at(parent, name));
  } catch {
    return;
  }
  if (!stats.isDirectory()) {
    unlinkSync(at(parent, name));
    return;
  }
  const dir = openDir(at(parent, name));
  try {
    if (!fstatSync(dir).isDirectory()) throw new RedirectedPath(`${name} changed while being removed`);
    for (const child of readdirSync(`/proc/self/fd/${dir}`)) removeAt(dir, child);
  } finally {
    closeSync(dir);
  }
  rmdirSync(at(parent, name));
}

/** True where /proc/self/fd works as above (Linux with /proc mounted). */
export function rootedFsAvailable(): boolean {
  try {
    const fd = openSync("/", DIR_FLAGS);
    try {
      return lstatSync(at(fd, ".")).isDirectory();
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * The contents of `path` when it is a regular file of at most `max` bytes, else null. Opened
 * without following a symlink and without blocking, so a FIFO swapped in cannot hang the caller.
 */
export function readRegular(path: string, max: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > max) return null;
    return readFileSync(fd);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
