// The registry does, once, what every tool would otherwise repeat: look up, parse, validate,
// authorise, run with a signal, cap the result and emit the lifecycle events.
import { jsonSchemaOf } from "./json-schema.js";
import { setMaxListeners } from "node:events";
import { log, redact } from "../config/log.js";
import type { BusEvent, ToolStatus } from "../protocol/events.js";
import type * as z from "../protocol/zod.js";
import { ABORT_GRACE_MS, DeadlineExceeded, KIND_DEADLINE_MS, settle, StopAbandoned } from "./deadline.js";
import {
  SandboxRefusal,
  ToolError,
  type AnyTool,
  type CommandSandbox,
  type EditorFiles,
  type SessionTools,
  type ToolOutput,
  type WebOptions,
} from "./define.js";
import type { WriteBoundary } from "./paths.js";
import { byteLength, clampResult, headBytes, MAX_RESULT_BYTES } from "./truncate.js";
import type { HookEvent } from "../config/hooks.js";
import { describeSystemError } from "./errno.js";
import { isSealed, type ToolGate } from "./gate-seal.js";

export type { AskingChild, GateDecision, ToolGate } from "./gate-seal.js";

/** One hook program's run, as the registry reports it in `hook.completed`. */
export interface HookRun {
  event: HookEvent;
  command: string;
  exitCode: number;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/**
 * Contract: PreToolUse / PostToolUse hooks around each call (hooks/hooks.ts's HookRunner). Declared
 * here, not imported, so tools do not depend on hooks, which build on tools' process helpers.
 * Neither method rejects.
 */
export interface ToolHooks {
  readonly size: number;
  pre(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ blocked: false; runs: HookRun[] } | { blocked: true; message: string; runs: HookRun[] }>;
  post(
    tool: string,
    args: Record<string, unknown>,
    result: { status: string; forModel: string },
    signal?: AbortSignal,
  ): Promise<{ warning?: string; runs: HookRun[] }>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** The raw JSON text the model sent. */
  arguments: string;
}

export interface ToolCallResult {
  status: ToolStatus;
  forModel: string;
  display: string;
}

export interface ExecuteEnv {
  workspace: string;
  taskId: string;
  agentId?: string;
  signal: AbortSignal;
  emit(event: BusEvent): void;
  /** The engine's gate (agent/gate.ts): every call waits for its sealed decision before it runs. */
  gate: ToolGate;
  boundary?: WriteBoundary;
  sandbox?: CommandSandbox;
  session?: SessionTools;
  web?: WebOptions;
  /** The editor's view of files (read_file's text), where a front end has one. */
  editorFiles?: EditorFiles;
  /** PreToolUse / PostToolUse hooks; none when absent. */
  hooks?: ToolHooks | null;
  /** File checkpoints around calls that may change files (see agent/checkpointing.ts). */
  checkpoint?: {
    /** Null, or why the call is refused (its changes could not be made undoable). */
    before(tool: AnyTool, args: Record<string, unknown>): Promise<string | null>;
    after(tool: AnyTool, args: Record<string, unknown>): Promise<void>;
  };
  /** After a forced stop, how long a tool gets to end by itself before nobody waits (default ABORT_GRACE_MS). */
  abortGraceMs?: number;
  /** The W3C traceparent of a call's span while telemetry is on (MCP requests carry it in `_meta`). */
  traceparent?: (callId: string) => string | undefined;
}

export { jsonSchemaOf };

export interface OpenAITool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

function describeIssues(issues: z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const key = issue.path.length ? issue.path.join(".") : "arguments";
      return `"${key}": ${issue.message}`;
    })
    .join("; ");
}

function abortedError(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && error.name === "AbortError");
}

/**
 * Tools that come and go while the program runs (MCP servers connecting, restarting, changing
 * their lists). Contract: `version` changes whenever `tools()` may return something else.
 */
export interface ToolSource {
  version(): number;
  tools(): AnyTool[];
}

/** JSON schemas by tool: built once per tool, not once per agent (a daemon builds many agents). */
const schemas = new WeakMap<AnyTool, Record<string, unknown>>();

export function schemaOf(tool: AnyTool): Record<string, unknown> {
  if (tool.inputSchema) return tool.inputSchema;
  let schema = schemas.get(tool);
  if (!schema) schemas.set(tool, (schema = jsonSchemaOf(tool.params)));
  return schema;
}

