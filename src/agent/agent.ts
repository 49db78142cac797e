// The engine: runs a user turn as model round trips and parallel tool calls, stops only at step
// boundaries, and keeps the history valid (every assistant tool call has its result) whatever happens.
import { log, redact } from "../config/log.js";
import type { BusEvent, TurnEndReason } from "../protocol/events.js";
import type { AgentOptions, TurnResult } from "./agent-types.js";
import { contentText, type ChatMessage, type ContentPart } from "../protocol/messages.js";
import type { SessionTools } from "../tools/define.js";
import type { Subagents } from "./subagents.js";
import { compact, contextChars, CONTEXT_CHAR_BUDGET, needsCompaction, type CompactionResult } from "./compaction.js";
import {
  checkpointHooks,
  isPrompt,
  promptsByTurn,
  rewindSession,
  type CheckpointHooks,
  type RewindOutcome,
} from "./checkpointing.js";
import type { SessionData } from "../session/store.js";
import { completeWithRetry, describeFailure } from "./retry.js";
import { SessionWriter } from "./session-writer.js";
import { seconds } from "./watchdog.js";
import { recordReply } from "./reply-history.js";
import { applyCompaction, dropLastTurns, dropMemoryBlocks } from "./history-edit.js";
import { dropLastHistoryTurns, HistoryRecorder, settleRunning } from "./history-recorder.js";
import { historyForView } from "../session/history-view.js";
import type { HistoryItem } from "../protocol/history.js";
import { repairToolPairs } from "../session/repair.js";
import { mapLimit } from "./map-limit.js";
import { addUsage, usageEvent, type UsageTotals } from "./providers/usage.js";
import type { ExecuteEnv, ToolCallResult } from "../tools/registry.js";
import { SHELL_CALL_PREFIX, shellNote } from "./shell-mode.js";

/**
 * Tool calls of one step that run at once; the rest wait their turn (a model asking for 300
 * commands at once must not start 300 processes). Claude Code's default is 10 as well.
 */
export const TOOL_CONCURRENCY = 10;

export type { AgentOptions, AgentSettings, MemoryHooks, TurnResult } from "./agent-types.js";

type Distribute<T> = T extends unknown ? Omit<T, "taskId" | "agentId"> : never;
type EventBody = Distribute<BusEvent>;

export class Agent {
  readonly taskId: string;
  private readonly opts: AgentOptions;
  private running = false;
  private stopRequested = false;
  private requestAbort: AbortController | null = null;
  private toolAbort: AbortController | null = null;
  private turnCount = 0;
  private readonly steering: string[] = [];
  model: string;
  /** Long-lived tool state of this session (background jobs, the plan), and its cleanups. */
  readonly sessionTools: SessionTools;
  private readonly cleanups: (() => void | Promise<void>)[] = [];
  private readonly stopListeners: ((options: { force?: boolean }) => void)[] = [];
  private readonly checkpointHooks: CheckpointHooks | null;
  private readonly writer: SessionWriter;
  /** End-of-turn memory distillations still running (one after another). */
  private distilling: Promise<void> = Promise.resolve();
  /** Aborted when close() stops waiting for the distillations: their model requests end too. */
  private readonly distillAbort = new AbortController();
  /** This task's delegations, when subagents are configured. */
  subagents: Subagents | null = null;
  /** Writes the session's typed history from this agent's events. */
  private readonly history: HistoryRecorder;

  constructor(opts: AgentOptions) {
    this.opts = opts;
    this.taskId = opts.taskId;
    this.writer = new SessionWriter(opts.sessionFile, (event) => this.emit(event));
    this.model = opts.settings.model;
    this.sessionTools = {
      store: new Map(),
      report: (report) => {
        if (report.kind === "todo") this.emit({ type: "todo.updated", items: report.items });
        else this.emit({ type: "background.updated", job: report.job });
      },
      onClose: (cleanup) => void this.cleanups.push(cleanup),
    };
    this.checkpointHooks = opts.checkpoints
      ? checkpointHooks({
          checkpoints: opts.checkpoints,
          workspace: opts.settings.workspace,
          turn: opts.checkpointTurn ?? (() => this.turnOrdinal()),
          prompts: () => promptsByTurn(this.session.archive ?? [], this.messages),
          emit: (event) => this.emit(event as EventBody),
        })
      : null;
    // A killed run left its running calls without results (the loader gave them one): so do their items.
    settleRunning((opts.session.transcript ??= []));
    this.history = new HistoryRecorder(() => (this.opts.session.transcript ??= []), opts.agentId);
    const messages = opts.session.messages;
    // The system prompt is rebuilt once per session start and then stays fixed (prefix caches).
    if (messages[0]?.role === "system") messages[0] = { role: "system", content: opts.systemPrompt };
    else messages.unshift({ role: "system", content: opts.systemPrompt });
  }

