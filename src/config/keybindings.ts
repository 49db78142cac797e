// Key bindings as data: every UI action, its default keys and a line for the shortcut sheet.
// Overridden by "keys" in config.json. No action is bound only to an Alt or function-key chord:
// those get lost in tmux and over SSH.

export interface ActionInfo {
  keys: string[];
  doc: string;
  group: "global" | "composer" | "transcript" | "approval" | "lists" | "dialogs";
}

export const actions = {
  interrupt: {
    keys: ["ctrl+c"],
    doc: "stop the turn (twice: also kill the command); idle: clear the input, twice to exit",
    group: "global",
  },
  exit: { keys: ["ctrl+d"], doc: "exit (on an empty input)", group: "global" },
  stop: { keys: ["escape"], doc: "stop the running turn; close a dialog", group: "global" },
  palette: { keys: ["ctrl+k"], doc: "command palette", group: "global" },
  help: { keys: ["?", "f1"], doc: "this shortcut sheet (? on an empty input)", group: "global" },
  toggleTasks: { keys: ["ctrl+t"], doc: "show and focus the task list (focused: hide it)", group: "global" },
  toggleResults: { keys: ["ctrl+r"], doc: "show and focus the results pane (focused: hide it)", group: "global" },
  // tmux's prefix-z habit; not Ctrl-Z, which people expect to suspend.
  zoom: { keys: ["ctrl+f"], doc: "zoom: the focused pane takes the full width (again: back)", group: "global" },
  newTask: { keys: ["ctrl+n"], doc: "new task", group: "global" },
  nextTask: { keys: ["ctrl+o"], doc: "next task", group: "global" },
  task1: { keys: ["alt+1"], doc: "switch to task 1 (also from the task list)", group: "global" },
  task2: { keys: ["alt+2"], doc: "switch to task 2", group: "global" },
  task3: { keys: ["alt+3"], doc: "switch to task 3", group: "global" },
  task4: { keys: ["alt+4"], doc: "switch to task 4", group: "global" },
  task5: { keys: ["alt+5"], doc: "switch to task 5", group: "global" },
  task6: { keys: ["alt+6"], doc: "switch to task 6", group: "global" },
  task7: { keys: ["alt+7"], doc: "switch to task 7", group: "global" },
  task8: { keys: ["alt+8"], doc: "switch to task 8", group: "global" },
  task9: { keys: ["alt+9"], doc: "switch to task 9", group: "global" },
  nextApproval: { keys: ["ctrl+y"], doc: "jump to the next task waiting for approval", group: "global" },
  cycleMode: { keys: ["shift+tab"], doc: "cycle the mode: default, accept-edits, plan", group: "global" },
  // Not Ctrl-B (tmux's prefix), and not Esc on an empty input: that entered a mode nobody saw, in
  // which the next letters were browse keys ("run tests" lost its r, y copied).
  browse: { keys: ["ctrl+x"], doc: "browse the transcript: a cursor over its blocks (Esc: back)", group: "global" },
  externalEditor: { keys: ["ctrl+g"], doc: "edit the prompt in $EDITOR", group: "composer" },
  scrollUp: { keys: ["pageup"], doc: "scroll the transcript up a page", group: "global" },
  scrollDown: { keys: ["pagedown"], doc: "scroll down a page (at the end, follow new output)", group: "global" },
  scrollTop: { keys: ["home"], doc: "top of the transcript (on an empty input)", group: "global" },
  scrollBottom: {
    keys: ["end"],
    doc: "end of the transcript, following new output (on an empty input)",
    group: "global",
  },
  submit: { keys: ["enter"], doc: "send; while a turn runs: steer it at the next step", group: "composer" },
  queue: {
    keys: ["tab"],
    doc: "while a turn runs: queue as the next turn; else complete /commands and @paths",
    group: "composer",
  },
  historySearch: { keys: ["ctrl+s"], doc: "search the prompt history", group: "composer" },
  editQueue: { keys: ["ctrl+e"], doc: "edit the pending steer/queue items (on an empty input)", group: "composer" },
  approveOnce: { keys: ["y"], doc: "approve once", group: "approval" },
  approveAlways: {
    keys: ["a"],
    doc: "approve always for this task (a command prefix or the exact command)",
    group: "approval",
  },
  approveAlwaysWorkspace: {
    keys: ["A"],
    doc: "approve always in this workspace (kept in ~/.nanohermes/permissions.json)",
    group: "approval",
  },
  deny: { keys: ["n"], doc: "deny and stop the turn (say what to do instead)", group: "approval" },
  denyWithNote: { keys: ["d"], doc: "deny with a note to the model, which goes on", group: "approval" },
  cursorUp: { keys: ["up", "k"], doc: "previous block", group: "transcript" },
  cursorDown: { keys: ["down", "j"], doc: "next block", group: "transcript" },
  toggleBlock: { keys: ["enter", "space"], doc: "expand or collapse a tool card or thinking", group: "transcript" },
  copyBlock: { keys: ["y"], doc: "copy the block's source text (OSC 52)", group: "transcript" },
  copyCode: { keys: ["c"], doc: "copy the next code block of the reply", group: "transcript" },
  search: { keys: ["/"], doc: "search the transcript", group: "transcript" },
  searchNext: { keys: ["n"], doc: "next match", group: "transcript" },
  searchPrev: { keys: ["N"], doc: "previous match", group: "transcript" },
  nextPrompt: { keys: ["p"], doc: "next prompt (P: previous)", group: "transcript" },
  prevPrompt: { keys: ["P"], doc: "previous prompt", group: "transcript" },
  nextReply: { keys: ["r"], doc: "next reply (R: previous)", group: "transcript" },
  prevReply: { keys: ["R"], doc: "previous reply", group: "transcript" },
  nextTool: { keys: ["t"], doc: "next tool call (T: previous)", group: "transcript" },
  prevTool: { keys: ["T"], doc: "previous tool call", group: "transcript" },
  nextError: { keys: ["e"], doc: "next error (E: previous)", group: "transcript" },
  prevError: { keys: ["E"], doc: "previous error", group: "transcript" },
  nextApprovalCard: { keys: ["a"], doc: "next approval (A: previous)", group: "transcript" },
  prevApprovalCard: { keys: ["A"], doc: "previous approval", group: "transcript" },
  leaveBrowse: { keys: ["escape", "i"], doc: "back to the input", group: "transcript" },
  listUp: { keys: ["up", "k"], doc: "move up", group: "lists" },
  listDown: { keys: ["down", "j"], doc: "move down", group: "lists" },
  listSelect: {
    keys: ["enter"],
    doc: "open the selected task / file diff / subagent (its live transcript); on a turn of the Turns tab, rewind to before it",
    group: "lists",
  },
  listRename: { keys: ["r"], doc: "rename the task", group: "lists" },
  listPin: { keys: ["p"], doc: "pin or unpin the task", group: "lists" },
  listDelete: { keys: ["x", "delete"], doc: "delete the task (asks first)", group: "lists" },
  listFilter: { keys: ["/"], doc: "filter tasks", group: "lists" },
  listExport: { keys: ["m"], doc: "export the task as Markdown (M: JSON)", group: "lists" },
  listExportJson: { keys: ["M"], doc: "export the task as JSON", group: "lists" },
  listPick: {
    keys: ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
    doc: "select item 1-9 of the results list (Agents tab: the Nth subagent; in its view, switch to it)",
    group: "lists",
  },
  agentStop: {
    keys: ["x"],
    doc: "Agents tab and subagent view: stop the subagent (asks first; f there also kills its running command)",
    group: "lists",
  },
  nextTab: { keys: ["right", "l"], doc: "next results tab", group: "lists" },
  prevTab: { keys: ["left", "h"], doc: "previous results tab", group: "lists" },
  revertFile: {
    keys: ["u"],
    doc: "Turns tab: revert the selected file to how it was before its turn (asks first)",
    group: "lists",
  },
  proposalAccept: {
    keys: ["a"],
    doc: "Skills tab: accept the selected proposal (it becomes a live skill)",
    group: "lists",
  },
  proposalEdit: {
    keys: ["e"],
    doc: "Skills tab: edit what the selected proposal would write, in $VISUAL / $EDITOR",
    group: "lists",
  },
  proposalDrop: {
    keys: ["d", "x"],
    doc: "Skills tab: drop the selected proposal (kept under .proposals/rejected/)",
    group: "lists",
  },
  nextHunk: { keys: ["]"], doc: "next diff hunk", group: "lists" },
  prevHunk: { keys: ["["], doc: "previous diff hunk", group: "lists" },
  pickerScope: {
    keys: ["tab"],
    doc: "session picker: this workspace or every workspace (typing searches, Enter opens)",
    group: "dialogs",
  },
  memoryFilter: { keys: ["/"], doc: "memory: filter (BM25 search); Enter or ↓ back to the list", group: "dialogs" },
  memoryEdit: { keys: ["enter"], doc: "memory: edit the selected entry's text", group: "dialogs" },
  memoryKind: { keys: ["k"], doc: "memory: cycle its kind (lesson, preference, correction, fact)", group: "dialogs" },
  memoryDelete: { keys: ["d", "delete"], doc: "memory: delete it (asks first)", group: "dialogs" },
  memoryNew: { keys: ["n"], doc: "memory: add a new one", group: "dialogs" },
  rewindFiles: {
    keys: ["f"],
    doc: "rewind: restore the files only (from that turn on), keep the conversation",
    group: "dialogs",
  },
  rewindConversation: {
    keys: ["c"],
    doc: "rewind: drop the conversation from that turn on, keep the files",
    group: "dialogs",
  },
  rewindBoth: { keys: ["b"], doc: "rewind: both (Enter takes the highlighted choice)", group: "dialogs" },
} as const satisfies Record<string, ActionInfo>;

export type Action = keyof typeof actions;

export function defaultKeymap(): Record<Action, string[]> {
  const out = {} as Record<Action, string[]>;
  for (const [name, info] of Object.entries(actions) as [Action, ActionInfo][]) out[name] = [...info.keys];
  return out;
}
