// What /status, /diff, /review and custom commands read about the workspace and the engine, as
// the controller sees it: plain data and promises (ui/run.ts builds it with agent/workspace-source.ts).
import type { CustomCommand } from "../config/custom-commands.js";

export interface WorkspaceSource {
  root: string;
  /** Where model requests go ("the provider's default" when none is set). */
  endpoint: string;
  /** Custom slash commands, built-in names excluded by the caller (read again at most every 2 s). */
  commands(): CustomCommand[];
  /** The workspace has commands of its own that are ignored because the folder is not trusted. */
  untrustedCommands(): boolean;
  /** A loaded task's conversation against the compaction budget; null when it is not loaded here. */
  context(taskId: string): { chars: number; budget: number; messages: number } | null;
  /** The working tree's changes as one diff for /review (the files /diff lists, untracked ones too), or why there are none. Never rejects. */
  diff(): Promise<{ ok: true; text: string } | { ok: false; error: string }>;
  /** The working tree's changes file by file for /diff (agent/worktree-diff.ts). Never rejects. */
  worktree(): Promise<WorktreeDiff>;
  /** The provider's model names for /model, as `nanohermes models` lists them (offline: the bundled ones). Never rejects. */
  models?(): Promise<string[]>;
}

/** One changed file of {@link WorktreeDiff}; `path` is relative to the repository's top level. */
export interface WorktreeFile {
  path: string;
  /** Against HEAD; "untracked": not in the index and not ignored. */
  status: "modified" | "added" | "deleted" | "untracked" | "type";
  added: number;
  removed: number;
  binary: boolean;
  /** Its hunks as unified-diff text (from the first `@@`), or null when not shown (`note` says why). */
  patch: string | null;
  note?: string;
}

/**
 * /diff's read: tracked files against HEAD (staged and unstaged changes together, as `git diff
 * HEAD`; a repository without a commit against the empty tree), then untracked files as new ones.
 * `notes`: what the caps left out. `ok: false`: not a repository, no git, or git failed.
 */
export type WorktreeDiff =
  | { ok: true; root: string; base: "HEAD" | "empty"; files: WorktreeFile[]; notes: string[] }
  | { ok: false; error: string };
