// The controller: every key goes through here, by layer (dialog, approval, the focused pane,
// global), and becomes a store update or a bus command. Holds the written Ctrl-C contract.
import { FieldRouter } from "../input/field-router.js";
import { AgentsTabForward } from "./agents-forward.js";
import type { Action } from "../../config/keybindings.js";
import type { Bus } from "../../protocol/bus.js";
import type { BusCommand } from "../../protocol/commands.js";
import type { InputEvent, Key } from "../input/keys.js";
import { findAction, matchesAny, type ResolvedKeymap } from "../input/keymap.js";
import { createEditor, editorText, isEmpty, type EditorAction } from "../input/editor.js";
import type { History } from "../input/history.js";
import { orderedTasks, type AppState, type Store, type TaskEntry } from "../state/store.js";
import type { Block } from "../state/transcript.js";
import type { Dialog } from "../state/dialogs.js";
import { answerApproval, answerCard, jumpToApproval } from "./approval-keys.js";
import { handleGlobalKey } from "./global-keys.js";
import type { Measures, ResultsMeasure, TranscriptMeasure } from "../view/measures.js";
import type { CheckpointSource, MemorySource, SessionSource } from "../state/data-sources.js";
import type { Focus, StatusCondition, StatusMessage, UiState } from "../state/ui-state.js";
import type { WorkspaceSource } from "../../agent/workspace-view.js";
import { movePosition, settleFollow } from "../view/transcript-view.js";
import { followScroll, type Position, type Scroll } from "../state/scroll.js";

/** Whether everything from `top` to the end fits in the view (scrolling further down only follows). */
export function fitsFrom(top: Position, view: TranscriptMeasure): boolean {
  let rows = 0;
  for (let b = top.block; b < view.count; b++) {
    rows += view.linesOf(b).length - (b === top.block ? top.line : 0);
    if (rows > view.height) return false;
  }
  return true;
}

export { DOUBLE_PRESS_MS } from "../state/ui-state.js";
import { DOUBLE_PRESS_MS } from "../state/ui-state.js";
/** Lines one notch of the mouse wheel scrolls. */
const WHEEL_LINES = 3;
/** A stop hint stays while the task is stopping (a step can take minutes), up to this long. */
const STOPPING_HINT_MS = 10 * 60_000;

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

/** What one focus area does with keys while it has focus (each area's spec: ../focus/). */
export interface AreaKeys {
  /** The area's own keys, before the global ones; true when it used the key. */
  keys(ctl: Controller, event: InputEvent): boolean;
  /** What the global keys left: typing into the composer (only the areas that type there). */
  typing?(ctl: Controller, event: InputEvent): void;
}

/**
 * Contract: the key layers above the controller, given by whoever builds it (app/services.ts, the
 * test harness: `keyLayers` of ../focus/index.ts): the open dialog's keys and the focused area's.
 * Passed in, so the controller imports neither the dialogs nor the focus areas; they import it.
 */
export interface KeyLayers {
  /** A key while `dialog` is open; Esc or Ctrl-C the dialog leaves unused close it. */
  dialogKey(ctl: Controller, dialog: Dialog, event: InputEvent): void;
  area(focus: Focus): AreaKeys;
}

export class Controller {
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

