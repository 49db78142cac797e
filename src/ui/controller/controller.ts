// The controller: every key goes through here, by layer (dialog, approval, the focused pane,
// global), and becomes a store update or a bus command. The layers above it get it through the
// narrow interfaces of host.ts; the Ctrl-C contract is stop.ts, scrolling scroll.ts, sending
// submit.ts.
import type { Action } from "../../config/keybindings.js";
import type { CustomCommand } from "../../config/custom-commands.js";
import type { BusCommand } from "../../protocol/commands.js";
import { editorText } from "../input/editor.js";
import { FieldRouter } from "../input/field-router.js";
import type { InputEvent, Key } from "../input/keys.js";
import { findAction, matchesAny, type ResolvedKeymap } from "../input/keymap.js";
import type { CheckpointSource, MemorySource, SessionSource } from "../state/data-sources.js";
import { visibleTasks, type AppState, type TaskEntry, type UiAction } from "../state/store.js";
import type { Block } from "../state/transcript.js";
import type { StatusCondition, StatusMessage, UiState } from "../state/ui-state.js";
import type { Measures, ResultsMeasure, TranscriptMeasure } from "../view/measures.js";
import { AgentsTabForward } from "./agents-forward.js";
import { answerApproval, answerCard, jumpToApproval } from "./approval-keys.js";
import { handleComposerKey } from "./composer-keys.js";
import type { ControllerDeps } from "./deps.js";
import { handleGlobalKey } from "./global-keys.js";
import type { AreaHost, DialogHost, KeyLayers, PendingApproval } from "./host.js";
import { runSlash } from "./run-slash.js";
import { revealBlock, scrollLines } from "./scroll.js";
import type { Slash } from "./slash.js";
import { customCommands } from "./workspace-slash.js";

export type { ControllerDeps } from "./deps.js";

/** Lines one notch of the mouse wheel scrolls. */
const WHEEL_LINES = 3;

export class Controller implements DialogHost, AreaHost {
  /** Brings the Agents tab forward when children start (see agents-forward.ts). */
  readonly agentsForward = new AgentsTabForward();
  /** The provider's models once `/model` listed them (its completions). */
  modelNames: string[] = [];
  /** Keys for the focused one-line field (components/TextField.tsx). */
  readonly fields = new FieldRouter((event) => this.handle(event));

  constructor(
    readonly deps: ControllerDeps,
    private readonly layers: KeyLayers,
  ) {}

  get state(): AppState {
    return this.deps.store.getState();
  }

  get ui(): UiState {
    return this.deps.store.getState().ui;
  }

  setUi(change: (ui: UiState) => UiState): void {
    this.deps.store.updateUi(change);
  }

  send(command: BusCommand): void {
    this.deps.bus.send(command);
  }

  is(action: Action, key: Key): boolean {
    return matchesAny(key, this.deps.keymap[action]);
  }

  action(key: Key, among: readonly Action[]): Action | undefined {
    return findAction(this.deps.keymap, key, among);
  }

  get keymap(): ResolvedKeymap<Action> {
    return this.deps.keymap;
  }

  dispatch(action: UiAction): void {
    this.deps.store.dispatch(action);
  }

  now(): number {
    return this.deps.now();
  }

  /**
   * Shows `text` on the status line for `ms`, or less when `condition` stops holding first. It is
   * taken off when it expires (not left on screen until something else draws).
   */
  status(text: string, level: "info" | "warn" | "error" = "info", ms = 4000, condition?: StatusCondition): void {
    const message: StatusMessage = {
      text,
      level,
      until: this.now() + ms,
      ...(condition ? { while: condition } : {}),
    };
    this.setUi((ui) => ({ ...ui, status: message }));
    setTimeout(() => this.setUi((ui) => (ui.status === message ? { ...ui, status: null } : ui)), ms).unref?.();
  }

  currentTask(): TaskEntry | null {
    const id = this.state.current;
    return id ? (this.state.tasks[id] ?? null) : null;
  }

  currentBlocks(): Block[] {
    const id = this.state.current;
    return id ? (this.state.transcripts[id]?.blocks ?? []) : [];
  }

  /** The oldest unanswered approval of the current task. */
  pendingApproval(): PendingApproval | null {
    for (const b of this.currentBlocks()) if (b.kind === "approval" && b.resolved === null) return b;
    return null;
  }

  isRunning(): boolean {
    const id = this.state.current;
    return id ? Boolean(this.state.transcripts[id]?.running) : false;
  }

