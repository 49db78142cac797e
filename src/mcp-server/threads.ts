// The MCP server's threads: each a task of its own TaskManager (the engine's gate and turn loop,
// driven by bus commands), in its own workspace, with the model, approval policy and sandbox the
// call asked for (read-only unless it said otherwise). Threads run side by side; one turn per
// thread at a time. A question the gate would ask goes to `ask` (the client's elicitation) or,
// with nobody to ask, is refused with the reason.
import { relative } from "node:path";
import type { Answer, Asker, Question } from "../agent/gate.js";
import type { Extensions } from "../agent/extensions.js";
import { loadExtensions, noExtensions } from "../agent/extensions.js";
import type { ModelClient } from "../agent/model-client.js";
import { TaskManager } from "../agent/tasks.js";
import { missingCredentials, setupHint } from "../config/credentials.js";
import type { Flags } from "../config/flags.js";
import { loadSettings } from "../config/load.js";
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import { Bus } from "../protocol/bus.js";
import type { ApprovalPolicy, BusEvent, EventOf, TurnEndReason } from "../protocol/events.js";
import { newSessionId, sessionFileFor } from "../session/store.js";
import { observe, type Observers } from "../telemetry/observers.js";

/** What a call may choose for a new thread. */
export interface RunOptions {
  cwd: string;
  model?: string;
  approval?: ApprovalPolicy;
  sandbox?: "read-only" | "workspace-write";
}

export interface TurnResult {
  threadId: string;
  response: string;
  reason: TurnEndReason;
  error?: string;
  /** Files the turn created, changed or removed, relative to the thread's workspace. */
  changedFiles: string[];
  usage: { prompt: number; completion: number };
}

export interface ThreadStatus {
  threadId: string;
  running: boolean;
  cwd: string;
  model: string;
  approval: ApprovalPolicy;
  sandbox: string;
  turns: number;
  lastResponse: string | null;
  usage: { prompt: number; completion: number };
}

/** A call that cannot be served as it stands (unknown thread, a turn already running): a JSON-RPC error. */
export class ThreadError extends Error {}

/** One line of progress for the client (an MCP progress notification), or null for events it need not see. */
export function progressLine(event: BusEvent): string | null {
  if (event.agentId !== undefined) return null;
  switch (event.type) {
    case "step.started":
      return `step ${event.step}`;
    case "tool.started":
      return `${event.name}: ${event.summary}`;
    case "tool.completed":
      return event.status === "ok" ? null : `${event.name} ${event.status}: ${event.forModel.split("\n", 1)[0]}`;
    case "notice":
      return event.level === "info" ? null : `${event.level}: ${event.text}`;
    default:
      return null;
  }
}

interface Thread {
  id: string;
  settings: Settings;
  bus: Bus;
  manager: TaskManager;
  extensions: Promise<Extensions>;
  turns: number;
  lastResponse: string | null;
  usage: { prompt: number; completion: number };
}

export interface ThreadsOptions {
  flags: Flags;
  env: NodeJS.ProcessEnv;
  /** The client, asked by elicitation where it offers it; elsewhere nobody, and what would ask is refused. */
  asker: Asker;
  modelClient?: ModelClient;
  /** OpenTelemetry and the telemetry file (issue 32), watching every thread's bus. */
  observers?: Observers | null;
}

export class Threads {
  private readonly threads = new Map<string, Thread>();

  constructor(private readonly opts: ThreadsOptions) {}

  /** A new thread in `cwd`. Contract: throws (ConfigError, UsageError, ThreadError) for a bad folder, config or key. */
  create(run: RunOptions): string {
    const flags: Flags = { ...this.opts.flags, values: { ...this.opts.flags.values, cwd: run.cwd } };
    const loaded = loadSettings({ flags, env: this.opts.env });
    if (!this.opts.modelClient && missingCredentials(loaded)) throw new ThreadError(setupHint(loaded).join(" "));
    const settings: Settings = {
      ...loaded,
      ...(run.model ? { model: run.model } : {}),
      sandbox: { ...loaded.sandbox, mode: run.sandbox ?? "read-only" },
    };
    const id = newSessionId();
    const bus = new Bus({ onHandlerError: (error) => log("error", "mcp-server: bus handler threw", error) });
    const extensions = loadExtensions(settings, { emit: () => {}, env: this.opts.env }).catch(() => noExtensions());
    const asker = this.opts.asker;
    const traced = observe(this.opts.observers ?? null, bus);
    const manager = new TaskManager({
      ...traced,
      settings,
      bus,
      interactive: () => asker.present(),
      approval: run.approval ?? settings.approval ?? "on-request",
      mode: settings.mode,
      extensions,
      ...(this.opts.modelClient ? { client: this.opts.modelClient } : {}),
    });
    manager.add(id, { sessionFile: sessionFileFor(settings.sessionDir, id) });
    bus.subscribe((event) => {
      if (event.type === "approval.requested") void this.answer(bus, event, asker);
    });
    const thread: Thread = {
      id,
      settings,
      bus,
      manager,
      extensions,
      turns: 0,
      lastResponse: null,
      usage: { prompt: 0, completion: 0 },
    };
    this.threads.set(id, thread);
    return id;
  }

