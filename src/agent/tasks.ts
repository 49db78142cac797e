// The task manager: several independent tasks (each its own session, model, mode and approval
// policy), driven only by bus commands and reporting only through bus events. Owns approvals
// (awaited by request id) and the steer/queue items of running turns.
import { missingCredentials, setupHint } from "../config/credentials.js";
import { promises as fs } from "node:fs";
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import type { Bus } from "../protocol/bus.js";
import { randomId } from "../protocol/ids.js";
import type { BusCommand, CommandOf } from "../protocol/commands.js";
import type { ApprovalPolicy, BusEvent, PermissionMode, TaskSnapshot, TaskStatus } from "../protocol/events.js";
import { newRemembered, rememberAlways, type Remembered } from "../sandbox/policy.js";
import { loadPermissions, type SavedPermission } from "../session/permissions.js";
import { newSessionId, sessionFileFor } from "../session/store.js";
import { updateTaskIndex } from "../session/task-index.js";
import { exportTask } from "../session/export.js";
import type { AnyTool } from "../tools/define.js";
import type { Asker } from "../tools/registry.js";
import { authorizeCall, forgetRule, rulesOf, type PendingApproval } from "./task-approvals.js";
import { rewindTask } from "./task-rewind.js";
import type { Agent } from "./agent.js";
import { buildPrompt } from "./images.js";
import { createAgent, systemPromptFor } from "./engine.js";
import { noExtensions, type Extensions } from "./extensions.js";
import type { ModelClient } from "./model-client.js";
import { addUsage, type UsageTotals } from "./providers/usage.js";

export interface QueueItem {
  id: string;
  text: string;
  mode: "steer" | "queue";
}

interface Task {
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
  approvals: Map<string, PendingApproval>;
  remembered: Remembered;
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
  /** List sessions in ~/.nanohermes's task index (default true; the daemon keeps its own). */
  index?: boolean;
}

const titleFrom = (text: string) => {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > 48 ? `${line.slice(0, 47)}…` : line || "New task";
};

export class TaskManager {
  private readonly tasks = new Map<string, Task>();
  private readonly opts: TaskManagerOptions;

  private workspacePermissions: SavedPermission[] = [];

  private readonly extensions: Promise<Extensions>;

  constructor(opts: TaskManagerOptions) {
    this.opts = opts;
    this.extensions = opts.extensions ?? Promise.resolve(noExtensions());
    this.workspacePermissions = loadPermissions(opts.settings.home, opts.settings.workspace);
    opts.bus.onCommand((command) => this.handle(command));
  }

  private emit(event: BusEvent): void {
    this.opts.bus.emit(event);
  }

