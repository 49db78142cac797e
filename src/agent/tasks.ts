// The task manager: several independent tasks (each its own session, model, mode and approval
// policy), driven only by bus commands and reporting only through bus events. Owns approvals
// (awaited by request id) and the steer/queue items of running turns. The work is in task-*.ts:
// the state, building the agent, the turns, the queue, approvals, session commands, /rewind and
// the task index.
import { missingCredentials, setupHint } from "../config/credentials.js";
import { promises as fs } from "node:fs";
import { log } from "../config/log.js";
import type { BusCommand, CommandOf } from "../protocol/commands.js";
import type { BusEvent, TaskSnapshot, TaskStatus } from "../protocol/events.js";
import { loadPermissions, type SavedPermission } from "../session/permissions.js";
import { cancelApprovals, denyChildApprovals, forgetRule, replyToApproval, rulesOf } from "./task-approvals.js";
import { type AgentHost, loadEngine, loadTaskAgent } from "./task-agent.js";
import { adoptListed, indexTask, unindexTask } from "./task-listing.js";
import { runPromptTurn, runShellCommand } from "./task-turns.js";
import { announceQueue, enqueue, nextAfterTurn, resumeQueue, takeSteering } from "./task-queue.js";
import { compactConversation, editConversation, exportSession } from "./task-session.js";
import { newTask, snapshotOf, type Task, type TaskInit, type TaskManagerOptions, titleFrom } from "./task-state.js";
import { rewindTask } from "./task-rewind.js";
import { SessionHolders } from "./task-holder.js";
import type { Agent } from "./agent.js";
import { settleSaved } from "./gate.js";
import { noExtensions, restartMcp, type Extensions } from "./extensions.js";

export type { QueueItem, TaskManagerOptions } from "./task-state.js";

export class TaskManager {
  private readonly tasks = new Map<string, Task>();
  private readonly opts: TaskManagerOptions;

  private workspacePermissions: SavedPermission[] = [];

  private readonly extensions: Promise<Extensions>;
  /** What building a task's agent (task-agent.ts) needs of the manager. */
  private readonly agentHost: AgentHost;

  /** Who else holds a task's session (another UI, the daemon): said at once, and when it lets go. */
  private readonly holders = new SessionHolders({
    emit: (event) => this.emit(event),
    changed: (task) => this.changed(task),
    gone: (task) => this.tasks.get(task.id) !== task,
  });

  constructor(opts: TaskManagerOptions) {
    this.opts = opts;
    this.extensions = opts.extensions ?? Promise.resolve(noExtensions());
    this.agentHost = {
      opts,
      extensions: this.extensions,
      emit: this.emit,
      changed: (task) => this.changed(task),
      takeSteering: (task) => takeSteering(task, this.emit),
    };
    this.workspacePermissions = loadPermissions(opts.settings.home, opts.settings.workspace);
    opts.bus.onCommand((command) => this.handle(command));
  }

  /** Loads the engine ahead of the first agent (the UI calls it once its first frame is out). */
  warm(): Promise<void> {
    return loadEngine().then(() => undefined);
  }

  /** Onto the bus. A bound arrow, handed as is to the task-*.ts helpers. */
  private readonly emit = (event: BusEvent): void => {
    this.opts.bus.emit(event);
    // Questions are asked and answered here, not by the agent: its typed history keeps them too.
    if (event.type === "approval.requested" || event.type === "approval.resolved")
      this.tasks.get(event.taskId)?.agent?.recordApproval(event);
  };

  snapshot(task: Task): TaskSnapshot {
    return snapshotOf(task);
  }

  private changed(task: Task): void {
    task.updatedAt = new Date().toISOString();
    this.emit({ type: "task.updated", taskId: task.id, task: this.snapshot(task) });
  }

  /** Adds a task without loading its session; the agent is built on first use. */
  add(id: string, init: TaskInit = {}): void {
    if (this.tasks.has(id)) return;
    const task = newTask(id, init, this.opts, this.workspacePermissions);
    this.tasks.set(id, task);
    // The workspace's saved "always" rules join the task's at once when the classifier that judges
    // them is loaded, else once it is (it stays out of the first frame).
    const settled = settleSaved(task);
    this.emit({ type: "task.updated", taskId: id, task: this.snapshot(task) });
    if (task.saved) void settled.then((added) => added && this.changed(task));
    // An earlier session may be open elsewhere: said now, before anything is typed.
    if (init.sessionFile) this.holders.watch(task);
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
    task.loading ??= loadTaskAgent(task, this.agentHost);
    return task.loading;
  }

