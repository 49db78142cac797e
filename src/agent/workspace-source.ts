// Builds the controller's WorkspaceSource: custom commands from disk (trusted folders only),
// the engine's view of a loaded conversation, and the working tree's git diff.
import { homedir } from "node:os";
import { contextBudget, contextChars } from "./compaction.js";
import type { TaskManager } from "./tasks.js";
import type { Settings } from "../config/schema.js";
import { isTrusted } from "../config/trust.js";
import { gitDiffTool } from "../tools/git.js";
import { loadCustomCommands, workspaceHasCommands, type CustomCommand } from "../config/custom-commands.js";
import type { WorkspaceSource } from "./workspace-view.js";
import { readWorktreeDiff } from "./worktree-diff.js";

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
    diff: async () => {
      // git_diff's own path: the repository's programs (pager, external diff, textconv) switched off.
      const ctx = { workspace: settings.workspace, signal: AbortSignal.timeout(30_000), output: () => {} };
      const run = async (args: { ref?: string }) => {
        const out = await gitDiffTool.run(args, ctx);
        return typeof out === "string" ? out : out.forModel;
      };
      try {
        return { ok: true, text: await run({ ref: "HEAD" }) };
      } catch (error) {
        // A repository without a commit has no HEAD: its changes are the unstaged ones.
        if (!/HEAD/.test((error as Error).message)) return { ok: false, error: (error as Error).message };
        return run({}).then(
          (text) => ({ ok: true as const, text }),
          (again: unknown) => ({ ok: false as const, error: (again as Error).message }),
        );
      }
    },
  };
}
