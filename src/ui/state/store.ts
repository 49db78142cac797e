// The UI's single store: bus events and UI actions in, view state out. Updates apply at once;
// subscribers are notified at most once per frame, so a 200 tokens/s stream costs ~30 renders/s.
// A change of the UI's own state (a key) is notified at once, and its frame drawn at once.
import type { BusEvent, EventOf, TaskSnapshot } from "../../protocol/events.js";
import { initialUi, type UiState } from "./ui-state.js";
import { reduceTask } from "./children.js";
import { emptyTranscript, reduceTranscript, type TranscriptAction, type TranscriptState } from "./transcript.js";
import type { Position } from "./scroll.js";
import { frameNow } from "../terminal/frame-now.js";
import { systemClock, type StoreClock } from "./clock.js";

export interface QueueItem {
  id: string;
  text: string;
  mode: "steer" | "queue";
}

export interface TaskEntry {
  id: string;
  snapshot: TaskSnapshot;
  queue: QueueItem[];
  /** A stop paused the queue: its items wait until the user sends them on (Enter on an empty input). */
  queuePaused?: boolean;
  /** Set when the task changed while the user looked at another one (finished, needs approval). */
  attention: boolean;
}

export interface AppState {
  tasks: Record<string, TaskEntry>;
  /** Creation order; the visible order pins first (see orderedTasks). */
  order: string[];
  current: string | null;
  transcripts: Record<string, TranscriptState>;
  ui: UiState;
  /** Every configured MCP server's state (global, from mcp.updated). */
  mcp: McpServers;
  /** Skill proposals waiting for an answer (global, from proposals.updated): the Skills tab. */
  proposals: SkillProposals;
  /**
   * Where follow mode last jumped to, per transcript on screen (a task id, or task/agent for a
   * subagent's view), with the size it was computed for. Settled before each frame (app/settle.ts).
   */
  follow: Record<string, FollowTop>;
  /** Workspace files a diff view shows, as the controller last read them (never read while rendering). */
  shown: Record<string, ShownFile>;
  /**
   * The time the UI shows (ms), the store's clock as last read: renewed once a second while
   * something on screen counts time ({@link isLive}), else with each change of the UI state. Panes
   * read it instead of the wall clock, so a pane whose model holds it draws again when it moves.
   */
  clock: number;
  /**
   * Bumped when something panes draw with that is not in the state changed (the full Markdown
   * renderer loaded, the sandbox label, the workspace's file list, a screen cleared by an editor):
   * every pane's model holds it, so all draw again (Store.redraw).
   */
  redraws: number;
}

export interface FollowTop {
  top: Position | null;
  width: number;
  height: number;
}

export interface ShownFile {
  /** Its content before this session's first write (the Changes tab), null when it did not exist. */
  before: string | null;
  /** Its content now; null when missing, unreadable or too large. */
  now: string | null;
}

export type McpServers = EventOf<"mcp.updated">["servers"];
export type SkillProposals = EventOf<"proposals.updated">["proposals"];

export type UiAction = { type: "ui.select"; taskId: string } | ({ taskId: string } & TranscriptAction);

export const initialState = (columns = 80, rows = 24): AppState => ({
  tasks: {},
  order: [],
  current: null,
  transcripts: {},
  ui: initialUi(columns, rows),
  mcp: [],
  proposals: [],
  follow: {},
  shown: {},
  clock: 0,
  redraws: 0,
});

export function orderedTasks(state: Pick<AppState, "order" | "tasks">): TaskEntry[] {
  const all = state.order.map((id) => state.tasks[id]).filter((t): t is TaskEntry => t !== undefined);
  return [...all.filter((t) => t.snapshot.pinned), ...all.filter((t) => !t.snapshot.pinned)];
}

/** The tasks the task list shows: pinned first, then by creation, those whose title has `filter`. */
export function visibleTasks(state: Pick<AppState, "order" | "tasks">, filter: string): TaskEntry[] {
  const all = orderedTasks(state);
  const f = filter.toLowerCase();
  return f ? all.filter((t) => t.snapshot.title.toLowerCase().includes(f)) : all;
}

export function reduceApp(state: AppState, event: BusEvent | UiAction, now = Date.now()): AppState {
  if (event.type === "ui.select") {
    const entry = state.tasks[event.taskId];
    if (!entry) return state;
    return {
      ...state,
      current: event.taskId,
      tasks: { ...state.tasks, [event.taskId]: { ...entry, attention: false } },
    };
  }
  if (event.type === "task.updated") {
    const prev = state.tasks[event.taskId];
    const becameNotable =
      prev !== undefined &&
      prev.snapshot.status !== event.task.status &&
      (event.task.status === "waiting" || event.task.status === "done" || event.task.status === "failed");
    const entry: TaskEntry = {
      id: event.taskId,
      snapshot: event.task,
      queue: prev?.queue ?? [],
      ...(prev?.queuePaused ? { queuePaused: true } : {}),
      attention: (prev?.attention ?? false) || (becameNotable && state.current !== event.taskId),
    };
    return {
      ...state,
      tasks: { ...state.tasks, [event.taskId]: entry },
      order: prev ? state.order : [...state.order, event.taskId],
      current: state.current ?? event.taskId,
      transcripts: state.transcripts[event.taskId]
        ? state.transcripts
        : { ...state.transcripts, [event.taskId]: emptyTranscript() },
    };
  }
  if (event.type === "task.removed") {
    const { [event.taskId]: _gone, ...tasks } = state.tasks;
    const { [event.taskId]: _t, ...transcripts } = state.transcripts;
    const order = state.order.filter((id) => id !== event.taskId);
    const current = state.current === event.taskId ? (order[order.length - 1] ?? null) : state.current;
    return { ...state, tasks, transcripts, order, current };
  }
  if (event.type === "mcp.updated") return { ...state, mcp: event.servers };
  if (event.type === "proposals.updated") return { ...state, proposals: event.proposals };
  if (event.type === "queue.updated") {
    const entry = state.tasks[event.taskId];
    return entry
      ? {
          ...state,
          tasks: {
            ...state.tasks,
            [event.taskId]: { ...entry, queue: event.items, queuePaused: event.paused === true },
          },
        }
      : state;
  }
  const taskId = event.taskId;
  const transcript = state.transcripts[taskId];
  if (!transcript) return state;
  const next = event.type.startsWith("ui.")
    ? reduceTranscript(transcript, event as TranscriptAction, now)
    : reduceTask(transcript, event as BusEvent, now);
  return next === transcript ? state : { ...state, transcripts: { ...state.transcripts, [taskId]: next } };
}

