// System call failures a tool may meet in normal use (a file it may not read, a full disk): these
// are answers for the model, not bugs, so they are named plainly instead of "internal error".

const meanings: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOENT: "no such file or directory",
  ENOTDIR: "not a directory",
  EISDIR: "is a directory",
  EEXIST: "already exists",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "file name too long",
  EMFILE: "too many open files",
  ENFILE: "too many open files in the system",
  EBUSY: "resource busy",
  ETXTBSY: "text file busy",
  EFBIG: "file too large",
  EIO: "input/output error",
  EXDEV: "cross-device link",
  ENOTEMPTY: "directory not empty",
};

/** "permission denied (EACCES)" for a Node system error, or null for anything else. */
export function systemErrorMeaning(error: unknown): string | null {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  const meaning = code !== undefined ? meanings[code] : undefined;
  return meaning ? `${meaning} (${code})` : null;
}

/** "permission denied: /etc/shadow (EACCES)" for a Node system error, or null for anything else. */
export function describeSystemError(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const e = error as NodeJS.ErrnoException;
  const meaning = e.code !== undefined ? meanings[e.code] : undefined;
  if (!meaning) return null;
  const path = e.path ?? (e as { dest?: string }).dest;
  return `${meaning}${path ? `: ${path}` : ""} (${e.code})`;
}
