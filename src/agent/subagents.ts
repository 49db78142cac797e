// Delegation for one task: the `subagent` and `agent_list` tools, the board of children
// (`agent-N`), the counting gate that lets at most four run at once, and stopping them.
import type { BusEvent, EventOf } from "../protocol/events.js";
import * as z from "../protocol/zod.js";
import { defineTool, ToolError, type AnyTool } from "../tools/define.js";
import {
  DEFAULT_MAX_DEPTH,
  MAX_PARALLEL_SUBAGENTS,
  type SubagentDef,
  type SubagentsConfig,
} from "../config/subagents.js";
import type { TurnResult } from "./agent.js";
import { addUsage } from "./providers/usage.js";

export type BoardRow = EventOf<"subagent.updated">["row"];
export const RESULT_PREVIEW = 500;
/** How often a streaming child may refresh its row just to say it is alive. */
const ACTIVITY_EVERY_MS = 1_000;

/**
 * The first `max` characters of `text` with whitespace flattened, cut between code points (never
 * inside a surrogate pair, so never inside a character), with `…` when cut.
 */
export function preview(text: string, max = RESULT_PREVIEW): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join("")}…`;
}

/**
 * A counting semaphore with a FIFO queue. Contract: `acquire` resolves with a release function
 * (idempotent) once a slot is free, or rejects when `signal` aborts while waiting.
 */
export class Gate {
  private active = 0;
  private readonly waiting: { grant: () => void; signal: AbortSignal | undefined }[] = [];

  constructor(readonly limit: number) {}

  get running(): number {
    return this.active;
  }

  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new Error("stopped"));
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        this.active++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.active--;
          this.waiting.shift()?.grant();
        });
      };
      const entry = { grant, signal };
      const onAbort = () => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error("stopped"));
      };
      if (this.active < this.limit) grant();
      else {
        this.waiting.push(entry);
        signal?.addEventListener("abort", onAbort, { once: true });
      }
    });
  }
}

/** What the runtime needs of a child it starts: run one task, stop, and report its events. */
export interface ChildAgent {
  run(task: string): Promise<TurnResult>;
  stop(options?: { force?: boolean }): void;
  close(): Promise<void>;
}

export interface SpawnRequest {
  name: string;
  def: SubagentDef;
  agentId: string;
  depth: number;
  /** The `subagent` call that delegated: the child's events carry it as parentCallId. */
  parentCallId?: string;
  /** The child's events pass through here (they carry its agentId) before reaching the bus. */
  observe(event: BusEvent): void;
  /** The child asks for approval / got an answer: its row shows it. */
  waiting(on: boolean): void;
}

export interface SubagentsOptions {
  config: SubagentsConfig;
  taskId: string;
  emit(event: BusEvent): void;
  spawn(request: SpawnRequest): ChildAgent;
  now?: () => number;
}

interface Child {
  row: BoardRow;
  agent: ChildAgent | null;
  stop: AbortController;
  startedMs: number | null;
  lastEmit: number;
  /** Edits under way (call id -> path): a file counts once its edit succeeded. */
  editing: Map<string, string>;
}

/** Contract: one per task; every row change is emitted as `subagent.updated` with the task's id. */
export class Subagents {
  private next = 1;
  private readonly children = new Map<string, Child>();
  private readonly gates: Gate[] = [];
  private readonly now: () => number;

  constructor(private readonly opts: SubagentsOptions) {
    this.now = opts.now ?? Date.now;
  }

  get limit(): number {
    return Math.min(MAX_PARALLEL_SUBAGENTS, this.opts.config.max_parallel ?? MAX_PARALLEL_SUBAGENTS);
  }

  get maxDepth(): number {
    return this.opts.config.max_depth ?? DEFAULT_MAX_DEPTH;
  }

  rows(): BoardRow[] {
    return [...this.children.values()].map((c) => this.withDuration(c));
  }

  private withDuration(child: Child): BoardRow {
    if (child.startedMs === null || child.row.endedAt !== null) return child.row;
    return { ...child.row, durationMs: this.now() - child.startedMs };
  }

  private gate(depth: number): Gate {
    // One gate per depth: a child holding a slot while it waits for its own children cannot
    // starve them of slots.
    return (this.gates[depth] ??= new Gate(this.limit));
  }

  private update(child: Child, change: Partial<BoardRow>, force = true): void {
    child.row = { ...child.row, ...change, lastActivityAt: new Date(this.now()).toISOString() };
    const now = this.now();
    if (!force && now - child.lastEmit < ACTIVITY_EVERY_MS) return;
    child.lastEmit = now;
    this.opts.emit({ type: "subagent.updated", taskId: this.opts.taskId, row: this.withDuration(child) });
  }

  /** Stops one child (or all): queued ones never start, running ones stop at their next step boundary. */
  stop(agentId?: string, options: { force?: boolean } = {}): boolean {
    const targets = agentId
      ? [this.children.get(agentId)].filter((c): c is Child => c !== undefined)
      : [...this.children.values()];
    let any = false;
    for (const child of targets) {
      if (child.row.endedAt !== null) continue;
      any = true;
      child.stop.abort();
      child.agent?.stop(options);
    }
    return any;
  }

  /** The board as `agent_list` shows it to the model. */
  describe(): string {
    const rows = this.rows();
    if (rows.length === 0) return "no subagents have been started in this task";
    return rows
      .map((r) => {
        const secs = (r.durationMs / 1000).toFixed(1);
        const head = `${r.id}  ${r.status.padEnd(7)}  ${secs.padStart(6)} s  ${r.name}: ${r.task.split("\n", 1)[0]!.slice(0, 120)}`;
        return r.preview ? `${head}\n    ${r.preview}` : head;
      })
      .join("\n");
  }

  /** Runs one delegation to its end; what the `subagent` tool returns to the model. */
  async delegate(
    name: string,
    task: string,
    depth: number,
    signal: AbortSignal,
    parentCallId?: string,
  ): Promise<{ text: string; ok: boolean; id: string }> {
    const def = this.opts.config.agents[name];
    if (!def)
      throw new ToolError(
        `unknown agent "${name}"; configured agents: ${Object.keys(this.opts.config.agents).join(", ")}`,
      );
    const id = `agent-${this.next++}`;
    const iso = new Date(this.now()).toISOString();
    const child: Child = {
      row: {
        id,
        name,
        task,
        status: "queued",
        durationMs: 0,
        preview: "",
        depth,
        startedAt: null,
        endedAt: null,
        lastActivityAt: iso,
        tool: null,
        usage: { prompt: 0, completion: 0 },
        files: [],
      },
      agent: null,
      stop: new AbortController(),
      startedMs: null,
      lastEmit: 0,
      editing: new Map(),
    };
    this.children.set(id, child);
    this.update(child, {});
    const onForce = () => this.stop(id, { force: true });
    signal.addEventListener("abort", onForce, { once: true });
    let release: (() => void) | null = null;
    try {
      try {
        release = await this.gate(depth).acquire(child.stop.signal);
      } catch {
        this.finish(child, "stopped", "");
        return { id, ok: false, text: `[stopped] ${id} (${name}) was stopped before it started` };
      }
      child.startedMs = this.now();
      const agent = this.opts.spawn({
        name,
        def,
        agentId: id,
        depth,
        ...(parentCallId ? { parentCallId } : {}),
        observe: (event) => this.observe(child, event),
        waiting: (on) => this.update(child, { status: on ? "waiting" : "running" }),
      });
      child.agent = agent;
      this.update(child, { status: "running", startedAt: new Date(child.startedMs).toISOString() });
      if (child.stop.signal.aborted) agent.stop();
      let result: TurnResult;
      try {
        result = await agent.run(task);
      } finally {
        await agent.close();
      }
      if (result.reason === "completed") {
        this.finish(child, "done", result.response);
        return { id, ok: true, text: result.response || "(the subagent finished without a final answer)" };
      }
      if (result.reason === "interrupted") {
        this.finish(child, "stopped", result.response);
        return {
          id,
          ok: false,
          text: `[stopped] ${id} (${name}) was stopped before finishing${result.response ? `; its last words: ${result.response}` : ""}`,
        };
      }
      const why = result.error ?? result.reason;
      this.finish(child, "failed", why);
      return {
        id,
        ok: false,
        text: `${id} (${name}) failed: ${why}${result.response ? `\nits last answer: ${result.response}` : ""}`,
      };
    } finally {
      release?.();
      signal.removeEventListener("abort", onForce);
    }
  }

  private finish(child: Child, status: "done" | "failed" | "stopped", text: string): void {
    const end = this.now();
    const durationMs = child.startedMs === null ? 0 : end - child.startedMs;
    this.update(child, {
      status,
      preview: preview(text),
      endedAt: new Date(end).toISOString(),
      durationMs,
      tool: null,
    });
  }

  /** Keeps a child's row current from its own events: tool, tokens, files, liveness. */
  private observe(child: Child, event: BusEvent): void {
    switch (event.type) {
      case "tool.started": {
        const path = (event.args as { path?: unknown } | null)?.path;
        if (event.kind === "edit" && typeof path === "string") child.editing.set(event.callId, path);
        this.update(child, { tool: { name: event.name, summary: event.summary } });
        return;
      }
      case "tool.completed": {
        // Only an edit that was made counts as a file the child touched.
        const path = child.editing.get(event.callId);
        child.editing.delete(event.callId);
        const files =
          event.status === "ok" && path !== undefined && !child.row.files.includes(path)
            ? [...child.row.files, path]
            : child.row.files;
        this.update(child, { tool: null, files });
        return;
      }
      case "usage.updated":
        this.update(child, { usage: addUsage({ ...child.row.usage }, event) });
        return;
      default:
        this.update(child, {}, false);
    }
  }

  /** The tools a model at `depth` gets: delegating only while deeper children are allowed. */
  tools(depth: number): AnyTool[] {
    if (depth >= this.maxDepth) return [];
    const names = Object.entries(this.opts.config.agents)
      .map(([name, def]) => `${name}${def.description ? ` (${def.description})` : ""}`)
      .join("; ");
    const subagent = defineTool({
      name: "subagent",
      kind: "agent",
      description:
        `Delegate a self-contained task to a subagent and get its final answer. Agents: ${names}. ` +
        `The child starts with no memory of this conversation: put everything it needs in the task. ` +
        `Several subagent calls in one step run in parallel (at most ${this.limit} at once; the rest wait).`,
      params: z.object({
        agent: z.string().check(z.minLength(1), z.describe("The agent's name.")),
        task: z.string().check(z.minLength(1), z.describe("The complete task, with the context the child needs.")),
      }),
      summarize: (a) => `${a.agent}: ${a.task.split("\n", 1)[0]!.slice(0, 80)}`,
      run: async (args, ctx) => {
        const result = await this.delegate(args.agent, args.task, depth + 1, ctx.signal, ctx.callId);
        return {
          forModel: result.text,
          display: `${result.id} ${result.ok ? "done" : "did not finish"}: ${preview(result.text, 80)}`,
          ...(result.ok ? {} : { isError: true }),
        };
      },
    });
    const agentList = defineTool({
      name: "agent_list",
      kind: "agent",
      description:
        "Show the subagent board of this task: id, status, duration, agent and task, and a preview of each result.",
      params: z.object({}),
      summarize: () => "",
      run: async () => this.describe(),
    });
    return [subagent, agentList];
  }
}
