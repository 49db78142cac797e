// The UI's own state (focus, dialogs, the composer, panes, scroll): changed only by the
// controller, read by components through the store.
import type { Completions } from "../input/complete.js";
import { createEditor, type EditorState } from "../input/editor.js";
import { followScroll, type Scroll } from "./scroll.js";
import type { WorktreeDiff } from "../../agent/workspace-view.js";
import type { Dialog } from "./dialogs.js";

export type { Dialog };

/**
 * What the Diff tab shows. `result`: the last read (null while the first one runs); `seq` numbers
 * reads, so an older answer is dropped. `index`: the selected file; `open`: its diff has the whole
 * tab (`offset` its first line shown, `hunk` the last one jumped to).
 */
export interface WorktreeView {
  result: WorktreeDiff | null;
  loading: boolean;
  seq: number;
  index: number;
  open: boolean;
  offset: number;
  hunk: number;
}

/** Which card is on screen, by request, since when, and whether Ctrl-Y brought it there. */
export interface CardShown {
  requestId: string;
  since: number;
  /** Shown by Ctrl-Y: the user went looking for it, so the next key answers at once. */
  deliberate: boolean;
}

export type ResultsTab = "files" | "changes" | "diff" | "turns" | "reads" | "todo" | "jobs" | "agents" | "skills";
/**
 * "turns" is shown (and reached by ←→) only once the task has checkpointed turns, "diff" once /diff
 * ran, "skills" while skill proposals wait for an answer; each also while it is the current tab.
 */
export const resultsTabs: ResultsTab[] = [
  "files",
  "changes",
  "diff",
  "turns",
  "reads",
  "todo",
  "jobs",
  "agents",
  "skills",
];
/** Which of the tabs that come and go have something to show. */
export interface TabsWithContent {
  turns: boolean;
  diff: boolean;
  skills: boolean;
}
export const shownTabs = (current: ResultsTab, has: TabsWithContent): ResultsTab[] =>
  resultsTabs.filter((t) => (t !== "turns" && t !== "diff" && t !== "skills") || has[t] || current === t);

/** Every focus area; each has its keys in ../focus/ (listed in ../focus/index.ts). */
export const focusAreas = ["composer", "browse", "tasks", "results"] as const;
export type Focus = (typeof focusAreas)[number];

/**
 * The Turns tab's open diff: one file between its content before `turn` (from the checkpoint
 * store: `before` null = absent, undefined = not kept) and now. `offset`: the first line shown.
 */
export interface TurnDiff {
  taskId: string;
  turn: number;
  path: string;
  before: string | null | undefined;
  /** A remote task's file as the daemon read it (undefined: not read, or a local task). */
  now?: string | null;
  loading: boolean;
  offset: number;
}

/**
 * Applies `change` to the open dialog of `kind`, or to one waiting under it (`back`: a question
 * asked over it), so an answer that arrives meanwhile is not lost. Unchanged when there is none.
 */
export function patchDialog<K extends Dialog["kind"]>(
  dialog: Dialog | null,
  kind: K,
  change: (d: Extract<Dialog, { kind: K }>) => Dialog,
): Dialog | null {
  if (!dialog) return dialog;
  if (dialog.kind === kind) return change(dialog as Extract<Dialog, { kind: K }>);
  if (!("back" in dialog) || !dialog.back) return dialog;
  const back = patchDialog(dialog.back, kind, change);
  return back === dialog.back || !back ? dialog : { ...dialog, back };
}

export interface StatusMessage {
  text: string;
  level: "info" | "warn" | "error";
  until: number;
  /** Shown only while this holds as well: a task still stopping, or still reloading after a rewind. */
  while?: StatusCondition;
}

export interface StatusCondition {
  taskId: string;
  state: "stopping" | "reloading";
}

/** Two Ctrl-C within this long quit (when nothing runs); two while a turn runs kill its command. */
export const DOUBLE_PRESS_MS = 2000;

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
  /** The Turns tab's open diff (its hunk is `diffHunk`). */
  turnDiff: TurnDiff | null;
  /** The Diff tab: the working tree's diff as /diff last read it (null until /diff runs). */
  worktreeDiff: WorktreeView | null;
  /** The Skills tab's selected proposal diff over the whole tab, from line `offset` (null: the list). */
  proposalOpen: { offset: number } | null;
  scroll: Record<string, Scroll>;
  /** Block cursor per task in browse mode. */
  cursor: Record<string, number>;
  search: { query: string; matches: number[]; index: number } | null;
  status: StatusMessage | null;
  /** Time of the last Ctrl-C that stopped a turn: a second one soon after kills its command. */
  lastInterrupt: number;
  /**
   * When a Ctrl-C made while nothing ran armed the exit (0: not armed). Only such presses count
   * toward quitting; while armed the status line says so (panes/status.ts), whatever else it had.
   */
  exitArmed: number;
  /** Which code block of the focused reply the next `c` copies. */
  codeIndex: number;
  theme: string;
  /** The linear layout for screen readers: one pane at a time, words for glyphs (LinearLayout.tsx). */
  screenReader: boolean;
  /** Image files attached to the next message (/image or a pasted image path). */
  attachments: string[];
  /** The approval card on screen and since when (recorded by the settle step; approval-guard.ts). */
  cardShown: CardShown | null;
  /** When a key last changed the input's text (approval-guard.ts: typing is not an answer). */
  typedAt: number;
  /** Ctrl-F: the focused pane (task list, results, or the transcript) takes the full width. */
  zoom: boolean;
  /** Scheduled runs, as the ledger said after the first frame (app/cron-watch.ts); null: no ledger. */
  cron: CronLine | null;
}

/** What the title bar says about scheduled runs (src/cron/status.ts reads it). */
export interface CronLine {
  /** A daemon runs them. */
  daemon: boolean;
  /** Instants that passed with no daemon to run them; `more`: over the count's cap. */
  missed: number;
  more: boolean;
  /** Refusals of scheduled runs not read yet. */
  inbox: number;
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
    turnDiff: null,
    worktreeDiff: null,
    proposalOpen: null,
    scroll: {},
    cursor: {},
    search: null,
    status: null,
    lastInterrupt: 0,
    exitArmed: 0,
    codeIndex: 0,
    theme: "dark",
    screenReader: false,
    attachments: [],
    cardShown: null,
    typedAt: 0,
    zoom: false,
    cron: null,
  };
}

export const scrollOf = (ui: UiState, taskId: string): Scroll => ui.scroll[taskId] ?? followScroll();
