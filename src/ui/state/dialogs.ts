// What an open dialog holds: one state type per dialog kind, and their union `Dialog` (the
// `ui.dialog` field). Data only, so the store and the controller name a dialog without importing
// its keys and drawing; each dialog's behaviour is its file in ../dialogs/ (listed in
// ../dialogs/index.ts, which checks that every kind here has its spec).
import type { MemoryRow, SessionRow } from "./data-sources.js";
import type { Scroll } from "./scroll.js";

/** Its keys and drawing: ../dialogs/agent.ts. */
export interface AgentDialog {
  kind: "agent";
  taskId: string;
  agentId: string;
  scroll: Scroll;
}

/** Its keys and drawing: ../dialogs/confirm.ts. */
export interface ConfirmDialog {
  kind: "confirm";
  title: string;
  action: "delete" | "trust" | "stopAgent" | "forgetMemory" | "revertFile" | "quit";
  target: string;
  taskId?: string;
  /** For revertFile: the turn whose pre-state `target` (a path) goes back to. */
  turn?: number;
  /** The dialog to return to when this one closes. */
  back?: Dialog;
}

/** `words`: wrap at spaces (prose such as a compaction summary); otherwise anywhere (commands, diffs). */
export interface DetailDialog {
  kind: "detail";
  title: string;
  lines: string[];
  offset: number;
  words?: boolean;
  /** The dialog to return to when this one closes (a question asked from a subagent's view). */
  back?: Dialog;
}

/** Its keys and drawing: ../dialogs/help.ts. */
export interface HelpDialog {
  kind: "help";
  offset: number;
}

/** Its keys and drawing: ../dialogs/input.ts. */
export type InputPurpose = "rename" | "note" | "filter" | "search" | "history" | "memoryEdit" | "memoryNew" | "export";

/** Its keys and drawing: ../dialogs/input.ts. */
export interface InputDialog {
  kind: "input";
  purpose: InputPurpose;
  title: string;
  /** The field's text (components/TextField.tsx edits it). */
  value: string;
  /** What the answer is for: a task id (rename), an approval's request id (note), a memory's id. */
  target?: string;
  /** The selected match of the history search. */
  index: number;
  /** The dialog to return to when this one closes. */
  back?: Dialog;
}

/** `filtering`: keys go to the filter field, not the list's actions. */
export interface MemoryDialog {
  kind: "memory";
  /** The filter field's text (components/TextField.tsx edits it). */
  query: string;
  filtering: boolean;
  index: number;
  entries: MemoryRow[] | null;
  seq: number;
  error?: string;
}

/** Its keys and drawing: ../dialogs/command-palette.ts. */
export interface PaletteDialog {
  kind: "palette";
  query: string;
  index: number;
}

/** Its keys and drawing: ../dialogs/permissions.ts. */
export interface PermissionsDialog {
  kind: "permissions";
  index: number;
}

/** Its keys and drawing: ../dialogs/queue.ts. */
export interface QueueDialog {
  kind: "queue";
  index: number;
}

/** Its keys and drawing: ../dialogs/rewind.ts. */
export type RewindWhat = "files" | "conversation" | "both";

/**
 * The task's turns newest first (`index`), then what to restore for the chosen one (`pick`,
 * "both" highlighted first). The rows are derived from the task's state when drawn.
 */
export interface RewindDialog {
  kind: "rewind";
  taskId: string;
  index: number;
  pick: { turn: number; what: RewindWhat } | null;
}

/**
 * `rows` is null while loading; `seq` numbers each query, so an answer to an older one is
 * dropped. `previews`: each session's last prompt once read (null while reading). `startup`:
 * opened by a bare --resume before any task exists (Esc starts a new one).
 */
export interface SessionsDialog {
  kind: "sessions";
  /** The search field's text (components/TextField.tsx edits it). */
  query: string;
  all: boolean;
  index: number;
  rows: SessionRow[] | null;
  seq: number;
  /** The `seq` the rows answer. */
  answered?: number;
  error?: string;
  previews: Record<string, string | null>;
  startup?: boolean;
}

/** The open dialog's state: one member per dialog kind. */
export type Dialog =
  | PaletteDialog
  | HelpDialog
  | InputDialog
  | ConfirmDialog
  | DetailDialog
  | AgentDialog
  | QueueDialog
  | PermissionsDialog
  | SessionsDialog
  | MemoryDialog
  | RewindDialog;
export type DialogKind = Dialog["kind"];
