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
  /** The working tree's changes against HEAD (`git diff HEAD`, capped), or why there are none. Never rejects. */
  diff(): Promise<{ ok: true; text: string } | { ok: false; error: string }>;
}