  snapshot(task: Task): TaskSnapshot {
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
      rules: this.rules(task),
    };
  }

  private changed(task: Task): void {
    task.updatedAt = new Date().toISOString();
    this.emit({ type: "task.updated", taskId: task.id, task: this.snapshot(task) });
  }

  /** Adds a task without loading its session; the agent is built on first use. */
  add(
    id: string,
    init: {
      title?: string;
      sessionFile?: string;
      pinned?: boolean;
      updatedAt?: string;
      usage?: { prompt: number; completion: number };
    } = {},
  ): void {
    if (this.tasks.has(id)) return;
    const now = new Date().toISOString();
    const task: Task = {
      id,
      title: init.title ?? "New task",
      titleFromUser: init.title !== undefined,
      pinned: init.pinned ?? false,
      status: "idle",
      mode: this.opts.mode ?? "default",
      approval: this.opts.approval,
      model: this.opts.settings.model,
      sessionFile: init.sessionFile ?? sessionFileFor(this.opts.settings.sessionDir, newSessionId()),
      createdAt: now,
      updatedAt: init.updatedAt ?? now,
      usage: { prompt: init.usage?.prompt ?? 0, completion: init.usage?.completion ?? 0 },
      agent: null,
      loading: null,
      closing: null,
      running: null,
      items: [],
      approvals: new Map(),
      remembered: newRemembered(),
    };
    for (const p of this.workspacePermissions) {
      if (p.edits) task.remembered.allEdits = true;
      if (p.command) rememberAlways(task.remembered, "exec", p.command);
      if (p.tool) task.remembered.tools.add(p.tool);
    }
    this.tasks.set(id, task);
    this.emit({ type: "task.updated", taskId: id, task: this.snapshot(task) });
  }

  has(id: string): boolean {
    return this.tasks.has(id);
  }

  isRunning(id: string): boolean {
    return Boolean(this.tasks.get(id)?.running);
  }

  /** The running turn of the task (settled once it has ended and been saved), or null. */
  turn(id: string): Promise<void> | null {
    return this.tasks.get(id)?.running ?? null;
  }

  /** The task's agent if its session is loaded already. */
  loadedAgent(id: string): Agent | null {
    return this.tasks.get(id)?.agent ?? null;
  }

  /**
   * Closes an idle task's agent to free its history (the session file has it all); the next use
   * loads it again. False when the task is busy, waits for an answer, or was not loaded.
   */
  async unload(id: string): Promise<boolean> {
    const task = this.tasks.get(id);
    if (!task?.agent || task.running || task.approvals.size > 0) return false;
    const agent = task.agent;
    task.agent = null;
    task.loading = null;
    task.closing = agent.close().catch((error: unknown) => log("warn", `closing task ${id}`, error));
    await task.closing;
    return true;
  }

  /** The task as task.updated reports it, or null. */
  snapshotOf(id: string): TaskSnapshot | null {
    const task = this.tasks.get(id);
    return task ? this.snapshot(task) : null;
  }

  /** Builds (once) the task's agent, loading its session file. */
  agentFor(id: string): Promise<Agent> {
    const task = this.tasks.get(id);
    if (!task) return Promise.reject(new Error(`no task ${id}`));
    if (task.agent) return Promise.resolve(task.agent);
    task.loading ??= Promise.all([this.extensions, task.closing])
      .then(([extensions]) =>
        createAgent({
          settings: { ...this.opts.settings, model: task.model },
          extensions,
          taskId: id,
          emit: (event) => this.onAgentEvent(task, event),
          sessionFile: task.sessionFile,
          mode: task.mode,
          ...(this.opts.client ? { client: this.opts.client } : {}),
          authorize: (tool, args, call, who) => this.authorize(task, tool, args, call.id, who),
          takeSteering: () => this.takeSteering(task),
        }),
      )
      .then((agent) => {
        task.agent = agent;
        if (agent.messages.length > 1) this.emit({ type: "session.loaded", taskId: id, ...agent.loadedView() });
        if (agent.session.title && !task.titleFromUser) {
          task.title = agent.session.title;
          task.titleFromUser = true;
        }
        return agent;
      });
    return task.loading;
  }

  private onAgentEvent(task: Task, event: BusEvent): void {
    if (event.type === "usage.updated") {
      addUsage(task.usage, event);
      if (event.agentId === undefined) {
        if (event.contextWindow) task.context = { used: event.prompt, window: event.contextWindow };
        else delete task.context;
      }
      this.emit(event);
      this.changed(task);
      return;
    }
    this.emit(event);
  }

  private handle(command: BusCommand): void {
    const task = this.tasks.get(command.taskId);
    switch (command.type) {
      case "task.create":
        this.add(command.taskId, {
          ...(command.title ? { title: command.title } : {}),
          ...(command.sessionFile ? { sessionFile: command.sessionFile } : {}),
        });
        return;
      case "task.open":
        if (task && !task.agent)
          void this.agentFor(task.id).catch((error: unknown) => log("warn", `opening task ${task.id}`, error));
        return;
      case "user.submit":
        if (task) this.submit(task, command.text, command.mode ?? "turn", command.images ?? [], command.model);
        return;
      case "shell.run":
        if (task) this.shell(task, command.command);
        return;
      case "turn.interrupt":
        if (task) this.interrupt(task, command.force ?? false);
        return;
      case "approval.reply":
        for (const t of this.tasks.values()) {
          const pending = t.approvals.get(command.requestId);
          if (!pending) continue;
          if (command.decision === "deny") {
            pending.resolve({
              allow: false,
              reason: command.note ? `the user denied this call: ${command.note}` : "the user denied this call",
            });
          } else {
            if (command.decision === "always") pending.remember(command.scope ?? "task");
            pending.resolve({ allow: true });
          }
          t.approvals.delete(command.requestId);
          this.emit({
            type: "approval.resolved",
            taskId: t.id,
            requestId: command.requestId,
            decision: command.decision,
          });
          if (t.status === "waiting" && t.approvals.size === 0) t.status = "running";
          this.changed(t);
        }
        return;
      case "config.update":
        if (task) void this.configure(task, command);
        return;
      case "task.update":
        if (task) void this.update(task, command);
        return;
      case "task.delete":
        if (task) void this.remove(task);
        return;
      case "task.export":
        if (task) void this.export(task, command.format, command.path);
        return;
      case "permissions.remove":
        if (task) {
          forgetRule(task.remembered, command.rule);
          this.changed(task);
        }
        return;
      case "queue.update":
        if (task) {
          task.items = command.items.map((i) => ({ ...i }));
          this.emit({ type: "queue.updated", taskId: task.id, items: task.items.map((i) => ({ ...i })) });
        }
        return;
      case "subagent.stop":
        if (task) {
          const stopped = task.agent?.subagents?.stop(command.agentId, { force: command.force ?? false }) ?? false;
          // A child blocked on a question would never reach the step boundary where it stops.
          if (stopped) this.denyChildApprovals(task, command.agentId);
          if (!stopped)
            this.emit({ type: "notice", taskId: task.id, level: "warn", text: `${command.agentId} is not running` });
        }
        return;
      case "mcp.restart":
        void this.extensions.then(async (ext) => {
          if (!ext.mcp)
            return this.emit({
              type: "notice",
              taskId: command.taskId,
              level: "warn",
              text: "no MCP servers are configured (mcpServers in config.json, or --mcp FILE)",
            });
          if (command.server && !ext.mcp.serverNames().includes(command.server)) {
            return this.emit({
              type: "notice",
              taskId: command.taskId,
              level: "error",
              text: `no MCP server "${command.server}" (servers: ${ext.mcp.serverNames().join(", ")})`,
            });
          }
          await ext.mcp.restart(command.server);
        });
        return;
      case "session.rewind":
      case "file.revert":
        if (task) void this.rewind(task, command);
        return;
      case "session.undo":
      case "session.clear":
      case "session.compact":
        if (task) void this.sessionCommand(task, command);
        return;
      default:
        command satisfies never;
    }
  }

  private submit(
    task: Task,
    text: string,
    mode: "turn" | "steer" | "queue",
    images: string[] = [],
    model?: string,
  ): void {
    if (task.running) {
      task.items.push({ id: randomId(12), text, mode: mode === "queue" ? "queue" : "steer" });
      this.emit({ type: "queue.updated", taskId: task.id, items: task.items.map((i) => ({ ...i })) });
      return;
    }
    if (!this.opts.client && missingCredentials(this.opts.settings)) {
      // Nothing is sent: the default endpoint would refuse it, or a typo'd host would say "DNS".
      this.emit({
        type: "notice",
        taskId: task.id,
        level: "error",
        text: `not sent: ${setupHint(this.opts.settings).join("\n")}`,
      });
      return;
    }
    if (!task.titleFromUser) {
      task.title = titleFrom(text);
      task.titleFromUser = true;
    }
    task.status = "running";
    this.changed(task);
    task.running = this.runTurn(task, text, images, model);
  }

  private async runTurn(task: Task, text: string, images: string[] = [], model?: string): Promise<void> {
    try {
      const agent = await this.agentFor(task.id);
      const built = await buildPrompt(text, images, this.opts.settings.workspace);
      if (built.errors.length > 0) {
        // A refused image stops the whole turn: the model never gets half of what was meant.
        for (const error of built.errors)
          this.emit({ type: "notice", taskId: task.id, level: "error", text: `image refused: ${error}` });
        task.status = "idle";
      } else {
        for (const note of built.notes)
          this.emit({ type: "notice", taskId: task.id, level: "info", text: `image attached: ${note}` });
        agent.session.title = task.title;
        agent.session.pinned = task.pinned;
        // A model for this turn only: the task's own comes back when it ends.
        if (model) agent.model = model;
        const result = await agent.run(built.content).finally(() => {
          if (model) agent.model = task.model;
        });
        // A turn whose session could not be saved is shown failed (its notice says why).
        task.status = result.saveError
          ? "failed"
          : result.reason === "completed"
            ? "done"
            : result.reason === "interrupted"
              ? "idle"
              : "failed";
      }
    } catch (error) {
      log("error", `task ${task.id} turn failed`, error);
      task.status = "failed";
      this.emit({
        type: "notice",
        taskId: task.id,
        level: "error",
        text: `the turn failed: ${(error as Error).message}`,
      });
    }
    this.settle(task);
  }

  /** `!` shell mode: the command runs as a turn of its own (Ctrl-C stops it like one). */
  private shell(task: Task, command: string): void {
    if (task.running) {
      this.emit({
        type: "notice",
        taskId: task.id,
        level: "warn",
        text: "a ! command runs between turns: wait for this one to end (or stop it)",
      });
      return;
    }
    task.status = "running";
    this.changed(task);
    task.running = (async () => {
      try {
        const result = await (await this.agentFor(task.id)).shell(command);
        // A command that exits non-zero is an answer, not a failed task.
        task.status = result.status === "aborted" ? "idle" : "done";
      } catch (error) {
        log("error", `task ${task.id} shell command failed`, error);
        task.status = "failed";
        this.emit({
          type: "notice",
          taskId: task.id,
          level: "error",
          text: `the command failed: ${(error as Error).message}`,
        });
      }
      this.settle(task);
    })();
  }

  /** The task is free again: what was queued meanwhile becomes the next turn. */
  private settle(task: Task): void {
    task.running = null;
    this.changed(task);
    void this.index(task);
    // Queued messages become the next turn; steering left over (the turn ended first) too.
    const next = task.items.shift();
    if (next) {
      this.emit({ type: "queue.updated", taskId: task.id, items: task.items.map((i) => ({ ...i })) });
      this.submit(task, next.text, "turn");
    }
  }

  private takeSteering(task: Task): string[] {
    const steer = task.items.filter((i) => i.mode === "steer");
    if (steer.length === 0) return [];
    task.items = task.items.filter((i) => i.mode !== "steer");
    this.emit({ type: "queue.updated", taskId: task.id, items: task.items.map((i) => ({ ...i })) });
    return steer.map((i) => i.text);
  }

  private interrupt(task: Task, force: boolean): void {
    if (!task.running) return;
    task.agent?.stop({ force });
    for (const [requestId, pending] of task.approvals) {
      pending.resolve({ allow: false, reason: "the turn was stopped before the user answered" });
      this.emit({ type: "approval.resolved", taskId: task.id, requestId, decision: "cancelled" });
    }
    task.approvals.clear();
  }

  /** Answers the questions of one stopped child (or of every child) as denied; the parent's own stay. */
  private denyChildApprovals(task: Task, agentId: string | undefined): void {
    let answered = 0;
    for (const [requestId, pending] of task.approvals) {
      if (pending.agentId === undefined || (agentId !== undefined && pending.agentId !== agentId)) continue;
      task.approvals.delete(requestId);
      pending.resolve({ allow: false, reason: `${pending.agentId} was stopped before the user answered` });
      this.emit({ type: "approval.resolved", taskId: task.id, requestId, decision: "deny" });
      answered++;
    }
    if (answered === 0) return;
    if (task.status === "waiting" && task.approvals.size === 0) task.status = "running";
    this.changed(task);
  }

  private authorize(
    task: Task,
    tool: AnyTool,
    args: Record<string, unknown>,
    callId: string,
    who?: Asker,
  ): ReturnType<typeof authorizeCall> {
    const interactive =
      typeof this.opts.interactive === "function" ? this.opts.interactive(task.id) : this.opts.interactive;
    return authorizeCall(
      {
        settings: this.opts.settings,
        interactive,
        emit: (event) => this.emit(event),
        changed: () => this.changed(task),
      },
      task,
      tool,
      args,
      callId,
      who,
    );
  }

  rules(task: Task): string[] {
    return rulesOf(task.remembered);
  }

  private async configure(task: Task, command: CommandOf<"config.update">): Promise<void> {
    if (command.model) {
      task.model = command.model;
      if (task.agent) task.agent.model = command.model;
    }
    if (command.approval) task.approval = command.approval;
    if (command.mode && command.mode !== task.mode) {
      task.mode = command.mode;
      task.agent?.setSystemPrompt(systemPromptFor(this.opts.settings, task.mode, await this.extensions));
    }
    this.changed(task);
  }

  private async update(task: Task, command: CommandOf<"task.update">): Promise<void> {
    if (command.title !== undefined) {
      task.title = command.title;
      task.titleFromUser = true;
    }
    if (command.pinned !== undefined) task.pinned = command.pinned;
    this.changed(task);
    if (task.agent && task.agent.messages.length > 1 && !task.running) {
      task.agent.session.title = task.title;
      task.agent.session.pinned = task.pinned;
      await task.agent.save();
    }
    await this.index(task);
  }

  private async remove(task: Task): Promise<void> {
    this.interrupt(task, true);
    await task.running?.catch(() => {});
    this.tasks.delete(task.id);
    await task.agent?.close();
    await fs.unlink(task.sessionFile).catch(() => {});
    if (this.opts.index !== false)
      await updateTaskIndex(this.opts.settings.home, (entries) => entries.filter((e) => e.id !== task.id)).catch(
        () => {},
      );
    this.emit({ type: "task.removed", taskId: task.id });
  }

  private async export(task: Task, format: "markdown" | "json", path: string | undefined): Promise<void> {
    try {
      const agent = await this.agentFor(task.id);
      const file = await exportTask(agent.session, task.title, format, path ?? null, this.opts.settings.workspace);
      this.emit({ type: "notice", taskId: task.id, level: "info", text: `exported to ${file}` });
    } catch (error) {
      this.emit({
        type: "notice",
        taskId: task.id,
        level: "error",
        text: `export failed: ${(error as Error).message}`,
      });
    }
  }

  private async sessionCommand(
    task: Task,
    command: CommandOf<"session.undo" | "session.clear" | "session.compact">,
  ): Promise<void> {
    if (task.running) {
      this.emit({
        type: "notice",
        taskId: task.id,
        level: "warn",
        text: "wait for the turn to end (or stop it) first",
      });
      return;
    }
    const agent = await this.agentFor(task.id);
    if (command.type === "session.undo") {
      const n = agent.undo(command.n);
      this.emit({
        type: "notice",
        taskId: task.id,
        level: "info",
        text: n ? `dropped the last ${n} turn${n === 1 ? "" : "s"}` : "nothing to undo",
      });
    } else if (command.type === "session.clear") {
      agent.clear();
      this.emit({ type: "notice", taskId: task.id, level: "info", text: "the conversation was cleared" });
    } else {
      // The transcript keeps what the user saw; context.compacted marks where the model's view
      // changed. Prompts sent meanwhile wait in the queue, as during a turn.
      const work = (async () => {
        if (
          (await agent.compactHistory({ forced: true, ...(command.focus ? { focus: command.focus } : {}) })) === "done"
        )
          await agent.save();
      })();
      task.running = work.catch((error: unknown) => log("error", "compaction", error));
      await task.running;
      this.settle(task);
      return;
    }
    await agent.save();
    this.emit({ type: "session.loaded", taskId: task.id, ...agent.loadedView() });
  }

  private async rewind(task: Task, command: CommandOf<"session.rewind" | "file.revert">): Promise<void> {
    if (task.running) {
      this.emit({
        type: "notice",
        taskId: task.id,
        level: "warn",
        text: "wait for the turn to end (or stop it) first",
      });
      return;
    }
    await rewindTask(await this.agentFor(task.id), command, (event) =>
      this.emit({ ...event, taskId: task.id } as BusEvent),
    );
  }

  private async index(task: Task): Promise<void> {
    if (this.opts.index === false) return;
    if (!task.agent || task.agent.messages.length <= 1) return;
    const entry = {
      id: task.id,
      sessionFile: task.sessionFile,
      title: task.title,
      pinned: task.pinned,
      workspace: this.opts.settings.workspace,
      updatedAt: task.updatedAt,
      usage: { ...task.usage },
    };
    await updateTaskIndex(this.opts.settings.home, (entries) => [
      entry,
      ...entries.filter((e) => e.id !== task.id),
    ]).catch((error: unknown) => log("warn", "task index not updated", error));
  }

  /** Stops every turn (forcefully) and saves every loaded session: the exit path. */
  async shutdown(): Promise<void> {
    for (const task of this.tasks.values()) this.interrupt(task, true);
    await Promise.all([...this.tasks.values()].map((t) => t.running?.catch(() => {})));
    await Promise.all(
      [...this.tasks.values()].map(async (t) => (t.agent && t.agent.messages.length > 1 ? t.agent.save() : undefined)),
    );
    await Promise.all([...this.tasks.values()].map(async (t) => t.agent?.close()));
  }
}
