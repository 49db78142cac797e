// Remote tasks: sessions of a daemon shown in the UI like local tasks. The bridge sits on the UI's
// bus: it carries the UI's commands for its tasks to the daemon and the daemon's events back,
// renamed to the local task id. Closing the UI never stops a remote turn.
import type { Bus } from "../protocol/bus.js";
import type { BusCommand } from "../protocol/commands.js";
import type { BusEvent, TaskSnapshot, TaskStatus } from "../protocol/events.js";
import { readFile, stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { MAX_IMAGE_BYTES } from "../protocol/images.js";
import { describeAddress, type DaemonClient } from "./client.js";
import { SESSION_COMMANDS, type SessionInfo } from "./wire.js";

interface RemoteTask {
  localId: string;
  session: string;
  client: DaemonClient;
  snapshot: TaskSnapshot;
  stream: { close(): void } | null;
  lost: boolean;
}

export interface RemoteTasksOptions {
  bus: Bus;
  /** Attach mode: every task the UI creates is a new session of this daemon. */
  claim?: DaemonClient;
  /** How often (ms) attach mode refreshes the states of sessions it does not follow; 0: never. */
  refreshMs?: number;
  /** Where /export writes (default: the current directory). */
  workspace?: string;
  /** Told when a task's title changes or the task goes (to keep the list of remote tasks). */
  onChange?: (localId: string, change: { title: string } | { removed: true }) => void;
}

function placeholder(title: string, status: TaskStatus, updatedAt: string): TaskSnapshot {
  return {
    title,
    status,
    pinned: false,
    model: "(daemon)",
    mode: "default",
    approval: "never",
    location: "remote",
    sessionFile: null,
    createdAt: updatedAt,
    updatedAt,
    usage: { prompt: 0, completion: 0 },
    pendingApprovals: 0,
    rules: [],
  };
}

export class RemoteTasks {
  private readonly tasks = new Map<string, RemoteTask>();
  private readonly bus: Bus;
  private readonly claim: DaemonClient | null;
  private refresher: NodeJS.Timeout | null = null;
  private readonly onChange: NonNullable<RemoteTasksOptions["onChange"]>;
  private readonly workspace: string;

  constructor(opts: RemoteTasksOptions) {
    this.bus = opts.bus;
    this.onChange = opts.onChange ?? (() => {});
    this.workspace = opts.workspace ?? process.cwd();
    this.claim = opts.claim ?? null;
    opts.bus.onCommand((command) => this.handle(command));
    if (this.claim && (opts.refreshMs ?? 5_000) > 0) {
      this.refresher = setInterval(() => void this.refresh(), opts.refreshMs ?? 5_000);
      this.refresher.unref();
    }
  }

  has(localId: string): boolean {
    return this.tasks.has(localId);
  }

  /** Shows a daemon session as a task; it is followed live once opened (or at once when running). */
  add(localId: string, client: DaemonClient, session: string, info?: Partial<SessionInfo>): void {
    if (this.tasks.has(localId)) return;
    const title =
      info?.title && info.title !== "New task" ? info.title : `${session} on ${describeAddress(client.address)}`;
    const task: RemoteTask = {
      localId,
      session,
      client,
      snapshot: placeholder(title, info?.status ?? "idle", info?.updatedAt ?? new Date().toISOString()),
      stream: null,
      lost: false,
    };
    this.tasks.set(localId, task);
    this.emit(task, { type: "task.updated", taskId: localId, task: task.snapshot });
    if (info?.running) this.follow(task);
  }

  private emit(task: RemoteTask, event: BusEvent): void {
    this.bus.emit({ ...event, taskId: task.localId } as BusEvent);
  }

  private notice(task: RemoteTask, level: "info" | "warn" | "error", text: string): void {
    this.emit(task, { type: "notice", taskId: task.localId, level, text });
  }

  private follow(task: RemoteTask): void {
    if (task.stream) return;
    task.stream = task.client.follow(task.session, {
      onEvent: (event) => {
        if (event.type === "task.updated") {
          // The daemon's own view, shown as remote.
          if (event.task.title !== task.snapshot.title && event.task.title !== "New task")
            this.onChange(task.localId, { title: event.task.title });
          task.snapshot = { ...event.task, location: "remote", sessionFile: null };
          this.emit(task, { ...event, task: task.snapshot });
          return;
        }
        if (event.type === "task.removed") {
          this.forget(task);
          return;
        }
        this.emit(task, event);
      },
      onState: (state) => {
        if (state.connected) {
          if (task.lost) this.notice(task, "info", `reconnected to ${describeAddress(task.client.address)}`);
          task.lost = false;
          return;
        }
        if (state.retryInMs < 0) {
          task.stream = null;
          this.notice(task, "error", `remote task: ${state.error}`);
          return;
        }
        if (!task.lost)
          this.notice(task, "warn", `lost the daemon (${state.error}); reconnecting: the turn keeps running there`);
        task.lost = true;
      },
    });
  }

  private forget(task: RemoteTask): void {
    task.stream?.close();
    this.tasks.delete(task.localId);
    this.onChange(task.localId, { removed: true });
    this.bus.emit({ type: "task.removed", taskId: task.localId });
  }

  private send(task: RemoteTask, what: string, work: Promise<unknown>): void {
    work.catch((error: unknown) =>
      this.notice(
        task,
        "error",
        `${what} failed on ${describeAddress(task.client.address)}: ${(error as Error).message}`,
      ),
    );
  }

  private handle(command: BusCommand): void {
    if (command.type === "task.create" && this.claim && !this.tasks.has(command.taskId)) {
      this.add(command.taskId, this.claim, command.taskId, command.title ? { title: command.title } : {});
      const task = this.tasks.get(command.taskId)!;
      // A local session file cannot move to the daemon; it opens as a new session instead.
      if (command.sessionFile) this.notice(task, "warn", "attached to a daemon: local sessions cannot be resumed here");
      this.follow(task);
      return;
    }
    const task = this.tasks.get(command.taskId);
    if (!task) return;
    switch (command.type) {
      case "task.open":
        this.follow(task);
        return;
      case "turn.interrupt":
        this.send(task, "stopping the turn", task.client.cancel(task.session, command.force ?? false));
        return;
      case "task.delete":
        if (this.claim)
          this.send(
            task,
            "deleting the session",
            task.client.remove(task.session).then(() => this.tasks.has(task.localId) && this.forget(task)),
          );
        else this.forget(task);
        return;
      case "task.create":
      case "mcp.restart":
        return;
      case "task.export":
        this.send(task, "export", this.export(task, command.format, command.path ?? null));
        return;
      case "permissions.remove":
        this.notice(task, "warn", "permission rules: not available for a remote task");
        return;
      default:
        if (command.type === "user.submit" && command.images && command.images.length > 0) {
          // The daemon cannot read this machine's files: the images go up first.
          this.follow(task);
          this.send(task, "sending the prompt with its images", this.submitWithImages(task, command));
          return;
        }
        if (SESSION_COMMANDS.has(command.type)) {
          this.follow(task);
          this.send(task, command.type, task.client.command(task.session, command));
        }
    }
  }

  /** A task's file before `turn` and now, read on its daemon. */
  async file(
    localId: string,
    turn: number,
    path: string,
  ): Promise<{ before: string | null | undefined; now: string | null }> {
    const task = this.tasks.get(localId);
    if (!task) throw new Error("not a remote task");
    const got = await task.client.file(task.session, path, turn);
    return { before: got.before, now: got.now };
  }

  /** Uploads the prompt's images (checked for size here, decoded there), then sends the prompt. */
  private async submitWithImages(
    task: RemoteTask,
    command: Extract<BusCommand, { type: "user.submit" }>,
  ): Promise<void> {
    const uploaded: string[] = [];
    for (const image of command.images ?? []) {
      const path = resolve(this.workspace, image);
      const size = (await stat(path).catch(() => null))?.size;
      if (size === undefined) throw new Error(`no such file: ${image}`);
      if (size > MAX_IMAGE_BYTES) throw new Error(`${image} is over 12 MB`);
      uploaded.push(await task.client.upload(task.session, basename(path), await readFile(path)));
    }
    await task.client.command(task.session, { ...command, images: uploaded });
  }

  /** Writes the daemon's copy of the session here, as /export does for a local task. */
  private async export(task: RemoteTask, format: "markdown" | "json", path: string | null): Promise<void> {
    const [detail, { exportTask }] = await Promise.all([
      task.client.detail(task.session),
      import("../session/export.js"),
    ]);
    const session = {
      version: 1 as const,
      id: detail.id,
      createdAt: detail.createdAt,
      updatedAt: detail.updatedAt,
      workspace: detail.workspace,
      model: detail.model,
      title: detail.title,
      messages: detail.messages,
    };
    const file = await exportTask(session, task.snapshot.title, format, path, this.workspace);
    this.notice(task, "info", `exported to ${file}`);
  }

  /** Attach mode: picks up sessions started elsewhere and the states of those not followed. */
  async refresh(): Promise<void> {
    if (!this.claim) return;
    let sessions: SessionInfo[];
    try {
      sessions = await this.claim.sessions();
    } catch {
      return;
    }
    // As attach lists them: the newest 100 and every running one.
    for (const info of sessions.filter((x, i) => i < 100 || x.running)) {
      const task = this.tasks.get(info.id);
      if (!task) this.add(info.id, this.claim, info.id, info);
      else if (!task.stream && (task.snapshot.status !== info.status || task.snapshot.title !== info.title)) {
        task.snapshot = { ...task.snapshot, status: info.status, title: info.title, updatedAt: info.updatedAt };
        this.emit(task, { type: "task.updated", taskId: task.localId, task: task.snapshot });
        if (info.running) this.follow(task);
      }
    }
  }

  /** Stops following (the daemon's turns go on). */
  close(): void {
    if (this.refresher) clearInterval(this.refresher);
    for (const task of this.tasks.values()) task.stream?.close();
  }
}
