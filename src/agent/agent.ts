// The engine: runs a user turn as model round trips and parallel tool calls (each step in
// agent-step.ts), stops only at step boundaries, and keeps the history valid (every assistant tool
// call has its result) whatever happens. The `!` shell turn and compaction are their own modules.
import { existingJobs } from "../tools/background.js";
import type { ToolContext } from "../tools/define.js";

/** How much of a background job's output travels with its updates (the Jobs tab shows its end). */
const JOB_TAIL_BYTES = 4096;
import { log, redact } from "../config/log.js";
import type { BusEvent, EventOf, TurnEndReason } from "../protocol/events.js";
import type { AgentOptions, TurnResult } from "./agent-types.js";
import { contentText, type ChatMessage, type ContentPart } from "../protocol/messages.js";
import type { SessionTools } from "../tools/define.js";
import type { Subagents } from "./subagents.js";
import { CONTEXT_CHAR_BUDGET, needsCompaction } from "./compaction.js";
import {
  checkpointHooks,
  isPrompt,
  promptsByTurn,
  rewindSession,
  type CheckpointHooks,
  type RewindOutcome,
} from "./checkpointing.js";
import type { SessionData } from "../session/store.js";
import { SessionWriter } from "./session-writer.js";
import { seconds } from "./watchdog.js";
import { dropLastTurns } from "./history-edit.js";
import { TurnMemory } from "./agent-memory.js";
import { dropLastHistoryTurns, HistoryRecorder, settleRunning } from "./history-recorder.js";
import { historyForView } from "../session/history-view.js";
import type { HistoryItem } from "../protocol/history.js";
import { repairToolPairs } from "../session/repair.js";
import type { UsageTotals } from "./providers/usage.js";
import type { ExecuteEnv, ToolCallResult } from "../tools/registry.js";
import { type AgentCore, type EventBody, TurnControl } from "./agent-core.js";
import { compactHistory, type CompactOptions } from "./agent-compact.js";
import { runStep } from "./agent-step.js";
import { runShellTurn } from "./shell-turn.js";
import { withHint } from "./hint-line.js";

export { TOOL_CONCURRENCY } from "./agent-step.js";
export type { AgentOptions, AgentSettings, MemoryHooks, TurnResult } from "./agent-types.js";

