// Builds the controller's WorkspaceSource: custom commands from disk (trusted folders only),
// the engine's view of a loaded conversation, and the working tree's git diff.
import { bundledModels, fetchModelIds } from "./providers/model-ids.js";
import { homedir } from "node:os";
import { contextBudget, contextChars } from "./compaction.js";
import type { TaskManager } from "./tasks.js";
import type { Settings } from "../config/schema.js";
import { isTrusted } from "../config/trust.js";
import { loadCustomCommands, workspaceHasCommands, type CustomCommand } from "../config/custom-commands.js";
import type { WorkspaceSource, WorktreeFile } from "./workspace-view.js";

/** The git reader (and the git tool it shares) loads with the first /diff or /review, not at start. */
const readWorktreeDiff = async (workspace: string) => (await import("./worktree-diff.js")).readWorktreeDiff(workspace);

/** Commands are read again after this long, so a file added while the UI runs appears. */
const RELOAD_MS = 2_000;

export function workspaceSource(settings: Settings, manager: TaskManager | null): WorkspaceSource {
  let cache: { at: number; commands: CustomCommand[]; trusted: boolean } | null = null;
  const load = () => {
    if (!cache || Date.now() - cache.at > RELOAD_MS) {
      const trusted = isTrusted(settings.home, settings.workspace);
      let userHome: string | null = null;
      try {
        userHome = homedir();
      } catch {
        // no home folder: only ~/.nanohermes is read
      }
      cache = {
        at: Date.now(),
        trusted,
        commands: loadCustomCommands({ workspace: settings.workspace, home: settings.home, userHome, trusted }),
      };
    }
    return cache;
  };
  return {
    root: settings.workspace,
    endpoint: settings.baseUrl ?? "the provider's default endpoint",
    commands: () => load().commands,
    untrustedCommands: () => !load().trusted && workspaceHasCommands(settings.workspace),
    context: (taskId) => {
      const agent = manager?.loadedAgent(taskId);
      if (!agent) return null;
      return {
        chars: contextChars(agent.messages),
        budget: contextBudget(settings.contextWindow),
        messages: agent.messages.length - 1,
      };
    },
    worktree: () => readWorktreeDiff(settings.workspace),
    models: async () => {
      const ids = await fetchModelIds(settings).catch(() => [] as string[]);
      return ids.length ? ids : bundledModels(settings.provider);
    },
    diff: async () => {
      const read = await readWorktreeDiff(settings.workspace);
      return read.ok ? { ok: true, text: worktreeText(read.files, read.notes) } : read;
    },
  };
}

/**
 * The working tree's change as one unified diff for /review: what /diff shows, files untracked by
 * git included as new ones (`git diff HEAD` leaves them out), and what the caps left out said.
 */
export function worktreeText(files: WorktreeFile[], notes: string[]): string {
  if (files.length === 0) return "no uncommitted changes";
  const parts: string[] = [];
  for (const f of files) {
    const from = f.status === "added" || f.status === "untracked" ? "/dev/null" : `a/${f.path}`;
    const to = f.status === "deleted" ? "/dev/null" : `b/${f.path}`;
    const head = [`diff --git a/${f.path} b/${f.path}`];
    if (f.status === "untracked") head.push("new file (untracked: not added to git yet)");
    if (f.binary) head.push(`Binary file ${f.path} changed`);
    else if (f.patch !== null) head.push(`--- ${from}`, `+++ ${to}`, f.patch.trimEnd());
    if (f.note) head.push(`(${f.note})`);
    parts.push(head.join("\n"));
  }
  return [...parts, ...notes.map((n) => `(${n})`)].join("\n");
}
