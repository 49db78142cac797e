// Who else holds a task's session: a task whose session another live process has open (a second
// UI, the daemon, a one-shot run) says so as soon as it is added or opened, not after a prompt
// waited 3 s for the lock; it is looked at again every second until that process lets go, so the
// task can say it is free. A prompt refused meanwhile is given back to the front end.
import { log } from "../config/log.js";
import type { BusEvent, TaskSnapshot } from "../protocol/events.js";
import { describeHolder, SessionBusyError, type SessionHolder, sessionHolder } from "../session/session-lock.js";
import type { Agent } from "./agent.js";
import type { Task } from "./task-state.js";

export type HeldBy = NonNullable<TaskSnapshot["heldBy"]>;

/** How often a held session is looked at again. */
const LOOK_MS = 1_000;

/** What to do about a session `holder` has, in the user's words. */
function advice(holder: SessionHolder): string {
  switch (holder.role) {
    case "daemon":
      return "send your prompt through it (nanohermes attach), or here once it lets the session go (it does after 10 idle minutes, or when it stops)";
    case "run":
      return "send once that run has finished";
    default:
      return "close the session there (quit, or /new there) and send here";
  }
}

export function heldByOf(holder: SessionHolder): HeldBy {
  return {
    pid: holder.pid,
    host: holder.host,
    role: holder.role,
    text: `this session is open in ${describeHolder(holder)}: ${advice(holder)}`,
  };
}

const same = (a: HeldBy | undefined, b: HeldBy | undefined) =>
  a?.pid === b?.pid && a?.host === b?.host && a?.role === b?.role;

/**
 * Contract: looks at who holds `task`'s session now and then every second while another process
 * does, calling `changed` whenever that changes (task.heldBy set, or cleared when it let go). A
 * task whose agent this process has loaded holds the lock itself: nothing to look at. One watch
 * per task; it ends when the session is free, the agent is loaded, or `gone()` says the task was
 * removed. Never rejects.
 */
export function watchHolder(task: Task, changed: (task: Task) => void, gone: () => boolean): void {
  if (task.watchingHolder) return;
  task.watchingHolder = true;
  const look = async (): Promise<void> => {
    const holder = task.agent || gone() ? null : await sessionHolder(task.sessionFile);
    const now = holder ? heldByOf(holder) : undefined;
    if (!same(task.heldBy, now)) {
      if (now) task.heldBy = now;
      else delete task.heldBy;
      if (!gone()) changed(task);
    }
    if (task.heldBy && !gone()) setTimeout(() => void look(), LOOK_MS).unref();
    else task.watchingHolder = false;
  };
  void look();
}

/** The task manager's side: what it tells the bus about a held session. */
export class SessionHolders {
  constructor(
    private readonly host: {
      emit: (event: BusEvent) => void;
      changed: (task: Task) => void;
      /** The task was removed: its watch ends. */
      gone: (task: Task) => boolean;
    },
  ) {}

  /** Says who else holds the task's session (task.updated's heldBy and a notice), and when it is free again. */
  watch(task: Task): void {
    watchHolder(
      task,
      (t) => {
        this.host.changed(t);
        const text = t.heldBy
          ? `${t.heldBy.text}; what you type here stays in the input until then (Ctrl-N starts a new task)`
          : "this session is free now: a prompt sent here runs";
        this.host.emit({ type: "notice", taskId: t.id, level: t.heldBy ? "warn" : "info", text });
      },
      () => this.host.gone(task),
    );
  }

  /** Loads the task's session unless another process holds it (then says so, without waiting for the lock). Never rejects. */
  async open(task: Task, load: () => Promise<Agent>): Promise<void> {
    if (task.heldBy || (await sessionHolder(task.sessionFile))) {
      this.watch(task);
      return;
    }
    await load().catch((error: unknown) => {
      if (error instanceof SessionBusyError) this.watch(task);
      else log("warn", `opening task ${task.id}`, error);
    });
  }

  /** A prompt not run because another process holds the session: back to the front end (prompt.refused), with why. */
  refuse(task: Task, text: string, error: SessionBusyError): void {
    if (error.holder) task.heldBy = heldByOf(error.holder);
    const reason = task.heldBy?.text ?? error.message;
    this.host.emit({ type: "prompt.refused", taskId: task.id, text, reason });
    this.host.emit({ type: "notice", taskId: task.id, level: "error", text: `not sent: ${reason}` });
    this.host.changed(task);
    this.watch(task);
  }
}
