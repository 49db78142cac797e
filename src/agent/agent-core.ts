// What the engine's parts share while a turn runs: the turn's control state (running, stop
// requested, the aborts of the model request and of the tools) and the agent as its parts see it.
// agent.ts owns both; the step, the `!` shell turn and compaction work through them.
import type { BusEvent } from "../protocol/events.js";
import type { ChatMessage } from "../protocol/messages.js";
import type { ExecuteEnv } from "../tools/registry.js";
import type { AgentOptions } from "./agent-types.js";

type Distribute<T> = T extends unknown ? Omit<T, "taskId" | "agentId"> : never;
/** An event as the agent's parts emit it: the agent adds its task and agent ids. */
export type EventBody = Distribute<BusEvent>;

/** Whether a turn runs, whether it was asked to stop, and what a stop aborts. */
export class TurnControl {
  running = false;
  stopRequested = false;
  /** The model request in flight (a step's, or a compaction's summary call). */
  requestAbort: AbortController | null = null;
  /** Ends the running tools (a forced stop, the turn's time limit). */
  toolAbort: AbortController | null = null;
  private turns = 0;

  /** Starts a turn: throws when one runs already (the front ends queue, so that is a bug). */
  begin(): { turnId: string; toolAbort: AbortController } {
    if (this.running) throw new Error("a turn is already running");
    this.running = true;
    this.stopRequested = false;
    this.toolAbort = new AbortController();
    return { turnId: `turn-${++this.turns}`, toolAbort: this.toolAbort };
  }

  end(): void {
    this.requestAbort = null;
    this.toolAbort = null;
    this.running = false;
  }

  /** The abort of a model request about to start: already aborted when a running turn was asked to stop. */
  request(): AbortController {
    const abort = new AbortController();
    this.requestAbort = abort;
    if (this.running && this.stopRequested) abort.abort();
    return abort;
  }

  /** The request ended; a newer one's abort stays. */
  release(abort: AbortController): void {
    if (this.requestAbort === abort) this.requestAbort = null;
  }
}

/**
 * Contract: the agent as its parts (agent-step.ts, shell-turn.ts, agent-compact.ts) use it. The
 * functions read the agent's state when called (the model can change between turns).
 */
export interface AgentCore {
  readonly opts: AgentOptions;
  readonly control: TurnControl;
  messages(): ChatMessage[];
  model(): string;
  emit(body: EventBody): void;
  /** Where tool calls run: the one path for the model's calls and the user's `!` commands. */
  toolEnv(signal: AbortSignal): ExecuteEnv;
  save(): Promise<void>;
  /** Saves queued so far have landed. */
  saved(): Promise<void>;
  saveError(): string | null;
}