export class Agent {
  readonly taskId: string;
  private readonly opts: AgentOptions;
  /** Whether a turn runs and what a stop aborts; shared with the step, the shell turn and compaction. */
  private readonly control = new TurnControl();
  private readonly core: AgentCore;
  private readonly steering: string[] = [];
  model: string;
  /** Long-lived tool state of this session (background jobs, the plan), and its cleanups. */
  readonly sessionTools: SessionTools;
  private readonly cleanups: (() => void | Promise<void>)[] = [];
  private readonly stopListeners: ((options: { force?: boolean }) => void)[] = [];
  private readonly checkpointHooks: CheckpointHooks | null;
  private readonly writer: SessionWriter;
  /** Long-term memory around each turn, when the session has it. */
  private readonly memory: TurnMemory | null;
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
      sessionId: opts.session.id,
      report: (report) => {
        if (report.kind === "todo") this.emit({ type: "todo.updated", items: report.items });
        else this.emit({ type: "background.updated", job: { ...report.job, tail: this.jobTail(report.job.id) } });
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
    this.memory = opts.memory ? new TurnMemory(opts.memory, (body) => this.emit(body)) : null;
    this.core = {
      opts,
      control: this.control,
      messages: () => this.messages,
      model: () => this.model,
      emit: (body) => this.emit(body),
      toolEnv: (signal) => this.toolEnv(signal),
      save: () => this.save(),
      saved: () => this.writer.idle,
      saveError: () => this.saveError,
    };
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
    return this.control.running;
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

  /**
   * An approval question or answer about this agent's calls (or its subagents'): the task manager
   * asks and answers them, so they reach the typed history here rather than through send().
   */
  recordApproval(event: EventOf<"approval.requested" | "approval.resolved">): void {
    this.history.onEvent(event);
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
    const control = this.control;
    if (!control.running) {
      // A /compact between turns: its summary call is dropped and the history stays as it was.
      control.requestAbort?.abort();
      return;
    }
    control.stopRequested = true;
    control.requestAbort?.abort();
    if (options.force) control.toolAbort?.abort();
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
    // A secret typed into a prompt is replaced before the model (or any event) sees it; tool
    // results are redacted too, so the model has nothing to echo.
    const input =
      typeof rawInput === "string"
        ? redact(rawInput)
        : rawInput.map((p) => (p.type === "text" ? { ...p, text: redact(p.text) } : p));
    const { turnId } = this.control.begin();
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
    if (this.memory) await this.memory.place(this.messages, promptText);
    // The relevant-skills line goes into the prompt's own message, never the system prompt (its cache stays warm).
    const hint = this.opts.skills ? await this.opts.skills.hint(promptText, this.opts.session.id) : "";
    const userMessage: ChatMessage = { role: "user", content: hint ? withHint(input, hint) : input };
    const firstItem = this.opts.session.transcript?.length ?? 0;
    this.messages.push(userMessage);
    // The prompt is on disk before anything it causes (step() waits for this save before running
    // tools): a killed run still numbers this turn's checkpoints apart from the next turn's, and
    // the history is never more than a step behind. Not awaited here: the first request starts now.
    const promptSaved = this.save();
    // After a failed save this one is waited for: a turn whose history cannot be kept is not
    // worth a model call (the disk may have been freed meanwhile, then the turn goes on).
    const unsaved = this.saveError !== null ? await promptSaved.then(() => this.saveError) : null;
    try {
      for (;;) {
        if (unsaved) {
          reason = "error";
          error = `${unsaved}; the model was not called`;
          break;
        }
        if (this.control.stopRequested) {
          reason = "interrupted";
          break;
        }
        if (needsCompaction(this.messages, this.opts.contextBudget ?? CONTEXT_CHAR_BUDGET)) {
          const folded = await compactHistory(this.core, { turnId });
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
        const step = await runStep(this.core, turnId, steps, usage);
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
      this.control.end();
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
    if (reason === "completed" && this.memory) {
      const start = this.messages.indexOf(userMessage);
      this.memory.learn(start >= 0 ? this.messages.slice(start) : [userMessage]);
    }
    if (this.opts.skills) {
      const start = this.messages.indexOf(userMessage);
      this.opts.skills.afterTurn({
        reason,
        prompt: promptText,
        sessionId: this.opts.session.id,
        items: (this.opts.session.transcript ?? []).slice(firstItem),
        messages: start >= 0 ? this.messages.slice(start) : [userMessage],
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

  /** Folds older messages into a summary (agent-compact.ts); `/compact` calls it between turns. */
  compactHistory(opts: CompactOptions = {}): Promise<"done" | "nothing" | "stopped"> {
    return compactHistory(this.core, opts);
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
      gate: this.opts.gate,
      ...(this.opts.boundary ? { boundary: this.opts.boundary } : {}),
      ...(this.opts.sandbox ? { sandbox: this.opts.sandbox } : {}),
      session: this.sessionTools,
      ...(this.opts.web ? { web: this.opts.web } : {}),
      ...(this.opts.editorFiles ? { editorFiles: this.opts.editorFiles } : {}),
      ...(this.opts.hooks ? { hooks: this.opts.hooks } : {}),
      ...(this.opts.traceparent ? { traceparent: this.opts.traceparent } : {}),
      ...(this.checkpointHooks ? { checkpoint: this.checkpointHooks } : {}),
    };
  }

  /** `!` shell mode: runs the command as a turn of its own (shell-turn.ts). */
  shell(command: string): Promise<ToolCallResult> {
    return runShellTurn(this.core, command);
  }

  /** The 1-based ordinal of the newest user prompt of the session (folded ones counted). */
  turnOrdinal(): number {
    return [...(this.session.archive ?? []), ...this.messages].filter(isPrompt).length;
  }

  /**
   * Goes back to before user turn `turn`: files, conversation or both (see checkpointing.ts).
   */
  async rewind(turn: number, what: "files" | "conversation" | "both"): Promise<RewindOutcome> {
    if (this.control.running) throw new Error("cannot rewind while a turn runs");
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
    if (this.control.running) throw new Error("cannot undo while a turn runs");
    const dropped = dropLastTurns(this.messages, n);
    if (dropped === 0) return 0;
    dropLastHistoryTurns(this.session.transcript ?? [], dropped);
    // Turn numbers are used again from here: older checkpoint records of them would be wrong.
    this.forgetFrom(this.turnOrdinal() + 1);
    return dropped;
  }

  /** Empties the conversation, keeping the system prompt. */
  clear(): void {
    if (this.control.running) throw new Error("cannot clear while a turn runs");
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

  /** The program is ending (a signal): close() no longer waits for a memory distillation. */
  hurryClose(): void {
    this.memory?.hurryUp();
  }

  /** The end of a background job's output, for the Jobs tab (empty when it is not known). */
  private jobTail(id: string): string {
    try {
      const job = existingJobs({ session: this.sessionTools } as ToolContext)?.get(id);
      if (!job) return "";
      return job.log.read(Math.max(job.log.start, job.log.end - JOB_TAIL_BYTES), JOB_TAIL_BYTES).text;
    } catch {
      return "";
    }
  }

  /** Stops a background job as task_kill would; false when there is no such running job. */
  async stopJob(id: string): Promise<boolean> {
    const job = existingJobs({ session: this.sessionTools } as ToolContext)
      ?.list()
      .find((j) => j.id === id);
    if (!job?.stoppable) return false;
    await job.stop("stopped by the user");
    return true;
  }

  /** Ends the session's tool state: background jobs are killed. */
  async close(options: { memoryWaitMs?: number } = {}): Promise<void> {
    // An end-of-turn distillation still running gets a little time (a one-shot run gives it more);
    // quitting never waits for a slow model.
    await this.memory?.settle(options.memoryWaitMs ?? 3_000);
    await this.opts.skills?.settle(options.memoryWaitMs ?? 3_000);
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