export class ToolRegistry {
  private readonly byName = new Map<string, AnyTool>();
  private readonly sources: ToolSource[];
  private specsCache: { key: string; specs: OpenAITool[] } | null = null;

  constructor(tools: AnyTool[], sources: ToolSource[] = []) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`duplicate tool ${tool.name}`);
      this.byName.set(tool.name, tool);
    }
    this.sources = sources;
  }

  /** Built-in tools first; a dynamic tool never shadows one. */
  private all(): AnyTool[] {
    if (this.sources.length === 0) return [...this.byName.values()];
    const dynamic = this.sources.flatMap((s) => s.tools()).filter((t) => !this.byName.has(t.name));
    return [...this.byName.values(), ...dynamic];
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name) ?? this.sources.flatMap((s) => s.tools()).find((t) => t.name === name);
  }

  names(): string[] {
    return this.all().map((t) => t.name);
  }

  /** The `tools` array for the chat completions request; rebuilt only when a source changed. */
  specs(): OpenAITool[] {
    const key = this.sources.map((s) => s.version()).join(",");
    if (this.specsCache?.key !== key) {
      const specs = this.all().map((tool) => ({
        type: "function" as const,
        function: { name: tool.name, description: tool.description, parameters: schemaOf(tool) },
      }));
      this.specsCache = { key, specs };
    }
    return this.specsCache.specs;
  }

  /** Parses and validates raw arguments; the error text is written for the model. */
  parseArgs(tool: AnyTool, raw: string): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
    let data: unknown;
    const text = raw.trim() === "" ? "{}" : raw;
    try {
      data = JSON.parse(text);
    } catch (error) {
      return {
        ok: false,
        error: `invalid arguments for ${tool.name}: not valid JSON (${(error as Error).message}). Send the arguments again as one JSON object.`,
      };
    }
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      return {
        ok: false,
        error: `invalid arguments for ${tool.name}: expected a JSON object, got ${Array.isArray(data) ? "an array" : JSON.stringify(data)}.`,
      };
    }
    const parsed = tool.params.safeParse(data);
    if (!parsed.success) {
      return {
        ok: false,
        error: `invalid arguments for ${tool.name}: ${describeIssues(parsed.error.issues)}. The schema is ${JSON.stringify(schemaOf(tool))}`,
      };
    }
    return { ok: true, args: parsed.data as Record<string, unknown> };
  }

  /**
   * Contract: never throws; every call yields exactly one tool.completed event and a result whose
   * `forModel` is at most 20 KB. tool.started is emitted only for calls that passed validation.
   */
  async execute(call: ToolCall, env: ExecuteEnv): Promise<ToolCallResult> {
    // The duration counts from tool.started: the time the question waited is the user's, not the tool's.
    let started: number | null = null;
    let waitedMs: number | undefined;
    // The gate's decision and a sandbox refusal, for observers (tool.completed's `gate`, `sandbox`).
    let gate: "allowed" | "approved" | "refused" | "denied" | undefined;
    let sandboxRefused = false;
    // Once the arguments are valid: what a card needs when the call never starts (a denied command still shows).
    let notStarted: { kind: AnyTool["kind"]; summary: string; args: Record<string, unknown> } | null = null;
    const ids = { taskId: env.taskId, ...(env.agentId ? { agentId: env.agentId } : {}) };
    // Known once the arguments are valid; a denied call's card keeps it (and its kind).
    let summary: string | undefined;
    const finish = (
      status: ToolStatus,
      rawForModel: string,
      rawDisplay: string,
      tool?: AnyTool,
      rawWarning?: string,
    ): ToolCallResult => {
      // Known secrets never leave a tool: not to the model, the session, the events or the screen.
      const forModel = redact(rawForModel);
      const display = redact(rawDisplay);
      // A hook's warning is kept whole at the end, however much of the result had to be cut.
      const warning = rawWarning ? `\n\n[warning] ${headBytes(redact(rawWarning), 4_096)}` : "";
      const room = MAX_RESULT_BYTES - byteLength(warning);
      const capped =
        clampResult(forModel, {
          maxBytes: room,
          strategy: tool?.truncate ?? "head",
          ...(tool?.moreHint ? { hint: tool.moreHint } : {}),
        }) + warning;
      env.emit({
        type: "tool.completed",
        ...ids,
        callId: call.id,
        name: call.name,
        status,
        forModel: capped,
        display,
        durationMs: started === null ? 0 : Math.round(performance.now() - started),
        ...(waitedMs !== undefined ? { waitedMs } : {}),
        ...(gate ? { gate } : {}),
        ...(sandboxRefused ? { sandbox: "refused" as const } : {}),
        ...(tool ? { kind: tool.kind } : notStarted ? { kind: notStarted.kind } : {}),
        ...(summary !== undefined
          ? { summary: redact(summary) }
          : notStarted
            ? { summary: redact(notStarted.summary) }
            : {}),
        ...(started === null && notStarted ? { args: notStarted.args } : {}),
      });
      return { status, forModel: capped, display };
    };

    // A tool's expected failure; the boundary's and the sandbox's refusals are told to observers too.
    const failed = (error: ToolError, tool: AnyTool): ToolCallResult => {
      if (error instanceof SandboxRefusal) {
        sandboxRefused = true;
        env.emit({
          type: "sandbox.refused",
          ...ids,
          callId: call.id,
          tool: tool.name,
          cause: error.refusal,
          reason: redact(error.message),
        });
      }
      return finish("error", error.message, error.message, tool);
    };
    const tool = this.get(call.name);
    if (!tool) {
      const known = this.names().join(", ");
      return finish("error", `unknown tool "${call.name}". Available tools: ${known}.`, `unknown tool ${call.name}`);
    }
    const parsed = this.parseArgs(tool, call.arguments);
    if (!parsed.ok) return finish("error", parsed.error, "invalid arguments", tool);

    const args = parsed.args;
    try {
      summary = tool.summarize(args);
    } catch {
      summary = "";
    }
    notStarted = { kind: tool.kind, summary, args };
    // A call that is bound to fail (an edit whose text is not in the file) fails before anyone is asked.
    if (tool.precheck) {
      try {
        await tool.precheck(args, {
          workspace: env.workspace,
          signal: env.signal,
          ...(env.boundary ? { boundary: env.boundary } : {}),
          // An edit is checked against the text it will apply to: the editor's, where it has one.
          ...(env.editorFiles ? { editorFiles: env.editorFiles } : {}),
        });
      } catch (error) {
        if (error instanceof ToolError) return failed(error, tool);
        const system = describeSystemError(error);
        if (system) return finish("error", system, system, tool);
        // A pre-check that trips over itself decides nothing: the call goes on and `run` decides.
        log("warn", `precheck of ${tool.name} threw`, error);
      }
    }
    const hookRuns = (runs: HookRun[], outcome: "blocked" | "warned") =>
      runs.forEach((run, i) =>
        env.emit({
          type: "hook.completed",
          ...ids,
          callId: call.id,
          tool: tool.name,
          event: run.event,
          command: run.command,
          exitCode: run.exitCode,
          outcome: run.exitCode === 0 ? "passed" : i === runs.length - 1 || outcome === "warned" ? outcome : "passed",
          output: redact([run.stdout.trim(), run.stderr.trim()].filter(Boolean).join("\n")),
          durationMs: run.durationMs,
        }),
      );
    // A PreToolUse hook sees the call before the user is asked: if it blocks, nobody needs to be.
    if (env.hooks?.size) {
      const pre = await env.hooks.pre(tool.name, args, env.signal);
      hookRuns(pre.runs, "blocked");
      if (pre.blocked) return finish("denied", pre.message, `blocked by a PreToolUse hook`, tool);
    }
    let runArgs = args;
    const asked = performance.now();
    const verdict = await env.gate.authorize(tool, args, call);
    // Nothing runs on a decision the gate did not make: a front end cannot wave a call through.
    if (!isSealed(verdict)) {
      log("error", `tool ${tool.name}: a decision that is not the gate's was refused`);
      const why = "refused: this call was not decided by the approval gate";
      return finish("denied", why, why, tool);
    }
    if (verdict.asked) waitedMs = Math.round(performance.now() - asked);
    gate = verdict.allow ? (verdict.asked ? "approved" : "allowed") : verdict.asked ? "denied" : "refused";
    if (!verdict.allow) return finish("denied", verdict.reason, `denied: ${verdict.reason}`, tool);
    if (verdict.args) runArgs = verdict.args;
    env.emit({ type: "tool.started", ...ids, callId: call.id, name: tool.name, kind: tool.kind, args, summary });
    started = performance.now();
    if (env.signal.aborted)
      return finish("aborted", "[interrupted] the user stopped the turn before this tool ran", "interrupted", tool);

    const refused = await env.checkpoint?.before(tool, runArgs);
    if (refused) return finish("error", refused, "refused: no checkpoint could be kept", tool);
    // The tool's own signal: the forced stop, or this call's deadline.
    const controller = new AbortController();
    // Every running call of a step (and each subagent's) listens on the one stop signal; the
    // listeners are removed when the call ends, so many at once are expected, not a leak.
    setMaxListeners(0, env.signal);
    const forward = () => controller.abort(env.signal.reason);
    if (env.signal.aborted) forward();
    else env.signal.addEventListener("abort", forward, { once: true });
    const deadlineMs = deadlineOf(tool, runArgs);
    try {
      // A forced stop while the checkpoint was taken: the tool does not start at all.
      if (env.signal.aborted)
        return finish("aborted", "[interrupted] the user stopped the turn before this tool ran", "interrupted", tool);
      const traceparent = env.traceparent?.(call.id);
      const work = tool.run(runArgs, {
        workspace: env.workspace,
        callId: call.id,
        ...(traceparent ? { traceparent } : {}),
        signal: controller.signal,
        output: (stream, chunk) =>
          env.emit({ type: "tool.output", ...ids, callId: call.id, stream, chunk: redact(chunk) }),
        ...(env.boundary ? { boundary: env.boundary } : {}),
        ...(env.sandbox ? { sandbox: env.sandbox } : {}),
        ...(env.session ? { session: env.session } : {}),
        ...(env.web ? { web: env.web } : {}),
        ...(env.editorFiles ? { editorFiles: env.editorFiles } : {}),
        ...(runArgs !== args ? { asAsked: args } : {}),
      });
      const out = await settle(work, {
        deadlineMs,
        graceMs: env.abortGraceMs ?? ABORT_GRACE_MS,
        stop: env.signal,
        controller,
      });
      const result: ToolOutput = typeof out === "string" ? { forModel: out } : out;
      if (env.signal.aborted) {
        return finish("aborted", `[interrupted]\n${result.forModel}`, "interrupted", tool);
      }
      const display = result.display ?? firstLine(result.forModel);
      const status = result.isError ? "error" : "ok";
      if (env.hooks?.size) {
        // What happened cannot be undone: a failing PostToolUse hook can only warn the model.
        const post = await env.hooks.post(tool.name, args, { status, forModel: result.forModel }, env.signal);
        hookRuns(post.runs, "warned");
        if (post.warning) return finish(status, result.forModel, `${display} (hook warning)`, tool, post.warning);
      }
      return finish(status, result.forModel, display, tool);
    } catch (error) {
      if (error instanceof DeadlineExceeded) {
        const what = `${tool.name} gave no result within ${Math.round(error.ms / 1000)} s; it was stopped (anything it started may still finish in the background)`;
        return finish(
          "error",
          `${what}. Try a smaller step, or check why it waits (a FIFO, a device, a server that does not answer).`,
          `no result within ${Math.round(error.ms / 1000)} s`,
          tool,
        );
      }
      if (error instanceof StopAbandoned) {
        return finish(
          "aborted",
          `[interrupted] the user stopped this tool; ${error.message}, so the turn went on without its result`,
          "interrupted",
          tool,
        );
      }
      if (abortedError(error, env.signal)) {
        const why = error instanceof ToolError ? ` (${error.message})` : "";
        return finish("aborted", `[interrupted] the user stopped this tool${why}`, "interrupted", tool);
      }
      if (error instanceof ToolError) return failed(error, tool);
      const system = describeSystemError(error);
      if (system) return finish("error", system, system, tool);
      log("error", `tool ${tool.name} threw`, error);
      const message = error instanceof Error ? error.message : String(error);
      return finish("error", `internal error in ${tool.name}: ${message}`, `internal error: ${message}`, tool);
    } finally {
      env.signal.removeEventListener("abort", forward);
      // Whatever the outcome, what the call changed is recorded (a failed command may still write).
      await env.checkpoint?.after(tool, runArgs);
    }
  }
}

/** A call's deadline: the tool's own, else its kind's; a tool whose own rule throws gets the kind's. */
function deadlineOf(tool: AnyTool, args: Record<string, unknown>): number {
  try {
    const own = tool.deadlineMs?.(args);
    if (own !== undefined && Number.isFinite(own) && own > 0) return own;
  } catch {
    // fall through to the kind's default
  }
  return KIND_DEADLINE_MS[tool.kind];
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
