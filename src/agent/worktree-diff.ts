// /diff's read of the working tree: tracked files against HEAD (staged and unstaged together) and
// untracked files as new ones, file by file, under caps so a huge change cannot stall the UI. git
// runs as the git tools run it (the repository's pager, external diff, textconv switched off).
import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import { gitReadEnv, readArgv } from "../tools/git.js";
import { spawnGroup, stopGroup } from "../tools/process-group.js";
import type { WorktreeDiff, WorktreeFile } from "./workspace-view.js";

/** The caps (README "The terminal UI" names them): past them a file is listed but not shown. */
export const WORKTREE_CAPS = {
  /** Files listed, tracked and untracked together. */
  files: 500,
  /** Diff text read from git for the tracked files. */
  patchBytes: 1024 * 1024,
  /** Untracked files' content read, all together, and per file. */
  untrackedBytes: 1024 * 1024,
  fileBytes: 256 * 1024,
  /** Added plus removed lines of one file. */
  fileLines: 4000,
} as const;

const TIMEOUT_MS = 30_000;
/** Lists (names, counts) are small; a cap still bounds them. */
const LIST_BYTES = 4 * 1024 * 1024;

interface GitOut {
  code: number | null;
  out: string;
  err: string;
  /** More than `cap` bytes came: the rest was not read and git was stopped. */
  cut: boolean;
  /** git is not on the PATH. */
  missing: boolean;
}

/** Runs a read-only git command, keeping at most `cap` bytes of its output (git is stopped past it). */
function git(args: string[], cwd: string, signal: AbortSignal, cap = LIST_BYTES): Promise<GitOut> {
  return new Promise((resolve) => {
    const child = spawnGroup(readArgv(args), { cwd, env: gitReadEnv() });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let err = "";
    let cut = false;
    let missing = false;
    let done = false;
    const stop = () => void stopGroup(child.pid);
    signal.addEventListener("abort", stop, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      if (cut) return;
      const room = cap - bytes;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        bytes = cap;
        cut = true;
        stop();
        return;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < 4096) err += chunk.toString("utf8");
    });
    const finish = (code: number | null) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", stop);
      resolve({ code, out: Buffer.concat(chunks).toString("utf8"), err, cut, missing });
    };
    child.on("error", (e: NodeJS.ErrnoException) => {
      missing = e.code === "ENOENT";
      finish(null);
    });
    child.on("close", (code) => finish(code));
  });
}

const firstLine = (text: string) => text.trim().split("\n", 1)[0] ?? "";

/** `-z` output split into its fields (the last, empty one dropped). */
const fields = (out: string) => out.split("\0").slice(0, -1);

const statusOf: Record<string, WorktreeFile["status"]> = { M: "modified", A: "added", D: "deleted", T: "type" };

/** The sections of a patch, one per file, each from its `diff --git` line; a cut last one dropped. */
function sections(patch: string, cut: boolean): string[] {
  const out = patch.split(/^(?=diff --git )/m).filter((s) => s.startsWith("diff --git "));
  if (cut) out.pop();
  return out;
}

/** A section's hunks (from its first `@@`), or null when it has none (a mode change, a submodule). */
function hunksOf(section: string): string | null {
  const at = section.startsWith("@@") ? 0 : section.indexOf("\n@@");
  return at < 0 ? null : section.slice(at === 0 ? 0 : at + 1);
}

