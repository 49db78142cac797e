// What the key handlers above the controller may read and do: the open dialog's (../dialogs/),
// the focused area's (../focus/) and the results tabs' (../tabs/), and the actions they share in
// this folder. The Controller implements these interfaces; a test can implement them with a
// store and a list of sent commands, without the controller. No import of controller.ts here.
import type { Action } from "../../config/keybindings.js";
import type { CustomCommand } from "../../config/custom-commands.js";
import type { BusCommand } from "../../protocol/commands.js";
import type { FieldRouter } from "../input/field-router.js";
import type { History } from "../input/history.js";
import type { InputEvent, Key } from "../input/keys.js";
import type { ResolvedKeymap } from "../input/keymap.js";
import type { CheckpointSource, MemorySource, SessionSource } from "../state/data-sources.js";
import type { Dialog } from "../state/dialogs.js";
import type { AppState, TaskEntry, UiAction } from "../state/store.js";
import type { Block } from "../state/transcript.js";
import type { Focus, StatusCondition, UiState } from "../state/ui-state.js";
import type { ResultsMeasure, TranscriptMeasure } from "../view/measures.js";
import type { AgentsTabForward } from "./agents-forward.js";
import type { Slash } from "./slash.js";

/** An approval block waiting for its answer. */
export type PendingApproval = Extract<Block, { kind: "approval" }>;

/**
 * Contract: what every key handler may use. The state is read fresh at each access (after a
 * `setUi`, `ui` is the changed state); `status` shows a line for `ms` (4 s by default), or less
 * when `condition` stops holding first; `send` puts a command on the bus.
 */
export interface UiHost {
  readonly state: AppState;
  readonly ui: UiState;
  setUi(change: (ui: UiState) => UiState): void;
  /** A UI action on the store (fold a block, mark a task reloading or stopping, select a task). */
  dispatch(action: UiAction): void;
  status(text: string, level?: "info" | "warn" | "error", ms?: number, condition?: StatusCondition): void;
  send(command: BusCommand): void;
  /** The keys as the user bound them (hints and digit picks read the specs). */
  readonly keymap: ResolvedKeymap<Action>;
  /** Whether `key` is one of `action`'s keys. */
  is(action: Action, key: Key): boolean;
  /** The first of `among` that `key` is bound to. */
  action(key: Key, among: readonly Action[]): Action | undefined;
  now(): number;
  currentTask(): TaskEntry | null;
  /** The current task's transcript blocks (empty without one). */
  currentBlocks(): Block[];
  /** Makes `id` the current task (and tells the engine it is open). */
  selectTask(id: string): void;
  /** Scrolls the transcript so that block `index` is visible. */
  revealBlock(index: number): void;
}

/** Contract: what a dialog's keys (and the actions behind them) may use besides. */
export interface DialogHost extends UiHost {
  /** The dialog's one-line field: keys that edit or submit a line go to it (`route`). */
  readonly fields: Pick<FieldRouter, "route" | "drop" | "pending" | "attach">;
  /** Sent prompts (the history search). */
  readonly history: Pick<History, "search">;
  /** Long-term memory (/memory). */
  readonly memory: MemorySource;
  /** Past sessions (/resume). */
  readonly sessions: SessionSource;
  /** The home folder, for `~/` in an export path; undefined: a full path is needed. */
  readonly home: string | undefined;
  /** The workspace's custom commands, without the ones a built-in command hides. */
  customCommands(): CustomCommand[];
  /** A new task (resuming `sessionFile` when given), selected, the input focused. */
  newTask(sessionFile?: string, title?: string, id?: string): void;
  /** Carries out a slash command as if typed. */
  runSlash(slash: Slash): void;
  /** A key as if pressed now (the palette runs a global action by its first key). */
  handle(event: InputEvent): void;
  /** The approval card's keys for `pending` (a subagent view answers its child's); true when `key` was one. */
  answerApproval(taskId: string, pending: PendingApproval, key: Key): boolean;
  /** The next task with an unanswered approval. */
  jumpToApproval(): void;
  /** What a subagent's view shows, as drawn (null until measured). */
  readonly agentView: TranscriptMeasure | null;
  /** Leaves the program (no question: a dialog asked it already). */
  exit(): void;
  /** Remembers that the user trusts this workspace. */
  trustWorkspace(): void;
}

/** Contract: what a focus area's keys and a results tab's keys may use besides. */
export interface AreaHost extends UiHost {
  /** The results pane's current tab, as drawn (null until measured). */
  readonly results: ResultsMeasure | null;
  /** A tab picked by the user wins over the Agents tab coming forward (agents-forward.ts). */
  readonly agentsForward: Pick<AgentsTabForward, "picked">;
  /** The task list as shown (filtered, in order). */
  visibleTasks(): TaskEntry[];
  /** The composer's keys: typing, editing, sending; true when it used the key. */
  composerKey(event: InputEvent): boolean;
  /** Copies through OSC 52; the reason when it cannot. */
  copy(text: string): { ok: true; note?: string } | { ok: false; reason: string };
  /** Opens $EDITOR on the text; null when cancelled or unavailable. */
  openEditor(text: string): Promise<string | null>;
  /** The engine's file checkpoints (the Turns tab's diffs). */
  readonly checkpoints: CheckpointSource;
  /** Workspace files (the Files tab, `@path` completion). */
  paths(): readonly string[];
  /** A remote task's file before `turn` and now, as its daemon reads them. */
  remoteFile(
    taskId: string,
    turn: number,
    path: string,
  ): Promise<{ before: string | null | undefined; now: string | null }>;
}

/** What one focus area does with keys while it has focus (each area's spec: ../focus/). */
export interface AreaKeys {
  /** The area's own keys, before the global ones; true when it used the key. */
  keys(host: AreaHost, event: InputEvent): boolean;
  /** What the global keys left: typing into the composer (only the areas that type there). */
  typing?(host: AreaHost, event: InputEvent): void;
}

/**
 * Contract: the key layers above the controller, given by whoever builds it (app/runtime.ts, the
 * test harness: `keyLayers` of ../focus/index.ts): the open dialog's keys and the focused area's.
 * Passed in, so the controller imports neither the dialogs nor the focus areas, and they import
 * only these interfaces.
 */
export interface KeyLayers {
  /** A key while `dialog` is open; Esc or Ctrl-C the dialog leaves unused close it. */
  dialogKey(host: DialogHost, dialog: Dialog, event: InputEvent): void;
  area(focus: Focus): AreaKeys;
}