  /**
   * Shows `text` on the status line for `ms`, or less when `condition` stops holding first. It is
   * taken off when it expires (not left on screen until something else draws).
   */
  status(text: string, level: "info" | "warn" | "error" = "info", ms = 4000, condition?: StatusCondition): void {
    const message: StatusMessage = {
      text,
      level,
      until: this.deps.now() + ms,
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
  pendingApproval(): Extract<Block, { kind: "approval" }> | null {
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
      if (!this.ui.dialog) this.scrollLines(event.key.name === "wheelup" ? -WHEEL_LINES : WHEEL_LINES);
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
      this.setUi((ui) => ({ ...ui, typedAt: this.deps.now() }));
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
  answerApproval(taskId: string, pending: Extract<Block, { kind: "approval" }>, key: Key): boolean {
    return answerApproval(this, taskId, pending, key);
  }

  /** Ctrl-Y: the next task with an unanswered approval (see approval-keys.ts). */
  jumpToApproval(): void {
    jumpToApproval(this);
  }

  /**
   * Ctrl-C: stop (twice: kill), or clear the input, or exit when pressed twice in 2 s. Only presses
   * made while nothing runs count toward exit: the press that stops or kills a command never arms
   * it, so Ctrl-C, Ctrl-C (kill), Ctrl-C just after does not quit. While armed the status line
   * says so (panes/status.ts reads `exitArmed` before any other message).
   */
  interrupt(): void {
    const now = this.deps.now();
    const task = this.currentTask();
    if (task && this.isRunning()) {
      const recent = now - this.ui.lastInterrupt < DOUBLE_PRESS_MS;
      this.setUi((ui) => ({ ...ui, lastInterrupt: now, exitArmed: 0 }));
      // The hint says "Ctrl-C again to kill" for as long as the task is stopping: so it does.
      const force = recent || Boolean(this.state.transcripts[task.id]?.stopping);
      this.send({ type: "turn.interrupt", taskId: task.id, force });
      this.deps.store.dispatch({ type: "ui.stopping", taskId: task.id });
      const stopping: StatusCondition = { taskId: task.id, state: "stopping" };
      if (force) this.status("killing the running command", "warn", 4000, stopping);
      else
        this.status(
          "stopping after this step (Ctrl-C again to kill the running command)",
          "warn",
          STOPPING_HINT_MS,
          stopping,
        );
      return;
    }
    const armed = this.ui.exitArmed !== 0 && now - this.ui.exitArmed < DOUBLE_PRESS_MS;
    if (armed && isEmpty(this.ui.composer)) {
      this.setUi((ui) => ({ ...ui, exitArmed: 0, lastInterrupt: 0 }));
      this.quit();
      return;
    }
    const cleared = !isEmpty(this.ui.composer);
    this.setUi((ui) => ({
      ...ui,
      lastInterrupt: 0,
      exitArmed: now,
      ...(cleared ? { composer: createEditor(), completion: null } : {}),
    }));
    if (cleared) this.status("input cleared", "info", DOUBLE_PRESS_MS);
    setTimeout(
      () => this.setUi((ui) => (ui.exitArmed === now ? { ...ui, exitArmed: 0 } : ui)),
      DOUBLE_PRESS_MS,
    ).unref?.();
  }

  /** What quitting now would cut short: other tasks' turns and live background jobs. */
  liveWork(): { tasks: string[]; jobs: number } {
    const tasks: string[] = [];
    let jobs = 0;
    for (const [id, t] of Object.entries(this.state.transcripts)) {
      if (t.running) tasks.push(this.state.tasks[id]?.snapshot.title ?? id);
      jobs += t.jobs.filter((j) => j.state === "running").length;
    }
    return { tasks, jobs };
  }

  /** Quits, asking first when tasks still run or background jobs live (they would stop). */
  quit(): void {
    const { tasks, jobs } = this.liveWork();
    if (tasks.length === 0 && jobs === 0) {
      this.deps.exit();
      return;
    }
    const parts = [
      ...(tasks.length
        ? [`${tasks.length === 1 ? "1 task is" : `${tasks.length} tasks are`} still running (${tasks.join(", ")})`]
        : []),
      ...(jobs ? [`${jobs === 1 ? "1 background job is" : `${jobs} background jobs are`} still running`] : []),
    ];
    this.setUi((ui) => ({
      ...ui,
      dialog: {
        kind: "confirm",
        title: `Quit? ${parts.join(" and ")}; quitting stops ${tasks.length + jobs === 1 ? "it" : "them"}.`,
        action: "quit",
        target: "",
      },
    }));
  }

  stopTurn(): void {
    const task = this.currentTask();
    if (!task || !this.isRunning()) return;
    this.send({ type: "turn.interrupt", taskId: task.id });
    this.deps.store.dispatch({ type: "ui.stopping", taskId: task.id });
    this.status("stopping after this step", "warn", STOPPING_HINT_MS, { taskId: task.id, state: "stopping" });
  }

  selectTask(id: string): void {
    if (!this.state.tasks[id]) return;
    this.deps.store.dispatch({ type: "ui.select", taskId: id });
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
    const filter = this.ui.taskFilter.toLowerCase();
    const all = orderedTasks(this.state);
    return filter ? all.filter((t) => t.snapshot.title.toLowerCase().includes(filter)) : all;
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

  private setScroll(scroll: Scroll): void {
    const id = this.state.current;
    if (!id) return;
    this.setUi((ui) => ({ ...ui, scroll: { ...ui.scroll, [id]: scroll } }));
  }

  scrollPage(direction: -1 | 1): void {
    const view = this.view;
    if (!view || view.count === 0) return;
    const top = movePosition(view.top, direction * Math.max(1, view.height - 2), view.count, view.linesOf);
    if (direction > 0 && fitsFrom(top, view)) this.setScroll(settleFollow(view.count, view.linesOf, view.height));
    else this.setScroll({ follow: false, top });
  }

  /** Scrolls the transcript by `n` lines (the mouse wheel); down to the end follows again. */
  scrollLines(n: number): void {
    const view = this.view;
    if (!view || view.count === 0) return;
    const top = movePosition(view.top, n, view.count, view.linesOf);
    if (n > 0 && fitsFrom(top, view)) this.setScroll(settleFollow(view.count, view.linesOf, view.height));
    else this.setScroll({ follow: false, top });
  }

  scrollTo(where: "top" | "bottom"): void {
    const view = this.view;
    if (where === "bottom") this.setScroll(view ? settleFollow(view.count, view.linesOf, view.height) : followScroll());
    else this.setScroll({ follow: false, top: { block: 0, line: 0 } });
  }

  /** Scrolls so that block `index` is visible (its first line at the top when it was off screen). */
  revealBlock(index: number): void {
    const view = this.view;
    if (!view) return;
    if (view.rowBlocks.includes(index) && view.rowBlocks.lastIndexOf(index) < view.height - 1) return;
    this.setScroll({ follow: false, top: { block: index, line: 0 } });
  }

  /**
   * Sends a prompt (a new turn, or steering while one runs). `typed`: what the user typed, for the
   * history, when the prompt was made from it (a slash command's fixed prompt). `model`: for this
   * turn only.
   */
  submitText(text: string, opts: { typed?: string; model?: string } = {}): boolean {
    const task = this.currentTask();
    if (!task) return false;
    const missing = this.missingSetup();
    if (missing) {
      this.status(`not sent: ${missing}`, "error", 12_000);
      return false;
    }
    if (opts.typed === undefined) this.deps.remember(text);
    this.deps.history.add(opts.typed ?? text);
    const images = this.ui.attachments;
    const steer = this.isRunning();
    if (images.length > 0 && steer) {
      this.status("images go with a new turn: wait for this one to end (or Tab to queue without them)", "warn");
      return false;
    }
    this.send({
      type: "user.submit",
      taskId: task.id,
      text,
      mode: steer ? "steer" : "turn",
      ...(images.length ? { images } : {}),
      ...(opts.model && !steer ? { model: opts.model } : {}),
    });
    if (images.length) this.setUi((ui) => ({ ...ui, attachments: [] }));
    this.scrollTo("bottom");
    return true;
  }

  /** What to set before anything can be sent from the current task (a local one), or null. */
  missingSetup(): string | null {
    if (this.currentTask()?.snapshot.location === "remote") return null;
    return this.deps.notSetUp?.() ?? null;
  }

  /** `!` shell mode: the engine runs `command` under the task's policy and sandbox, between turns. */
  runShell(text: string, command: string): void {
    const task = this.currentTask();
    if (!task) return;
    this.deps.remember(text);
    this.deps.history.add(text);
    if (this.isRunning()) {
      this.status("a ! command runs between turns: wait for this one to end (or stop it)", "warn");
      return;
    }
    this.send({ type: "shell.run", taskId: task.id, command });
    this.scrollTo("bottom");
  }

  queueText(text: string): void {
    const task = this.currentTask();
    if (!task) return;
    this.deps.remember(text);
    this.deps.history.add(text);
    this.send({ type: "user.submit", taskId: task.id, text, mode: "queue" });
  }

  composerText(): string {
    return editorText(this.ui.composer);
  }
}