  /** Replaces the system prompt (a mode change); the next request carries it. */
  setSystemPrompt(text: string): void {
    this.messages[0] = { role: "system", content: text };
  }

  get messages(): ChatMessage[] {
    return this.opts.session.messages;
  }

  get session(): SessionData {
    return this.opts.session;
  }

  get sessionFile(): string | null {
    return this.opts.sessionFile;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The history as front ends rebuild their transcript from it (session.loaded), without the system prompt. */
  loadedView(): { messages: ChatMessage[]; transcript: HistoryItem[] } {
    return {
      messages: this.messages.slice(1),
      transcript: historyForView(this.session.transcript ?? [], this.session.archive ?? [], this.messages),
    };
  }

  private emit(body: EventBody): void {
    const ids = { taskId: this.taskId, ...(this.opts.agentId ? { agentId: this.opts.agentId } : {}) };
    this.send({ ...body, ...ids } as BusEvent);
  }

  /** Every event of this agent and its tools; recorded after front ends had it (a snapshot on turn.started is the history before the turn). */
  private send(event: BusEvent): void {
    this.opts.emit(event);
    this.history.onEvent(event);
  }

  /**
   * Stop the running turn at the next step boundary. The in-flight model request is aborted now and
   * its partial reply dropped; running tools finish unless `force`, which kills them.
   */
  stop(options: { force?: boolean } = {}): void {
    if (!this.running) {
      // A /compact between turns: its summary call is dropped and the history stays as it was.
      this.requestAbort?.abort();
      return;
    }
    this.stopRequested = true;
    this.requestAbort?.abort();
    if (options.force) this.toolAbort?.abort();
    // Children stop at their own step boundaries, so the tool waiting for them returns soon.
    for (const listener of this.stopListeners) listener(options);
  }

  /** Called with every stop of a running turn (subagents use it to stop their children). */
  onStop(listener: (options: { force?: boolean }) => void): void {
    this.stopListeners.push(listener);
  }

  /** A message for the model, delivered at the next step boundary of the running turn. */
  steer(text: string): void {
    this.steering.push(text);
  }

  async run(rawInput: string | ContentPart[]): Promise<TurnResult> {
    if (this.running) throw new Error("a turn is already running");
    // A secret typed into a prompt is replaced before the model (or any event) sees it; tool
    // results are redacted too, so the model has nothing to echo.
    const input =
      typeof rawInput === "string"
        ? redact(rawInput)
        : rawInput.map((p) => (p.type === "text" ? { ...p, text: redact(p.text) } : p));
    this.running = true;
    this.stopRequested = false;
    this.toolAbort = new AbortController();
    const turnId = `turn-${++this.turnCount}`;
    const usage: UsageTotals = { prompt: 0, completion: 0 };
    let reason: TurnEndReason = "completed";
    let response = "";
    let error: string | undefined;
    let steps = 0;
    let finalFinish: string | undefined;
    const promptText = typeof input === "string" ? input : contentText(input);
    this.emit({ type: "turn.started", turnId, prompt: promptText });
    // A turn past its time limit is stopped like a second Ctrl-C (running commands killed) and ends as an error.
    const turnLimit = this.opts.settings.turnTimeoutMs ?? 0;
    let overTime = false;
    const turnTimer =
      turnLimit > 0
        ? setTimeout(() => {
            overTime = true;
            this.stop({ force: true });
          }, turnLimit)
        : null;
    if (this.opts.memory) await this.placeMemories(promptText);
    const userMessage: ChatMessage = { role: "user", content: input };
    this.messages.push(userMessage);
    // The prompt is on disk before anything it causes (step() waits for this save before running
    // tools): a killed run still numbers this turn's checkpoints apart from the next turn's, and
    // the history is never more than a step behind. Not awaited here: the first request starts now.
    void this.save();
    try {
      for (;;) {
        if (this.stopRequested) {
          reason = "interrupted";
          break;
        }
        if (needsCompaction(this.messages, this.opts.contextBudget ?? CONTEXT_CHAR_BUDGET)) {
          const folded = await this.compactHistory({ turnId });
          if (folded === "stopped") {
            reason = "interrupted";
            break;
          }
        }
        if (steps >= this.opts.settings.maxIterations) {
          reason = "max_iterations";
          error = `stopped after ${steps} model calls without a final answer (max_iterations ${this.opts.settings.maxIterations}); send another prompt to continue or raise --max-iterations`;
          break;
        }
        const steering = [...this.steering.splice(0), ...(this.opts.takeSteering?.() ?? [])].map(redact);
        for (const text of steering) {
          // Marked, so that /undo, /rewind and checkpoints count it in this turn (isPrompt).
          this.messages.push({ role: "user", content: text, steer: true });
          this.emit({ type: "steer.delivered", turnId, text });
        }
        steps++;
        const step = await this.step(turnId, steps, usage);
        if (step.kind === "stopped") {
          reason = "interrupted";
          break;
        }
        if (step.kind === "failed") {
          reason = "error";
          error = step.error;
          break;
        }
        if (step.text) response = step.text;
        if (step.kind === "final") {
          finalFinish = step.finishReason;
          break;
        }
        await this.save();
      }
    } catch (bug) {
      // Anything thrown here is a bug; the turn ends with an error and the history stays valid.
      log("error", "agent loop threw", bug);
      reason = "error";
      error = `internal error: ${bug instanceof Error ? bug.message : String(bug)}`;
      // Every dangling assistant tool call gets an error result (the same repair a loaded session gets).
      repairToolPairs(this.messages, "[interrupted] internal error before this tool finished");
    } finally {
      if (turnTimer) clearTimeout(turnTimer);
      this.requestAbort = null;
      this.toolAbort = null;
      this.running = false;
    }
    if (overTime && reason === "interrupted") {
      reason = "error";
      error = `the turn ran past its time limit of ${seconds(turnLimit)} (turnTimeoutMs) and was stopped`;
    }
    // A turn that "completed" with a cut or empty answer would otherwise look like a success with nothing to say.
    let warning: string | undefined;
    if (reason === "completed" && finalFinish === "length")
      warning = "the model stopped at its output limit (finish_reason: length): the answer is cut short";
    else if (reason === "completed" && response.trim() === "")
      warning = "the model ended the turn without an answer (empty reply)";
    if (warning) this.emit({ type: "notice", level: "warn", text: warning });
    this.history.endTurn(reason, error);
    await this.save();
    const saveError = this.saveError ?? undefined;
    this.emit({
      type: "turn.completed",
      turnId,
      reason,
      response,
      ...(error ? { error } : {}),
      ...(saveError ? { saveError } : {}),
      steps,
      usage,
    });
    // Only a turn that ended as the model meant it teaches anything (never a stop, an error or the limit).
    // It runs after the turn, not in it: the user can go on; close() waits for it.
    if (reason === "completed" && this.opts.memory) {
      const memory = this.opts.memory;
      const start = this.messages.indexOf(userMessage);
      const turn = start >= 0 ? this.messages.slice(start) : [userMessage];
      const previous = this.distilling;
      this.distilling = previous.then(async () => {
        const saved = await memory.distill(turn, this.distillAbort.signal);
        if (saved.length > 0) this.emit({ type: "notice", level: "info", text: `remembered: ${saved.join("; ")}` });
      });
    }
    return {
      reason,
      response,
      steps,
      usage,
      ...(error ? { error } : {}),
      ...(saveError ? { saveError } : {}),
      ...(warning ? { warning } : {}),
    };
  }

  /** Replaces the previous turn's memory block with this prompt's (never accumulated). */
  private async placeMemories(prompt: string): Promise<void> {
    const memory = this.opts.memory;
    if (!memory) return;
    dropMemoryBlocks(this.messages);
    const { block, ids } = await memory.retrieve(prompt);
    if (!block) return;
    this.messages.push({ role: "user", content: block });
    this.emit({ type: "memory.retrieved", count: ids.length, ids });
  }

  /**
   * Folds older messages into a summary at index 1 (see compaction.ts). Announced before it starts
   * (it costs a model call), recorded in the session (the folded messages go to its archive), and
   * reported with context.compacted. A stop during the summary call leaves the history untouched.
   */
  async compactHistory(
    opts: { turnId?: string; focus?: string; forced?: boolean } = {},
  ): Promise<"done" | "nothing" | "stopped"> {
    const before = contextChars(this.messages);
    const budget = this.opts.contextBudget ?? CONTEXT_CHAR_BUDGET;
    this.emit({
      type: "notice",
      level: "info",
      text: opts.forced
        ? "compacting the conversation…"
        : `the conversation is over its budget (${before.toLocaleString("en-US")} > ${budget.toLocaleString("en-US")} characters): folding older messages into a summary…`,
    });
    const abort = new AbortController();
    this.requestAbort = abort;
    if (this.running && this.stopRequested) abort.abort();
    const s = this.opts.settings;
    let result: CompactionResult | null;
    try {
      result = await compact(this.messages, {
        client: this.opts.client,
        model: this.model,
        signal: abort.signal,
        ...(opts.focus ? { focus: opts.focus } : {}),
        retry: {
          maxRetries: s.maxRetries,
          baseMs: s.retryBaseMs,
          fallbackModel: s.fallbackModel,
          ...(this.opts.fallbacks ? { fallbacks: this.opts.fallbacks } : {}),
        },
      });
    } catch {
      return "stopped";
    } finally {
      if (this.requestAbort === abort) this.requestAbort = null;
    }
    if (!result) {
      this.emit({ type: "notice", level: "info", text: "nothing to compact yet" });
      return "nothing";
    }
    applyCompaction(this.messages, this.opts.session, result, opts.focus);
    this.emit({
      type: "context.compacted",
      folded: result.foldedCount,
      kept: result.kept,
      summaryChars: result.summaryChars,
      failed: result.failed,
      beforeChars: before,
      afterChars: contextChars(this.messages),
      summary: result.summary,
      ...(opts.focus ? { focus: opts.focus } : {}),
      ...(result.error ? { error: result.error } : {}),
    });
    return "done";
  }

  /** One model round trip and, when it asks for tools, their execution. */
  private async step(
    turnId: string,
    step: number,
    usage: UsageTotals,
  ): Promise<
    | { kind: "final" | "tools"; text: string; finishReason?: string | undefined }
    | { kind: "stopped" }
    | { kind: "failed"; error: string }
  > {
    const settings = this.opts.settings;
    this.emit({ type: "step.started", turnId, step, model: this.model });
    const requestAbort = new AbortController();
    this.requestAbort = requestAbort;
    if (this.stopRequested) requestAbort.abort();
    const { outcome, model } = await completeWithRetry(
      this.opts.client,
      {
        model: this.model,
        messages: this.messages,
        tools: this.opts.tools.specs(),
        stream: settings.stream,
        thinking: settings.thinking,
        signal: requestAbort.signal,
      },
      {
        maxRetries: settings.maxRetries,
        baseMs: settings.retryBaseMs,
        fallbackModel: settings.fallbackModel,
        ...(this.opts.fallbacks ? { fallbacks: this.opts.fallbacks } : {}),
        provider: settings.provider,
        onRetry: ({ attempt, delayMs, error, model: m }) =>
          this.emit({
            type: "model.retrying",
            attempt,
            delayMs,
            error: describeFailure(error),
            model: m,
            ...(error.status !== undefined ? { status: error.status } : {}),
          }),
        onFallback: ({ error, ...route }) =>
          this.emit({ type: "model.fallback", ...route, error: describeFailure(error) }),
      },
      {
        onText: (text) => this.emit({ type: "assistant.delta", text }),
        onReasoning: (text) => this.emit({ type: "reasoning.delta", text }),
        onWaiting: (info) => this.emit({ type: "model.waiting", model: this.model, ...info }),
      },
    );
    this.requestAbort = null;
    if (!outcome.ok) {
      if (outcome.error.aborted || this.stopRequested) return { kind: "stopped" };
      return { kind: "failed", error: `model request failed: ${describeFailure(outcome.error)}` };
    }
    const reply = outcome.reply;
    if (reply.usage) {
      const priced = usageEvent(reply.usage, model, settings.models);
      addUsage(usage, priced);
      this.emit({ type: "usage.updated", ...priced });
    }
    const { calls, content, cut, refused } = recordReply(this.messages, reply, (i) => `call_${turnId}_${step}_${i}`);
    this.emit({
      type: "assistant.completed",
      text: content,
      toolCalls: calls.length,
      ...(reply.finishReason ? { finishReason: reply.finishReason } : {}),
    });
    if (cut) {
      // A cut reply's calls are incomplete: none ran, each got an error the model can act on.
      for (const { call, forModel } of refused)
        this.emit({
          type: "tool.completed",
          callId: call.id,
          name: call.name,
          status: "error",
          forModel,
          display: `not run: ${cut}`,
          durationMs: 0,
        });
      if (reply.cut?.what === "arguments" && calls.length > 0) return { kind: "tools", text: content };
      return { kind: "failed", error: `the model's reply was cut: ${cut}` };
    }
    if (calls.length === 0) return { kind: "final", text: reply.content, finishReason: reply.finishReason };

    // Saves queued before this step (the prompt's) land before the tools change anything.
    await this.writer.idle;
    const signal = this.toolAbort?.signal ?? new AbortController().signal;
    // Parallel calls run concurrently (at most TOOL_CONCURRENCY at once); results are appended in call order whatever finishes first.
    const results = await mapLimit(calls, TOOL_CONCURRENCY, (call) =>
      this.opts.tools.execute(call, this.toolEnv(signal)),
    );
    calls.forEach((call, i) =>
      this.messages.push({ role: "tool", tool_call_id: call.id, content: results[i]!.forModel }),
    );
    return { kind: "tools", text: reply.content };
  }

  /** Where and how this agent's tool calls run: the one path for the model's calls and the user's `!` commands. */
  private toolEnv(signal: AbortSignal): ExecuteEnv {
    return {
      workspace: this.opts.settings.workspace,
      taskId: this.taskId,
      ...(this.opts.agentId ? { agentId: this.opts.agentId } : {}),
      signal,
      // Through send: tool events also go into the typed history.
      emit: (event) => this.send(event),
      ...(this.opts.authorize ? { authorize: this.opts.authorize } : {}),
      ...(this.opts.boundary ? { boundary: this.opts.boundary } : {}),
      ...(this.opts.sandbox ? { sandbox: this.opts.sandbox } : {}),
      session: this.sessionTools,
      ...(this.opts.web ? { web: this.opts.web } : {}),
      ...(this.opts.hooks ? { hooks: this.opts.hooks } : {}),
      ...(this.checkpointHooks ? { checkpoint: this.checkpointHooks } : {}),
    };
  }

  /**
   * `!` shell mode: runs `command` as the model's run_command would (policy, approval, sandbox),
   * as a turn of its own without a model call. Its note (shell-mode.ts) is the turn's prompt, so
   * the model sees the command and its output next turn, and /undo and /rewind treat it as a turn.
   */
  async shell(rawCommand: string): Promise<ToolCallResult> {
    if (this.running) throw new Error("a turn is already running");
    const command = redact(rawCommand);
    this.running = true;
    this.stopRequested = false;
    const abort = (this.toolAbort = new AbortController());
    const turnId = `turn-${++this.turnCount}`;
    this.emit({ type: "turn.started", turnId, prompt: `!${command}` });
    const note: ChatMessage = { role: "user", content: shellNote(command, null) };
    this.messages.push(note);
    let result: ToolCallResult;
    try {
      // On disk before the command runs, like a prompt: its file changes are checkpointed under it.
      await this.save();
      result = await this.opts.tools.execute(
        { id: `${SHELL_CALL_PREFIX}${turnId}`, name: "run_command", arguments: JSON.stringify({ command }) },
        this.toolEnv(abort.signal),
      );
      note.content = shellNote(command, result);
    } finally {
      this.toolAbort = null;
      this.running = false;
    }
    await this.save();
    const reason = result.status === "aborted" ? "interrupted" : "completed";
    const saveError = this.saveError ?? undefined;
    this.emit({
      type: "turn.completed",
      turnId,
      reason,
      response: "",
      ...(saveError ? { saveError } : {}),
      steps: 0,
      usage: { prompt: 0, completion: 0 },
    });
    return result;
  }

  /** The 1-based ordinal of the newest user prompt of the session (folded ones counted). */
  turnOrdinal(): number {
    return [...(this.session.archive ?? []), ...this.messages].filter(isPrompt).length;
  }

  /**
   * Goes back to before user turn `turn`: files, conversation or both (see checkpointing.ts).
   */
  async rewind(turn: number, what: "files" | "conversation" | "both"): Promise<RewindOutcome> {
    if (this.running) throw new Error("cannot rewind while a turn runs");
    const outcome = await rewindSession(
      { messages: this.messages, archive: this.session.archive ?? [], checkpoints: this.opts.checkpoints ?? null },
      turn,
      what,
    );
    if (outcome.dropped !== undefined) dropLastHistoryTurns(this.session.transcript ?? [], outcome.dropped);
    await this.reportCheckpoints();
    return outcome;
  }

  /** Tells front ends every turn's file changes as they are now. */
  async reportCheckpoints(): Promise<void> {
    await this.checkpointHooks?.report();
  }

  /** Restores one file to how it was before `turn`. */
  async revertFile(turn: number, path: string): Promise<string> {
    if (!this.opts.checkpoints) return "no file checkpoints in this session";
    const result = await this.opts.checkpoints.revertFile(turn, path);
    await this.reportCheckpoints();
    return typeof result === "string" ? `${result} ${path}` : `not reverted: ${result.skipped}`;
  }

  /** Drops the last `n` user turns (each user message and everything after it). Returns how many were dropped. */
  undo(n: number): number {
    if (this.running) throw new Error("cannot undo while a turn runs");
    const dropped = dropLastTurns(this.messages, n);
    if (dropped === 0) return 0;
    dropLastHistoryTurns(this.session.transcript ?? [], dropped);
    // Turn numbers are used again from here: older checkpoint records of them would be wrong.
    this.forgetFrom(this.turnOrdinal() + 1);
    return dropped;
  }

  /** Empties the conversation, keeping the system prompt. */
  clear(): void {
    if (this.running) throw new Error("cannot clear while a turn runs");
    this.messages.splice(1);
    this.session.transcript = [];
    this.forgetFrom(this.turnOrdinal() + 1);
  }

  /** Turn numbers from `turn` on are used again: their old checkpoint records would be wrong. */
  private forgetFrom(turn: number): void {
    const checkpoints = this.opts.checkpoints;
    if (!checkpoints) return;
    // Queued in the store before any later checkpoint, so no new turn can record before it.
    void checkpoints
      .forget(turn)
      .then(() => this.reportCheckpoints())
      .catch((error: unknown) => log("warn", "forgetting checkpoints", error));
  }

  private hurried = false;
  private hurry: () => void = () => {};

  /** The program is ending (a signal): close() no longer waits for a memory distillation. */
  hurryClose(): void {
    this.hurried = true;
    this.hurry();
  }

  /** Ends the session's tool state: background jobs are killed. */
  async close(options: { memoryWaitMs?: number } = {}): Promise<void> {
    // An end-of-turn distillation still running gets a little time (a one-shot run gives it more);
    // quitting never waits for a slow model.
    let timer: NodeJS.Timeout | undefined;
    const hurried = new Promise<void>((resolve) => (this.hurry = resolve));
    if (this.hurried) this.hurry();
    await Promise.race([
      this.distilling,
      hurried,
      new Promise((resolve) => (timer = setTimeout(resolve, options.memoryWaitMs ?? 3_000))),
    ]);
    clearTimeout(timer);
    this.distillAbort.abort();
    await this.writer.idle;
    for (const cleanup of this.cleanups.splice(0)) {
      try {
        await cleanup();
      } catch (error) {
        log("warn", "a session cleanup failed", error);
      }
    }
  }

  /**
   * Persists the session as it is now (its whole steps; see SessionWriter). Saves run one after
   * another, and close() waits for the last, so none lands after the file is deleted. A failed
   * write is reported and kept in `saveError`; the in-memory history is kept.
   */
  save(): Promise<void> {
    this.opts.session.model = this.model;
    return this.writer.save(this.opts.session);
  }

  /** Set while the newest save failed: why, in one line. */
  get saveError(): string | null {
    return this.writer.saveError;
  }
}