  /** The gate's question, put to the client; its answer goes back as the approval.reply the gate awaits. */
  private async answer(bus: Bus, q: EventOf<"approval.requested">, asker: Asker): Promise<void> {
    const { type: _type, taskId, requestId, ...question } = q;
    let answer: Answer;
    try {
      answer = await asker.ask(question as Question);
    } catch (error) {
      log("warn", "mcp-server: an elicitation failed", error);
      answer = { decision: "deny", reason: "the question could not be asked" };
    }
    bus.send({
      type: "approval.reply",
      taskId,
      requestId,
      decision: answer.decision,
      ...(answer.decision === "always" ? { scope: answer.scope } : {}),
      ...(answer.decision === "deny" ? { note: answer.reason } : {}),
    });
  }

  private get(id: string): Thread {
    const thread = this.threads.get(id);
    if (!thread) throw new ThreadError(`no thread ${id} (threads live as long as this server process)`);
    return thread;
  }

  /**
   * One turn of `prompt` on the thread, to its end. `progress` gets one line per step and tool;
   * `signal` (the client cancelled the call) stops the turn at its next step boundary.
   */
  async turn(id: string, prompt: string, progress: (line: string) => void, signal?: AbortSignal): Promise<TurnResult> {
    const thread = this.get(id);
    if (thread.manager.isRunning(id))
      throw new ThreadError(`thread ${id} is running a turn: wait for it, or cancel it`);
    let completed: EventOf<"turn.completed"> | null = null;
    let failure: string | null = null;
    let changed: string[] = [];
    const off = thread.bus.subscribe((event) => {
      if (event.taskId !== id) return;
      if (event.type === "turn.completed" && event.agentId === undefined) completed ??= event;
      if (event.type === "notice" && event.level === "error") failure ??= event.text;
      if (event.type === "checkpoints.updated") {
        const latest = event.turns.reduce(
          (a, b) => (b.turn > a.turn ? b : a),
          event.turns[0] ?? { turn: 0, changes: [] },
        );
        if (latest.turn === thread.turns + 1)
          changed = latest.changes.map((c) => relative(thread.settings.workspace, c.path));
      }
      const line = progressLine(event);
      if (line) progress(line);
    });
    const stop = () => thread.bus.send({ type: "turn.interrupt", taskId: id });
    signal?.addEventListener("abort", stop);
    try {
      await thread.manager.agentFor(id);
      thread.bus.send({ type: "user.submit", taskId: id, text: prompt });
      const running = thread.manager.turn(id);
      if (!running) throw new ThreadError(failure ?? "the turn did not start");
      await running;
    } finally {
      off();
      signal?.removeEventListener("abort", stop);
    }
    const done = completed as EventOf<"turn.completed"> | null;
    if (!done) throw new Error(failure ?? "the turn ended without a result");
    thread.turns++;
    thread.lastResponse = done.response;
    thread.usage.prompt += done.usage.prompt;
    thread.usage.completion += done.usage.completion;
    return {
      threadId: id,
      response: done.response,
      reason: done.reason,
      ...(done.error ? { error: done.error } : {}),
      changedFiles: changed,
      usage: { prompt: done.usage.prompt, completion: done.usage.completion },
    };
  }

  status(id: string): ThreadStatus {
    const thread = this.get(id);
    const snapshot = thread.manager.snapshotOf(id);
    return {
      threadId: id,
      running: thread.manager.isRunning(id),
      cwd: thread.settings.workspace,
      model: snapshot?.model ?? thread.settings.model,
      approval: snapshot?.approval ?? "on-request",
      sandbox: thread.settings.sandbox.mode,
      turns: thread.turns,
      lastResponse: thread.lastResponse,
      usage: { ...thread.usage },
    };
  }

  /** Stops the thread's turn at its next step boundary; false when none runs. */
  cancel(id: string): boolean {
    const thread = this.get(id);
    if (!thread.manager.isRunning(id)) return false;
    thread.bus.send({ type: "turn.interrupt", taskId: id });
    return true;
  }

  /** Stops every turn, saves every thread's session, stops their MCP servers. */
  async closeAll(): Promise<void> {
    await Promise.all(
      [...this.threads.values()].map(async (t) => {
        await t.manager.shutdown();
        await (await t.extensions).close();
      }),
    );
    this.threads.clear();
  }
}
