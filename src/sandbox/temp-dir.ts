// Which temp folder workspace-write makes writable for commands: TMPDIR, unless that would open
// `/`, the home folder or a parent of the workspace; then a private folder of this process.
// The helper checks the same again (src/sandbox/native/tmpdir.h).
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { resolve, sep } from "node:path";

export interface TempChoice {
  /** The folder passed to the helper as --tmpdir and seen by commands as TMPDIR. */
  dir: string;
  /** One line when TMPDIR was refused and replaced, else null. */
  warning: string | null;
}

const real = (path: string): string | null => {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
};

/** `dir` is `path` or one of its parents (both resolved). */
const contains = (dir: string, path: string): boolean => dir === sep || path === dir || path.startsWith(`${dir}${sep}`);

/**
 * Why `dir` must not become writable, or null. /tmp itself stays allowed as the workspace's
 * parent: every user can write there already.
 */
export function unsafeTempReason(dir: string, workspace: string, home: string): string | null {
  if (dir === sep) return "/";
  const realHome = real(home);
  if (realHome && contains(dir, realHome)) return "the home folder or a parent of it";
  const realWs = real(workspace);
  if (realWs && contains(dir, realWs) && dir !== realWs && dir !== "/tmp") return "a parent of the workspace";
  return null;
}

let privateDir: string | undefined;
/** One private folder per process, made on first need and removed when the process exits. */
function privateTempDir(): string {
  if (privateDir) return privateDir;
  const dir = mkdtempSync("/tmp/nanohermes-tmp-");
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return (privateDir = dir);
}

/** Contract: never returns a folder that unsafeTempReason() refuses; relative or unset TMPDIR means /tmp. */
export function commandTempDir(workspace: string, env: NodeJS.ProcessEnv = process.env): TempChoice {
  const wanted = env.TMPDIR?.startsWith("/") ? env.TMPDIR : "/tmp";
  const resolved = real(wanted);
  const why = resolved
    ? unsafeTempReason(resolved, resolve(workspace), env.HOME?.startsWith("/") ? env.HOME : homedir())
    : null;
  if (!why) return { dir: wanted, warning: null };
  const dir = privateTempDir();
  return {
    dir,
    warning: `TMPDIR ${wanted} is ${why}: not making it writable; commands use the private temp folder ${dir}`,
  };
}