  private handle(command: BusCommand): void {
    const task = this.tasks.get(command.taskId);
    switch (command.type) {
      case "task.create":
        this.add(command.taskId, {
          ...(command.title ? { title: command.title } : {}),
          ...(command.sessionFile ? { sessionFile: command.sessionFile } : {}),
        });
        if (command.sessionFile && this.opts.index !== false) void this.adopt(command.taskId);
        return;
      case "task.open":
        if (task && !task.agent) void this.holders.open(task, () => this.agentFor(task.id));
        return;
      case "user.submit":
        if (task && command.resume) this.resumeQueue(task);
        else if (task) this.submit(task, command.text, command.mode ?? "turn", command.images ?? [], command.model);
        return;
      case "shell.run":
        if (task) this.shell(task, command.command);
        return;
      case "turn.interrupt":
        if (task) this.interrupt(task, command.force ?? false);
        return;
      case "approval.reply": {
        const answered = replyToApproval(this.tasks.values(), command, this.emit);
        if (!answered) return;
        this.changed(answered.task);
        // Deny means stop: the turn (or the child that asked) ends at its step boundary instead of
        // going on to ask for something else.
        if (command.decision === "deny" && command.stop) {
          if (answered.agentId) answered.task.agent?.subagents?.stop(answered.agentId, { force: false });
          else this.interrupt(answered.task, false);
        }
        return;
      }
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
        if (task)
          void exportSession(
            this.agentFor(task.id),
            task.title,
            command.format,
            command.path,
            this.opts.settings.workspace,
            (event) => this.emit({ ...event, taskId: task.id } as BusEvent),
          );
        return;
      case "permissions.remove":
        if (task) {
          // A saved rule not yet settled would come back after this: settled first.
          void settleSaved(task).then(() => {
            forgetRule(task.remembered, command.rule);
            this.changed(task);
          });
        }
        return;
      case "queue.update":
        if (task) {
          task.items = command.items.map((i) => ({ ...i }));
          announceQueue(task, this.emit);
        }
        return;
      case "subagent.stop":
        if (task) {
          const stopped = task.agent?.subagents?.stop(command.agentId, { force: command.force ?? false }) ?? false;
          // A child blocked on a question would never reach the step boundary where it stops.
          if (stopped && denyChildApprovals(task, command.agentId, this.emit) > 0) this.changed(task);
          if (!stopped)
            this.emit({ type: "notice", taskId: task.id, level: "warn", text: `${command.agentId} is not running` });
        }
        return;
      case "job.stop":
        if (task)
          void (task.agent?.stopJob(command.jobId) ?? Promise.resolve(false)).then((stopped) => {
            if (!stopped)
              this.emit({ type: "notice", taskId: task.id, level: "warn", text: `${command.jobId} is not running` });
          });
        return;
      case "mcp.restart":
        void this.extensions.then((ext) =>
          restartMcp(ext, command.server, (level, text) =>
            this.emit({ type: "notice", taskId: command.taskId, level, text }),
          ),
        );
        return;
      case "proposal.accept":
      case "proposal.reject":
      case "proposal.edit":
        // The Skills tab's answers: their code loads with the first one.
        void import("./skill-proposal-commands.js").then(({ answerWith }) =>
          answerWith(command, this.extensions, this.opts.settings, this.emit),
        );
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
    if (task.running) return enqueue(task, text, mode, this.emit);
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
    const turn = { text, images, model, workspace: this.opts.settings.workspace };
    task.running = this.ended(
      task,
      runPromptTurn(
        task,
        () => this.agentFor(task.id),
        turn,
        this.sayTo(task),
        (error) => this.holders.refuse(task, text, error),
      ),
    );
  }

  /** `!` shell mode: the command runs as a turn of its own, between turns. */
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
    task.running = this.ended(
      task,
      runShellCommand(task, () => this.agentFor(task.id), command, this.sayTo(task)),
    );
  }

  /** The turn's status once it has ended, then the next queued item. */
  private async ended(task: Task, turn: Promise<TaskStatus>): Promise<void> {
    task.status = await turn;
    this.settle(task);
  }

  private sayTo(task: Task): (level: "info" | "error", text: string) => void {
    return (level, text) => this.emit({ type: "notice", taskId: task.id, level, text });
  }

  /** The task is free again: what was queued meanwhile becomes the next turn. */
  private settle(task: Task): void {
    task.running = null;
    this.changed(task);
    void this.index(task);
    const next = nextAfterTurn(task, this.emit);
    if (next) this.submit(task, next.text, "turn");
  }

  /** A paused queue goes on (task-queue.ts). */
  private resumeQueue(task: Task): void {
    const next = resumeQueue(task, this.emit);
    if (next) this.submit(task, next.text, "turn");
  }

  private interrupt(task: Task, force: boolean): void {
    if (!task.running) return;
    // Whoever stopped the turn decides what comes next: what was queued waits for them.
    task.queuePaused = true;
    task.agent?.stop({ force });
    cancelApprovals(task, this.emit);
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
      if (task.agent) {
        const { systemPromptFor } = await loadEngine();
        task.agent.setSystemPrompt(systemPromptFor(this.opts.settings, task.mode, await this.extensions));
      }
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
    if (this.opts.index !== false) await unindexTask(this.opts.settings.home, task.id);
    this.emit({ type: "task.removed", taskId: task.id });
  }

  private async sessionCommand(
    task: Task,
    command: CommandOf<"session.undo" | "session.clear" | "session.compact">,
  ): Promise<void> {
    if (this.busy(task)) return;
    const agent = await this.agentFor(task.id);
    if (command.type !== "session.compact")
      return editConversation(agent, command, (event) => this.emit({ ...event, taskId: task.id } as BusEvent));
    // Prompts sent while it folds wait in the queue, as during a turn.
    task.running = compactConversation(agent, command.focus);
    await task.running;
    this.settle(task);
  }

  /** Says so when a turn runs: the session commands wait for it. */
  private busy(task: Task): boolean {
    if (task.running)
      this.emit({
        type: "notice",
        taskId: task.id,
        level: "warn",
        text: "wait for the turn to end (or stop it) first",
      });
    return task.running !== null;
  }

  private async rewind(task: Task, command: CommandOf<"session.rewind" | "file.revert">): Promise<void> {
    if (this.busy(task)) return;
    await rewindTask(await this.agentFor(task.id), command, (event) =>
      this.emit({ ...event, taskId: task.id } as BusEvent),
    );
  }

  /** A new task on a listed session file carries that entry's tokens and pin (adoptListed). */
  private async adopt(id: string): Promise<void> {
    const task = this.tasks.get(id);
    if (task && (await adoptListed(this.opts.settings.home, task)) && this.tasks.get(id) === task)
      this.emit({ type: "task.updated", taskId: id, task: this.snapshot(task) });
  }

  private async index(task: Task): Promise<void> {
    if (this.opts.index !== false) await indexTask(this.opts.settings.home, this.opts.settings.workspace, task);
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