/** An untracked file as the hunk of a new file, or why it is not shown. */
async function untracked(
  root: string,
  path: string,
  budget: { left: number },
  caps: WorktreeCaps,
): Promise<WorktreeFile> {
  const file: WorktreeFile = { path, status: "untracked", added: 0, removed: 0, binary: false, patch: null };
  try {
    const st = await lstat(join(root, path));
    if (st.isSymbolicLink()) return { ...file, note: "a symbolic link" };
    if (!st.isFile()) return { ...file, note: "not a regular file" };
    if (st.size > caps.fileBytes)
      return { ...file, note: `too large to show here (${kib(st.size)}; the cap is ${kib(caps.fileBytes)})` };
    if (st.size > budget.left) return { ...file, note: capNote("untracked files' content", caps.untrackedBytes) };
    budget.left -= st.size;
    const text = await readFile(join(root, path), "utf8");
    if (text.slice(0, 8000).includes("\0")) return { ...file, binary: true, note: "binary" };
    if (text === "") return { ...file, note: "an empty file" };
    const lines = text.split("\n");
    const complete = text.endsWith("\n");
    if (complete) lines.pop();
    if (lines.length > caps.fileLines)
      return { ...file, added: lines.length, note: linesNote(lines.length, caps.fileLines) };
    const patch = `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}\n${complete ? "" : "\\ No newline at end of file\n"}`;
    return { ...file, added: lines.length, patch };
  } catch (error) {
    return { ...file, note: `not read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

const kib = (bytes: number) => `${Math.ceil(bytes / 1024).toLocaleString("en-US")} KiB`;
const capNote = (what: string, cap: number) => `not shown: /diff reads at most ${kib(cap)} of ${what}`;
const linesNote = (lines: number, cap: number) =>
  `too large to show here (${lines.toLocaleString("en-US")} lines changed; the cap is ${cap.toLocaleString("en-US")})`;

export type WorktreeCaps = { [K in keyof typeof WORKTREE_CAPS]: number };

/** Contract: resolves (never rejects) with the working tree's diff, or why there is none. `caps`: for tests. */
export async function readWorktreeDiff(
  workspace: string,
  signal = AbortSignal.timeout(TIMEOUT_MS),
  caps: WorktreeCaps = WORKTREE_CAPS,
): Promise<WorktreeDiff> {
  try {
    return await read(workspace, signal, caps);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

async function read(workspace: string, signal: AbortSignal, caps: WorktreeCaps): Promise<WorktreeDiff> {
  const top = await git(["rev-parse", "--show-toplevel"], workspace, signal);
  if (top.missing) return { ok: false, error: "git is not installed: there is no `git` program on the PATH" };
  if (top.code !== 0)
    return /not a git repository/i.test(top.err)
      ? { ok: false, error: `not a git repository: ${workspace}` }
      : { ok: false, error: `git rev-parse failed: ${firstLine(top.err) || `exit ${top.code}`}` };
  const root = top.out.trim();
  const run = (args: string[], cap?: number) => git(args, root, signal, cap);
  const failed = (what: string, r: GitOut) => {
    if (signal.aborted)
      return { ok: false as const, error: `git ${what} took over ${TIMEOUT_MS / 1000} s and was stopped` };
    return { ok: false as const, error: `git ${what} failed: ${firstLine(r.err) || `exit ${r.code}`}` };
  };

  // No commit yet: everything in the index is new, so diff against the empty tree.
  const head = await run(["rev-parse", "-q", "--verify", "HEAD^{commit}"]);
  let base = "HEAD";
  if (head.code !== 0) {
    const empty = await run(["hash-object", "-t", "tree", "/dev/null"]);
    if (empty.code !== 0) return failed("hash-object", empty);
    base = empty.out.trim();
  }
  // Renames off: a moved file reads as deleted and added, and each path is one entry in every list.
  const diffArgs = ["diff", "--no-renames", base];
  const [names, counts, others] = await Promise.all([
    run([...diffArgs, "--name-status", "-z", "--"]),
    run([...diffArgs, "--numstat", "-z", "--"]),
    run(["ls-files", "--others", "--exclude-standard", "-z"]),
  ]);
  for (const [what, r] of [
    ["diff --name-status", names],
    ["diff --numstat", counts],
    ["ls-files", others],
  ] as const)
    if (r.code !== 0 && !r.cut) return failed(what, r);

  const notes: string[] = [];
  const files: WorktreeFile[] = [];
  const nameFields = fields(names.out);
  const countOf = new Map<string, { added: number; removed: number; binary: boolean }>();
  for (const entry of fields(counts.out)) {
    const [a = "", r = "", ...rest] = entry.split("\t");
    countOf.set(rest.join("\t"), { added: Number(a) || 0, removed: Number(r) || 0, binary: a === "-" });
  }
  for (let i = 0; i + 1 < nameFields.length; i += 2) {
    const path = nameFields[i + 1]!;
    const c = countOf.get(path) ?? { added: 0, removed: 0, binary: false };
    files.push({ path, status: statusOf[nameFields[i]![0] ?? ""] ?? "modified", ...c, patch: null });
  }
  const untrackedPaths = fields(others.out);
  const total = files.length + untrackedPaths.length;
  if (total > caps.files || names.cut || others.cut)
    notes.push(
      `${names.cut || others.cut ? "many" : total.toLocaleString("en-US")} files changed: the first ${caps.files} are listed`,
    );
  files.splice(caps.files);

  // One patch for the tracked files small enough to show, in git's order (the lists' order too).
  const wanted = files.filter((f) => {
    if (f.binary) f.note = "binary";
    else if (f.added + f.removed > caps.fileLines) f.note = linesNote(f.added + f.removed, caps.fileLines);
    else return true;
    return false;
  });
  if (wanted.length > 0) {
    const patch = await run([...diffArgs, "--", ...wanted.map((f) => `:(literal)${f.path}`)], caps.patchBytes);
    if (patch.code !== 0 && !patch.cut) return failed("diff", patch);
    const parts = sections(patch.out, patch.cut);
    wanted.forEach((f, k) => {
      const part = parts[k];
      // A section names its file unless git quoted the name (then the order alone matches it).
      if (part && (part.startsWith(`diff --git a/${f.path} `) || part.startsWith('diff --git "'))) {
        f.patch = hunksOf(part);
        if (f.patch === null) f.note = f.status === "type" ? "its type changed" : "its mode changed, not its text";
      } else f.note = capNote("diff text", caps.patchBytes);
    });
    if (patch.cut) notes.push(`the diff is over ${kib(caps.patchBytes)}: the files past it are listed, not shown`);
  }

  const budget = { left: caps.untrackedBytes };
  for (const path of untrackedPaths.slice(0, Math.max(0, caps.files - files.length)))
    files.push(await untracked(root, path, budget, caps));
  return { ok: true, root, base: base === "HEAD" ? "HEAD" : "empty", files, notes };
}