  handle(event: InputEvent): void {
    if (
      event.kind === "key" &&
      (event.key.name === "reply" ||
        event.key.name === "focusin" ||
        event.key.name === "focusout" ||
        event.key.name === "unknown")
    )
      return;
    if (event.kind === "key" && (event.key.name === "wheelup" || event.key.name === "wheeldown")) {
      // The mouse wheel scrolls the transcript (never the prompt history), whatever has focus.
      if (!this.ui.dialog) scrollLines(this, event.key.name === "wheelup" ? -WHEEL_LINES : WHEEL_LINES);
      return;
    }
    // Anything else pressed between two Ctrl-C makes them two single presses, not a double one
    // (a Ctrl-C that stopped a turn, then a prompt sent, then Ctrl-C must not quit).
    if (
      (this.ui.lastInterrupt !== 0 || this.ui.exitArmed !== 0) &&
      !(event.kind === "key" && this.is("interrupt", event.key))
    )
      this.setUi((ui) => ({ ...ui, lastInterrupt: 0, exitArmed: 0 }));
    if (this.ui.dialog) {
      this.layers.dialogKey(this, this.ui.dialog, event);
      // Keys still waiting for a field that will not mount now are not typed anywhere else later.
      if (!this.ui.dialog) this.fields.drop();
      return;
    }
    if (event.kind === "key" && this.handleApproval(event.key)) return;
    const before = this.ui.composer;
    this.handleArea(event);
    // The input's text changed: a run of typing goes on going there, not to an approval card.
    const after = this.ui.composer;
    if (after !== before && editorText(after) !== editorText(before))
      this.setUi((ui) => ({ ...ui, typedAt: this.now() }));
  }

  /** The focused area's own keys (../focus/), then the global ones, then what the area types. */
  private handleArea(event: InputEvent): void {
    const area = this.layers.area(this.ui.focus);
    if (area.keys(this, event)) return;
    if (event.kind === "key" && handleGlobalKey(this, event.key)) return;
    area.typing?.(this, event);
  }

  private handleApproval(key: Key): boolean {
    const pending = this.pendingApproval();
    const task = this.currentTask();
    // Only while the input has focus: the card stands in for it. Browse mode keeps its own keys.
    if (!pending || !task || this.ui.focus !== "composer") return false;
    return answerCard(this, task.id, pending, key);
  }

  /** The approval card's keys for `pending` (the composer's card, or a subagent view's); true when `key` was one. */
  answerApproval(taskId: string, pending: PendingApproval, key: Key): boolean {
    return answerApproval(this, taskId, pending, key);
  }

  /** Ctrl-Y: the next task with an unanswered approval (see approval-keys.ts). */
  jumpToApproval(): void {
    jumpToApproval(this);
  }
  selectTask(id: string): void {
    if (!this.state.tasks[id]) return;
    this.dispatch({ type: "ui.select", taskId: id });
    this.send({ type: "task.open", taskId: id });
    this.setUi((ui) => ({
      ...ui,
      focus: ui.focus === "tasks" && ui.columns < 80 ? "composer" : ui.focus,
      search: null,
      diffPath: null,
      turnDiff: null,
    }));
  }

  /** A new task (on `sessionFile` when given), selected; `id` when the index already names it. */
  newTask(sessionFile?: string, title?: string, id = this.deps.newTaskId()): void {
    this.send({
      type: "task.create",
      taskId: id,
      ...(sessionFile ? { sessionFile } : {}),
      ...(title ? { title } : {}),
    });
    this.selectTask(id);
    this.setUi((ui) => ({ ...ui, focus: "composer" }));
  }

  visibleTasks(): TaskEntry[] {
    return visibleTasks(this.state, this.ui.taskFilter);
  }

  enterBrowse(): void {
    const id = this.state.current;
    const blocks = this.currentBlocks();
    if (!id || blocks.length === 0) return;
    this.setUi((ui) => ({
      ...ui,
      focus: "browse",
      cursor: { ...ui.cursor, [id]: ui.cursor[id] ?? blocks.length - 1 },
      codeIndex: 0,
    }));
  }

  /** Measures what is on screen from the state (app/settle.ts); set once when the UI is wired. */
  measures: Measures | null = null;

  /** What the transcript shows and how to measure its blocks. */
  get view(): TranscriptMeasure | null {
    return this.measures?.view() ?? null;
  }

  /** The results pane's current tab. */
  get results(): ResultsMeasure | null {
    return this.measures?.results() ?? null;
  }

  /** A subagent's view (the "agent" dialog), when open. */
  get agentView(): TranscriptMeasure | null {
    return this.measures?.agentView() ?? null;
  }

  // The ports the key handlers use by name (host.ts), each one part of `deps`.

  get history(): ControllerDeps["history"] {
    return this.deps.history;
  }

  get memory(): MemorySource {
    return this.deps.memory;
  }

  get sessions(): SessionSource {
    return this.deps.sessions;
  }

  paths(): readonly string[] {
    return this.deps.paths();
  }

  get checkpoints(): CheckpointSource {
    return this.deps.checkpoints;
  }

  get home(): string | undefined {
    return this.deps.home;
  }

  exit(): void {
    this.deps.exit();
  }

  trustWorkspace(): void {
    this.deps.trustWorkspace();
  }

  copy(text: string): ReturnType<ControllerDeps["copy"]> {
    return this.deps.copy(text);
  }

  openEditor(text: string): Promise<string | null> {
    return this.deps.openEditor(text);
  }

  remoteFile(taskId: string, turn: number, path: string): ReturnType<ControllerDeps["remoteFile"]> {
    return this.deps.remoteFile(taskId, turn, path);
  }

  customCommands(): CustomCommand[] {
    return customCommands(this);
  }

  runSlash(slash: Slash): void {
    runSlash(this, slash);
  }

  composerKey(event: InputEvent): boolean {
    return handleComposerKey(this, event);
  }

  revealBlock(index: number): void {
    revealBlock(this, index);
  }

  composerText(): string {
    return editorText(this.ui.composer);
  }
}
