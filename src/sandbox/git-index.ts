// The gitlinks (submodule entries) of a repository's index, read from the file itself (versions 2
// to 4, SHA-1 or SHA-256): a later `git status` recurses into each populated one and runs what
// its config names, so their git dirs are protected like the repository's own.
import { lstatSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { readRegular } from "./fd-ops.js";

/** Larger indexes are not read (the cost would be paid by every command). */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
const GITLINK = 0o160000;

/** The git directory behind `git`: itself when a folder, the target of a `gitdir:` file, else null. */
export function gitDirOf(git: string): string | null {
  try {
    const stats = lstatSync(git);
    if (stats.isDirectory()) return git;
    // A symlinked `.git` (or part) is the folder it leads to: that is what git reads.
    if (stats.isSymbolicLink()) return statSync(git).isDirectory() ? realpathSync(git) : null;
    if (!stats.isFile()) return null;
    const match = /^gitdir: (.+)$/m.exec(readRegular(git, 4096)?.toString("utf8") ?? "");
    if (!match) return null;
    const dir = match[1]!.trim();
    return isAbsolute(dir) ? resolve(dir) : resolve(git, "..", dir);
  } catch {
    return null;
  }
}

/** Where the index of the repository whose `.git` (a folder or a `gitdir:` file) is `git` lives. */
export function indexFileOf(git: string): string | null {
  const dir = gitDirOf(git);
  return dir === null ? null : join(dir, "index");
}

function parse(buf: Buffer, hashBytes: number): string[] | null {
  const version = buf.readUInt32BE(4);
  const count = buf.readUInt32BE(8);
  const found: string[] = [];
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = offset;
    if (offset + 40 + hashBytes + 2 > buf.length) return null;
    const mode = buf.readUInt32BE(offset + 24);
    const flags = buf.readUInt16BE(offset + 40 + hashBytes);
    offset += 40 + hashBytes + 2;
    if (flags & 0x4000) {
      if (version < 3) return null;
      offset += 2;
    }
    let path: string;
    if (version === 4) {
      // Prefix compression: drop N bytes of the previous path, then a NUL-terminated suffix.
      let c = buf[offset++] ?? 0;
      let strip = c & 127;
      while (c & 128) {
        c = buf[offset++] ?? 0;
        strip = ((strip + 1) << 7) | (c & 127);
      }
      const end = buf.indexOf(0, offset);
      if (end < 0 || strip > previous.length) return null;
      const bytes = Buffer.concat([previous.subarray(0, previous.length - strip), buf.subarray(offset, end)]);
      offset = end + 1;
      const nameLength = flags & 0xfff;
      if (nameLength < 0xfff && nameLength !== bytes.length) return null;
      previous = bytes;
      path = bytes.toString("utf8");
    } else {
      const end = buf.indexOf(0, offset);
      if (end < 0) return null;
      const nameLength = flags & 0xfff;
      if (nameLength < 0xfff && nameLength !== end - offset) return null;
      path = buf.toString("utf8", offset, end);
      previous = buf.subarray(offset, end);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      offset = start + ((end - start + 8) & ~7);
    }
    if (mode === GITLINK) found.push(path);
  }
  return found;
}

/**
 * Contract: the paths (relative to the work tree) of every gitlink in `indexFile`; [] when there is
 * no index, it is too large, or it cannot be read (never throws).
 */
export function gitlinks(indexFile: string | null): string[] {
  if (!indexFile) return [];
  // Read before and after every command: an unchanged index (same inode, size, time) is not parsed again.
  let key: string;
  try {
    const stats = lstatSync(indexFile);
    key = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  } catch {
    return [];
  }
  const cached = parsed.get(indexFile);
  if (cached?.key === key) return cached.links;
  const links = readGitlinks(indexFile);
  if (parsed.size > 64) parsed.clear();
  parsed.set(indexFile, { key, links });
  return links;
}

const parsed = new Map<string, { key: string; links: string[] }>();

function readGitlinks(indexFile: string): string[] {
  // Read without following a symlink or blocking on a FIFO a command may have put there.
  const buf = readRegular(indexFile, MAX_INDEX_BYTES);
  if (buf === null || buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") return [];
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return [];
  // SHA-1 or SHA-256: only one of them parses the entries consistently.
  return parse(buf, 20) ?? parse(buf, 32) ?? [];
}

/** One `key = value` of a git config file, with its section (lower case) and subsection. */
export interface ConfigEntry {
  section: string;
  subsection: string | null;
  key: string;
  value: string;
}

/**
 * A small reader for git config files (sections, subsections, `key = value`, quotes), enough for the
 * keys that name programs or other files: a value it misses only leaves that path to the other
 * checks, and the files it reads are protected themselves. Never throws.
 */
export function configEntries(configFile: string): ConfigEntry[] {
  const text = readRegular(configFile, 1024 * 1024)?.toString("utf8");
  if (text === undefined) return [];
  const entries: ConfigEntry[] = [];
  let section = "";
  let subsection: string | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const header = /^\[([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\]\s*(.*)$/.exec(line);
    const body = header ? header[3]! : line;
    if (header) {
      section = header[1]!.toLowerCase();
      subsection = header[2] ?? null;
    }
    const pair = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*?)\s*(?:[#;].*)?$/.exec(body);
    if (pair)
      entries.push({ section, subsection, key: pair[1]!.toLowerCase(), value: pair[2]!.replace(/^"(.*)"$/, "$1") });
  }
  return entries;
}

/** `core.hooksPath` as set in one config file, or null. */
export function hooksPathIn(configFile: string): string | null {
  let found: string | null = null;
  for (const e of configEntries(configFile))
    if (e.section === "core" && e.subsection === null && e.key === "hookspath") found = e.value;
  return found;
}

/** The files one config file includes (`include.path`, `includeIf.*.path`), as written. */
export function includePathsIn(configFile: string): string[] {
  return configEntries(configFile)
    .filter((e) => (e.section === "include" || e.section === "includeif") && e.key === "path")
    .map((e) => e.value);
}
