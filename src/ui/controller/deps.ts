// What the controller is built with (app/runtime.ts, the test harness): the store, the bus, the
// keymaps and the ports to everything outside the UI (files, the clipboard, $EDITOR, sessions,
// memory, checkpoints, a daemon). Key handlers above the controller see none of it whole: they get
// the few parts they use by name through ./host.ts.
import type { Action } from "../../config/keybindings.js";
import type { WorkspaceSource } from "../../agent/workspace-view.js";
import type { Bus } from "../../protocol/bus.js";
import type { EditorAction } from "../input/editor.js";
import type { History } from "../input/history.js";
import type { ResolvedKeymap } from "../input/keymap.js";
import type { CheckpointSource, MemorySource, SessionSource } from "../state/data-sources.js";
import type { Store } from "../state/store.js";

export interface ControllerDeps {
  /** /status, /diff, /review and custom commands; without it they say they are not available. */
  workspace?: WorkspaceSource;
  store: Store;
  bus: Bus;
  keymap: ResolvedKeymap<Action>;
  editorKeys: ResolvedKeymap<EditorAction>;
  history: History;
  /** Remembers a sent prompt (history file); errors are ignored. */
  remember(text: string): void;
  /** Copies through OSC 52; the reason when it cannot. */
  copy(text: string): { ok: true; note?: string } | { ok: false; reason: string };
  exit(): void;
  /** Opens $EDITOR on the text; null when cancelled or unavailable. */
  openEditor(text: string): Promise<string | null>;
  /** Workspace files for @path completion. */
  paths(): readonly string[];
  /** The provider's model names for `/model` (as `nanohermes models` lists them). */
  models?(): Promise<string[]>;
  /** A workspace file's text for an `@path` attachment (4 MB at most); null when it is not one. */
  readAttachment?(path: string): string | null;
  newTaskId(): string;
  themes(): string[];
  /** What /sandbox says: the sandbox state as the title bar shows it. */
  sandboxLabel(): string;
  /** The skills the agent can load (empty until they are discovered, after the first frame). */
  skills(): { name: string; description: string; file: string }[];
  /** Remembers that the user trusts this workspace (its restricted config keys apply after a restart). */
  trustWorkspace(): void;
  /**
   * What of the workspace waits for trust, one phrase each ("its config sets hooks, mcpServers",
   * "its commands in .claude/commands"); empty when trusted or nothing waits. Absent: nothing.
   */
  untrusted?(): string[];
  /** Past sessions for the /resume picker. */
  sessions: SessionSource;
  /** Long-term memory for the /memory dialog. */
  memory: MemorySource;
  /** The engine's file checkpoints, for the Turns tab's diffs. */
  checkpoints: CheckpointSource;
  now(): number;
  /**
   * Why nothing can be sent to a model from here (no key where the endpoint needs one), with what
   * to set, in one line; null when a prompt can go. Local tasks only: a remote task's daemon has
   * its own. Absent: always ready.
   */
  notSetUp?(): string | null;
  /** The home folder, for `~/` in the export question (absent: a full path is needed). */
  home?: string;
  /** `/remote`: adds a daemon's session as a task once the daemon answers; resolves to the task's id. */
  addRemote(request: { address: string; tokenFile: string | null; session: string | null }): Promise<string>;
  /** A remote task's file before `turn` and now, as its daemon reads them. */
  remoteFile(
    taskId: string,
    turn: number,
    path: string,
  ): Promise<{ before: string | null | undefined; now: string | null }>;
}
