// What the task manager keeps per task and what it is built from: a new task's state (with the
// workspace's saved permissions), and the snapshot task.updated reports.
import type { ApprovalPolicy, PermissionMode, TaskSnapshot, TaskStatus } from "../protocol/events.js";
import { newRemembered, type Remembered } from "../sandbox/remembered.js";
import type { SavedPermission } from "../session/permissions.js";
import { newSessionId, sessionFileFor } from "../session/store.js";
import type { Settings } from "../config/schema.js";
import type { Bus } from "../protocol/bus.js";
import type { Agent } from "./agent.js";
import type { EditorFiles } from "../tools/define.js";
import type { Extensions } from "./extensions.js";
import type { ModelClient } from "./model-client.js";
import type { UsageTotals } from "./providers/usage.js";
import { type PendingApproval, rulesOf } from "./task-approvals.js";

export interface QueueItem {
  id: string;
  text: string;
  mode: "steer" | "queue";
}

export interface Task {
  id: string;
  title: string;
  titleFromUser: boolean;
  pinned: boolean;
  status: TaskStatus;
  mode: PermissionMode;
  approval: ApprovalPolicy;
  model: string;
  sessionFile: string;
  createdAt: string;
  updatedAt: string;
  usage: UsageTotals;
  /** Input tokens of the main agent's latest request against its model's window, for the status line. */
  context?: { used: number; window: number };
  agent: Agent | null;
  loading: Promise<Agent> | null;
  /** An unloaded agent still closing: the next one waits for it. */
  closing: Promise<void> | null;
  running: Promise<void> | null;
  items: QueueItem[];
  /** A stop paused the queue: queued items wait for the user instead of starting the next turn. */
  queuePaused: boolean;
  approvals: Map<string, PendingApproval>;
  remembered: Remembered;
  /**
   * The workspace's saved "always" rules not yet in `remembered`: they are judged by the command
   * classifier, which loads after the first frame (`settleSaved` in gate.ts), not with the task.
   */
  saved?: readonly SavedPermission[];
  /** Another live process holds the session (task-holder.ts looks every second while it does). */
  heldBy?: NonNullable<TaskSnapshot["heldBy"]>;
  watchingHolder: boolean;
}

export interface TaskManagerOptions {
  settings: Settings;
  bus: Bus;
  /**
   * Interactive front ends can answer approvals; elsewhere a call that needs one is refused. A
   * function decides per task, when it is asked (the daemon: while a UI is attached).
   */
  interactive: boolean | ((taskId: string) => boolean);
  approval: ApprovalPolicy;
  mode?: PermissionMode;
  client?: ModelClient;
  /** MCP servers, skills, hooks and AGENTS.md; agents are built once these are loaded. */
  extensions?: Promise<Extensions>;
  /** The editor's view of files for every task's read_file (an ACP client's buffers). */
  editorFiles?: EditorFiles;
  /** List sessions in ~/.nanohermes's task index (default true; the daemon keeps its own). */
  index?: boolean;
  /** A call's span as a W3C traceparent while telemetry is on (src/telemetry/): MCP requests carry it. */
  traceparent?: (taskId: string, callId: string) => string | undefined;
}

/** A task's title from its first prompt: the first line, 48 characters at most. */
export const titleFrom = (text: string) => {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > 48 ? `${line.slice(0, 47)}…` : line || "New task";
};

/** What a task starts from when added: a name, a session file, or its entry in the task index. */
export interface TaskInit {
  title?: string;
  sessionFile?: string;
  pinned?: boolean;
  updatedAt?: string;
  usage?: { prompt: number; completion: number };
}

/** A task not loaded yet (its agent is built on first use), with the workspace's "always" rules. */
export function newTask(id: string, init: TaskInit, opts: TaskManagerOptions, permissions: SavedPermission[]): Task {
  const now = new Date().toISOString();
  const task: Task = {
    id,
    title: init.title ?? "New task",
    titleFromUser: init.title !== undefined,
    pinned: init.pinned ?? false,
    status: "idle",
    mode: opts.mode ?? "default",
    approval: opts.approval,
    model: opts.settings.model,
    sessionFile: init.sessionFile ?? sessionFileFor(opts.settings.sessionDir, newSessionId()),
    createdAt: now,
    updatedAt: init.updatedAt ?? now,
    usage: { prompt: init.usage?.prompt ?? 0, completion: init.usage?.completion ?? 0 },
    agent: null,
    loading: null,
    closing: null,
    running: null,
    items: [],
    queuePaused: false,
    approvals: new Map(),
    remembered: newRemembered(),
    ...(permissions.length > 0 ? { saved: permissions } : {}),
    watchingHolder: false,
  };
  return task;
}

/** The task as task.updated reports it. */
export function snapshotOf(task: Task): TaskSnapshot {
  return {
    title: task.title,
    status: task.status,
    pinned: task.pinned,
    model: task.model,
    mode: task.mode,
    approval: task.approval,
    location: "local",
    sessionFile: task.sessionFile,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    usage: { ...task.usage },
    ...(task.context ? { context: { ...task.context } } : {}),
    pendingApprovals: task.approvals.size,
    rules: rulesOf(task.remembered),
    ...(task.heldBy ? { heldBy: { ...task.heldBy } } : {}),
  };
}