/** Something on screen counts time (a turn, a running tool, a running subagent): the clock ticks each second. */
export function isLive(state: AppState): boolean {
  return Object.values(state.transcripts).some(
    (t) => t.running || t.agents.some((a) => a.status === "running" || a.status === "waiting"),
  );
}

export interface StoreOptions {
  /** Minimum time between notifications; 0 notifies on the next microtask (tests). */
  frameMs: number;
  /** The time the state carries (`AppState.clock`); default: the wall clock. */
  clock?: StoreClock;
}

/** How often elapsed times move while something counts time. */
export const CLOCK_TICK_MS = 1000;

export class Store {
  private state: AppState;
  /** The state as subscribers last heard of it, settled (see getView). */
  private view: AppState;
  private readonly listeners = new Set<() => void>();
  private scheduled = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The pending notification answers a UI change: it goes out at once, and so does its frame. */
  private urgent = false;
  private lastNotify = 0;
  private settle: ((state: AppState) => AppState) | null = null;
  private readonly clock: StoreClock;
  /** Stops the clock's one-second timer; set while the state is live. */
  private stopTicking: (() => void) | null = null;
  notifications = 0;

  constructor(
    private readonly options: StoreOptions = { frameMs: 33 },
    size: { columns: number; rows: number } = { columns: 80, rows: 24 },
  ) {
    this.clock = options.clock ?? systemClock;
    this.state = { ...initialState(size.columns, size.rows), clock: this.clock.now() };
    this.view = this.state;
  }

  /**
   * Changes the UI's own state (focus, composer, dialogs, panes). An idle clock is read with it
   * (a dialog's ages, a status message's expiry are then current); a ticking one is left to its
   * tick, so a key does not redraw every running time on screen.
   */
  updateUi(change: (ui: UiState) => UiState): void {
    const ui = change(this.state.ui);
    if (ui === this.state.ui) return;
    const clock = this.stopTicking ? this.state.clock : this.clock.now();
    this.state = { ...this.state, ui, clock };
    this.schedule(true);
  }

  /**
   * Draws every pane again: something they draw with that is not in the state changed (a
   * service: the Markdown renderer, the sandbox label, the file list; or the screen was cleared).
   */
  redraw(): void {
    this.state = { ...this.state, redraws: this.state.redraws + 1 };
    this.schedule(true);
  }

  /** The latest state: what the controller acts on. Renders read getView. */
  getState = (): AppState => this.state;

  /**
   * Contract: the state of the last notification, settled; it changes only when subscribers are
   * notified. Renders read this one: the stream updates the latest state between frames, and a
   * render that read those updates would draw a state the settle step has not seen (its follow
   * jump one frame stale, and the transcript's frame computed twice).
   */
  getView = (): AppState => this.view;

  /**
   * Contract: `settle` runs before subscribers hear of a change and may return a state with derived
   * parts brought up to date (follow-mode jumps, the files a diff shows); renders then only read.
   */
  setSettle(settle: (state: AppState) => AppState): void {
    this.settle = settle;
    this.state = settle(this.state);
    this.view = this.state;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  dispatch(event: BusEvent | UiAction): void {
    // Events are stamped by the same clock the state shows, so elapsed times start at 0.
    const next = reduceApp(this.state, event, this.clock.now());
    if (next === this.state) return;
    this.state = next;
    this.schedule();
  }

  private schedule(urgent = false): void {
    if (urgent) this.urgent = true;
    // A notification already due on the next microtask covers this change; one waiting for the
    // frame's time is brought forward when the change is urgent.
    if (this.scheduled && !(urgent && this.timer)) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.scheduled = true;
    const wait = urgent ? 0 : Math.max(0, this.lastNotify + this.options.frameMs - Date.now());
    if (wait === 0) queueMicrotask(this.notify);
    else this.timer = setTimeout(this.notify, wait);
  }

  private notify = (): void => {
    this.scheduled = false;
    this.timer = null;
    this.lastNotify = Date.now();
    this.notifications++;
    this.keepTime();
    if (this.settle) this.state = this.settle(this.state);
    this.view = this.state;
    if (this.urgent) frameNow.pending = true;
    this.urgent = false;
    for (const listener of this.listeners) listener();
  };

  /**
   * The clock ticks only while something counts time: it starts (read at once, so a turn that just
   * began shows 0s) when the state becomes live, and stops when it no longer is.
   */
  private keepTime(): void {
    const live = isLive(this.state);
    if (live && !this.stopTicking) {
      this.state = { ...this.state, clock: this.clock.now() };
      this.stopTicking = this.clock.every(CLOCK_TICK_MS, this.tick);
    } else if (!live && this.stopTicking) {
      this.stopTicking();
      this.stopTicking = null;
    }
  }

  private tick = (): void => {
    this.state = { ...this.state, clock: this.clock.now() };
    this.schedule();
  };
}
