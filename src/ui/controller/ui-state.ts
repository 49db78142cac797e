// The UI's own state (focus, dialogs, the composer, panes, scroll): changed only by the
// controller, read by components through the store.
import type { Completions } from "../input/complete.js";
import { createEditor, type EditorState } from "../input/editor.js";
import { followScroll, type Scroll } from "../view/transcript-view.js";

export type ResultsTab = "files" | "changes" | "reads" | "todo" | "jobs" | "agents";
export const resultsTabs: ResultsTab[] = ["files", "changes", "reads", "todo", "jobs", "agents"];

export type Focus = "composer" | "browse" | "tasks" | "results";

export type InputPurpose = "rename" | "note" | "filter" | "search" | "history";

/** `back`: the dialog to return to when this one closes (a question asked from a subagent's view). */
export type Dialog =
  | { kind: "palette"; query: string; index: number }
  | { kind: "help"; offset: number }
  | { kind: "input"; purpose: InputPurpose; title: string; value: EditorState; target?: string; index: number; back?: Dialog }
  | { kind: "confirm"; title: string; action: "delete" | "trust" | "stopAgent"; target: string; taskId?: string; back?: Dialog }
  /** `words`: wrap at spaces (prose such as a compaction summary); otherwise anywhere (commands, diffs). */
  | { kind: "detail"; title: string; lines: string[]; offset: number; words?: boolean; back?: Dialog }
  /** One subagent's transcript, read-only and live (Enter on the Agents tab). */
  | { kind: "agent"; taskId: string; agentId: string; scroll: Scroll }
  | { kind: "queue"; index: number }
  | { kind: "permissions"; index: number };

export interface StatusMessage {
  text: string;
  level: "info" | "warn" | "error";
  until: number;
}

export interface UiState {
  columns: number;
  rows: number;
  focus: Focus;
  dialog: Dialog | null;
  composer: EditorState;
  completion: { list: Completions; index: number } | null;
  taskListOpen: boolean;
  resultsOpen: boolean;
  resultsTab: ResultsTab;
  /** Index in the visible task list (tasks focus). */
  taskIndex: number;
  taskFilter: string;
  /** Selected line of the results pane (file list, changes list). */
  resultsIndex: number;
  /** Selected file in the Changes tab, whose diff is shown. */
  diffPath: string | null;
  diffHunk: number;
  scroll: Record<string, Scroll>;
  /** Block cursor per task in browse mode. */
  cursor: Record<string, number>;
  search: { query: string; matches: number[]; index: number } | null;
  status: StatusMessage | null;
  /** Time of the last Ctrl-C, for the double-press contract. */
  lastInterrupt: number;
  /** Which code block of the focused reply the next `c` copies. */
  codeIndex: number;
  theme: string;
  /** Image files attached to the next message (/image or a pasted image path). */
  attachments: string[];
}

export function initialUi(columns: number, rows: number): UiState {
  return {
    columns,
    rows,
    focus: "composer",
    dialog: null,
    composer: createEditor(),
    completion: null,
    taskListOpen: columns >= 80,
    resultsOpen: columns >= 120,
    resultsTab: "changes",
    taskIndex: 0,
    taskFilter: "",
    resultsIndex: 0,
    diffPath: null,
    diffHunk: 0,
    scroll: {},
    cursor: {},
    search: null,
    status: null,
    lastInterrupt: 0,
    codeIndex: 0,
    theme: "dark",
    attachments: [],
  };
}

export const scrollOf = (ui: UiState, taskId: string): Scroll => ui.scroll[taskId] ?? followScroll();
