// git_status, git_diff, git_log and git_commit: git run without a shell in the workspace, under the
// command sandbox, with the repository's own programs (fsmonitor, pager, external diff, textconv)
// switched off for the reads. Commits run the repository's hooks unless told to skip them.
import { relative } from "node:path";
import { neutraliseGit } from "../sandbox/classify-git.js";
import { defineTool, ToolError, type ToolContext } from "./define.js";
import { isInside, resolvePath } from "./paths.js";
import { commandEnv, sandboxPrefix } from "./process-group.js";
import { beginGuard } from "./protect-guard.js";
import { runProcess, type CommandResult } from "./run-command.js";
import { byteLength, headBytes } from "./truncate.js";
import { gitCommitSpec, gitDiffSpec, gitLogSpec, gitStatusSpec, LOG_DEFAULT, LOG_MAX } from "./specs/git.js";

export { LOG_DEFAULT, LOG_MAX };

const READ_TIMEOUT_MS = 30_000;
/** Hooks may run a test suite. */
const COMMIT_TIMEOUT_MS = 300_000;
/** Diff text per result, leaving room under the 20 KB result cap for the file summary. */
const DIFF_CAP_BYTES = 14 * 1024;
const STAT_CAP_BYTES = 4 * 1024;
const STATUS_MAX_LINES = 300;

/** Reads never colour, and print paths as they are rather than octal-escaped. */
const READ_CONFIG = ["-c", "color.ui=false", "-c", "core.quotePath=false"];
/**
 * A commit must run the hooks and signing the user configured, so the read neutralisation (which
 * points core.hooksPath at /dev/null) does not fit. `-c` settings reach the hooks' own git calls
 * (through GIT_CONFIG_PARAMETERS), so only harmless ones: no protocol ban, no literal pathspecs.
 */
const COMMIT_GLOBALS = ["--no-pager", "-c", "core.fsmonitor=false", "-c", "core.pager=cat", "-c", "color.ui=false"];

/** Set inside git hooks and by scripts: they would point git at another repository than the workspace's. */
const LOCATING_ENV = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
];

interface GitRun {
  /** Arguments after `git`. */
  args: string[];
  write?: boolean;
  timeoutMs?: number;
}

/** Runs git (behind the sandbox prefix, no shell); throws a ToolError when git cannot run at all. */
async function git(ctx: ToolContext, run: GitRun): Promise<CommandResult> {
  const argv = run.write ? ["git", ...COMMIT_GLOBALS, ...run.args] : readArgv(run.args);
  // Reads in English, so results read the same everywhere; a commit keeps the user's locale for its hooks.
  const env: NodeJS.ProcessEnv = run.write ? { ...commandEnv(), GIT_EDITOR: "true" } : gitReadEnv();
  for (const name of LOCATING_ENV) delete env[name];
  const prefix = await sandboxPrefix(ctx);
  // A commit runs the repository's hooks, which could plant more: checked like any command.
  const guard = run.write ? beginGuard(ctx, prefix) : null;
  const r = await runProcess([...prefix, ...argv], {
    cwd: ctx.workspace,
    env,
    timeoutMs: run.timeoutMs ?? READ_TIMEOUT_MS,
    signal: ctx.signal,
  });
  const notice = guard?.();
  if (notice) r.stderr = `${r.stderr}${r.stderr && !r.stderr.endsWith("\n") ? "\n" : ""}${notice}\n`;
  if (r.aborted) throw new ToolError(`git ${run.args[0]} was stopped`);
  if (r.timedOut)
    throw new ToolError(`git ${run.args[0]} timed out after ${(r.durationMs / 1000).toFixed(0)} s and was killed`);
  if (r.exitCode === null && /spawn git ENOENT/.test(r.stderr)) {
    throw new ToolError("git is not installed: there is no `git` program on the PATH");
  }
  return r;
}

/** The environment of a read: English, and no variable that points git at another repository. */
export function gitReadEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...commandEnv(), LC_ALL: "C", LANGUAGE: "" };
  for (const name of LOCATING_ENV) delete env[name];
  return env;
}

/** `git <args>` with the repository's programs neutralised (see neutraliseGit), colour and quoting off. */
export function readArgv(args: string[]): string[] {
  const [bin, ...rest] = neutraliseGit(["git", ...args]);
  return [bin!, ...READ_CONFIG, ...rest];
}

const firstLines = (text: string, n = 6) => text.trim().split("\n").slice(0, n).join("\n");

function failed(what: string, r: CommandResult): ToolError {
  return new ToolError(`git ${what} failed (exit ${r.exitCode ?? r.signal}): ${firstLines(r.stderr || r.stdout)}`);
}

/** The repository's top-level directory; a clear one-line error outside a repository. */
async function repoRoot(ctx: ToolContext): Promise<string> {
  const r = await git(ctx, { args: ["rev-parse", "--show-toplevel"] });
  if (r.exitCode === 0) return r.stdout.trim();
  if (/not a git repository/i.test(r.stderr)) throw new ToolError(`not a git repository: ${ctx.workspace}`);
  throw failed("rev-parse", r);
}

/**
 * A pathspec for git naming exactly `path`: workspace-relative, never outside the workspace, and
 * literal when it would otherwise be magic (`:/`) or a glob.
 */
function workspacePath(ctx: ToolContext, path: string): string {
  const abs = resolvePath(ctx.workspace, path);
  if (!isInside(ctx.workspace, abs))
    throw new ToolError(`refusing ${path}: it is outside the workspace ${ctx.workspace}`);
  const rel = relative(ctx.workspace, abs) || ".";
  return /^:|[*?[\\]/.test(rel) ? `:(literal)${rel}` : rel;
}

export const gitStatusTool = defineTool({
  ...gitStatusSpec,
  async run(_args, ctx) {
    const root = await repoRoot(ctx);
    const r = await git(ctx, { args: ["status", "--short", "--branch", "--untracked-files=normal"] });
    if (r.exitCode !== 0) throw failed("status", r);
    const [head = "", ...files] = r.stdout.replace(/\n$/, "").split("\n");
    const parts = [`branch: ${head.replace(/^## /, "")}`];
    if (root !== ctx.workspace) parts.push(`repository: ${root} (paths are relative to the workspace)`);
    if (files.length === 0) parts.push("clean: nothing to commit, no untracked files");
    else {
      parts.push(...files.slice(0, STATUS_MAX_LINES));
      if (files.length > STATUS_MAX_LINES)
        parts.push(`[${files.length - STATUS_MAX_LINES} more entries not shown; git_diff with a path narrows it down]`);
      parts.push("(XY: X = staged, Y = not staged; M modified, A added, D deleted, R renamed, ?? untracked)");
    }
    return { forModel: parts.join("\n"), display: files.length === 0 ? "clean" : `${files.length} changed` };
  },
});

export const gitDiffTool = defineTool({
  ...gitDiffSpec,
  async run(args, ctx) {
    // A ref starting with "-" would be read as an option (`--output=FILE` writes a file).
    if (args.ref !== undefined && (args.ref.startsWith("-") || /[\s\0]/.test(args.ref)))
      throw new ToolError(`not a valid ref: ${JSON.stringify(args.ref)}`);
    await repoRoot(ctx);
    const select = [
      ...(args.staged ? ["--cached"] : []),
      ...(args.ref !== undefined ? [args.ref] : []),
      "--",
      ...(args.path !== undefined ? [workspacePath(ctx, args.path)] : []),
    ];
    const r = await git(ctx, { args: ["diff", ...select] });
    if (r.exitCode !== 0) throw failed("diff", r);
    const what = `${args.staged ? "staged changes" : "unstaged changes"}${args.ref !== undefined ? ` against ${args.ref}` : ""}${args.path !== undefined ? ` in ${args.path}` : ""}`;
    if (r.stdout === "") {
      let hint = "";
      if (!args.staged && args.ref === undefined) {
        const staged = await git(ctx, { args: ["diff", "--cached", "--quiet", ...select] });
        hint =
          staged.exitCode === 1
            ? " (there are staged changes: git_diff with staged: true shows them)"
            : " (untracked files are not diffed: git_status lists them)";
      }
      return { forModel: `no ${what}${hint}`, display: "no changes" };
    }
    if (r.stdoutBytes <= DIFF_CAP_BYTES) return { forModel: r.stdout, display: `diff of ${what}` };
    const stat = await git(ctx, { args: ["diff", "--stat=120", ...select] });
    const cut = headBytes(r.stdout, DIFF_CAP_BYTES).replace(/[^\n]*$/, "");
    return {
      forModel:
        `[${what}: the diff is ${r.stdoutBytes} bytes, showing its first ${byteLength(cut)}; pass path for one file's diff]\n` +
        `${headBytes(stat.stdout, STAT_CAP_BYTES)}\n${cut}[diff cut here]`,
      display: `diff of ${what} (cut)`,
    };
  },
});

export const gitLogTool = defineTool({
  ...gitLogSpec,
  async run(args, ctx) {
    await repoRoot(ctx);
    const count = args.count ?? LOG_DEFAULT;
    const path = args.path !== undefined ? [workspacePath(ctx, args.path)] : [];
    // One more than asked, to know whether there are more.
    const r = await git(ctx, {
      args: ["log", `--max-count=${count + 1}`, "--date=short", "--format=%h %ad %an: %s", "--", ...path],
    });
    if (r.exitCode !== 0) {
      if (/does not have any commits yet/.test(r.stderr)) return { forModel: "no commits yet", display: "no commits" };
      throw failed("log", r);
    }
    const lines = r.stdout.replace(/\n$/, "").split("\n").filter(Boolean);
    if (lines.length === 0)
      return { forModel: `no commits${args.path !== undefined ? ` touch ${args.path}` : ""}`, display: "no commits" };
    const shown = lines.slice(0, count);
    if (lines.length > count) {
      shown.push(
        count < LOG_MAX
          ? `[more commits: pass count (at most ${LOG_MAX}) to see more]`
          : `[more commits: ${LOG_MAX} is the most git_log shows]`,
      );
    }
    return { forModel: shown.join("\n"), display: `${Math.min(lines.length, count)} commits` };
  },
});

export const gitCommitTool = defineTool({
  ...gitCommitSpec,
  async run(args, ctx) {
    if (args.message.trim() === "") throw new ToolError("the commit message is empty");
    if (args.message.includes("\0")) throw new ToolError("the commit message contains a NUL byte");
    if (ctx.boundary?.readOnly) throw new ToolError("refusing to commit: the sandbox is read-only");
    await repoRoot(ctx);
    const paths = args.paths?.map((p) => workspacePath(ctx, p));
    if (paths) {
      const add = await git(ctx, { args: ["add", "--all", "--", ...paths], write: true });
      if (add.exitCode !== 0) throw failed("add", add);
    } else {
      const staged = await git(ctx, { args: ["diff", "--cached", "--quiet"] });
      if (staged.exitCode === 0)
        throw new ToolError("nothing is staged, so nothing was committed: pass paths to stage and commit them");
    }
    const commit = await git(ctx, {
      args: [
        "commit",
        `--message=${args.message}`,
        ...(args.skip_hooks ? ["--no-verify"] : []),
        ...(paths ? ["--only", "--", ...paths] : []),
      ],
      write: true,
      timeoutMs: COMMIT_TIMEOUT_MS,
    });
    const output = [commit.stdout.trim(), commit.stderr.trim()].filter(Boolean).join("\n");
    if (commit.exitCode !== 0) {
      const staged = paths ? " The given paths stay staged." : "";
      return {
        forModel: `git commit failed (exit ${commit.exitCode ?? commit.signal}): nothing was committed.${staged}\n${output}`,
        display: "commit refused",
        isError: true,
      };
    }
    const head = await git(ctx, { args: ["rev-parse", "HEAD"] });
    const hash = head.stdout.trim();
    return {
      forModel: `committed ${hash}${args.skip_hooks ? " (hooks skipped)" : ""}\n${output}`,
      display: `committed ${hash.slice(0, 12)}`,
    };
  },
});
