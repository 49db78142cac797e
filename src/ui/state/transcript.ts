// The transcript of one task as view state: a pure reducer from bus events (and a few UI actions)
// to a list of blocks. Blocks are immutable; a change replaces the block object, so renderers can
// cache by identity.
import type { BusEvent, EventOf, ToolKind, ToolStatus } from "../../protocol/events.js";
import type { HistoryItem } from "../../protocol/history.js";
import { retryText } from "../../protocol/retry-note.js";
import { SHELL_CALL_PREFIX } from "../../protocol/shell-note.js";
import { resultsOf, blockOf, turnEndText } from "./history-blocks.js";
import { keepExistingTurns, withPrompts, type CheckpointTurn } from "./turns.js";

export const OUTPUT_TAIL_CHARS = 8 * 1024;

export type Block =
  | { kind: "user"; id: string; text: string }
  | { kind: "steer"; id: string; text: string }
  | { kind: "assistant"; id: string; text: string; done: boolean; stopped?: boolean }
  | { kind: "reasoning"; id: string; text: string; done: boolean; expanded: boolean }
  | {
      kind: "tool";
      id: string;
      callId: string;
      name: string;
      toolKind: ToolKind | null;
      summary: string;
      args: unknown;
      status: "running" | ToolStatus;
      output: string;
      display: string;
      forModel: string;
      startedAt: number;
      durationMs: number | null;
      expanded: boolean;
    }
  | {
      kind: "approval";
      id: string;
      requestId: string;
      tool: string;
      toolKind: ToolKind;
      title: string;
      detail: string;
      reason: string;
      /** The rule that decided (a danger rule's name, `approval:on-request`, ...), when one did. */
      rule: string | null;
      /** A dangerous-command rule matched: a red card, and "always" is this exact command only. */
      dangerous: boolean;
      /** The part of the command the rule matched, highlighted in the card. */
      match: string | null;
      /** What "always" would allow, in words; null when the engine did not say. */
      always: string | null;
      /** Whether "always for this workspace" is offered. */
      alwaysWorkspace: boolean;
      /** Set when a subagent asks: its id, and its configured name when the board knows it. */
      agentId?: string;
      agentName?: string;
      resolved: string | null;
    }
  | { kind: "notice"; id: string; level: "info" | "warn" | "error"; text: string }
  /**
   * Where older messages were folded into a summary (context.compacted, or the summary message of a
   * reloaded session). Counts are null when only the summary text is known (a rebuilt transcript).
   */
  | {
      kind: "compaction";
      id: string;
      folded: number | null;
      summaryChars: number;
      /** The summary call failed: an omission note stands in. */
      failed: boolean;
      beforeChars: number | null;
      afterChars: number | null;
      /** The text the model now sees in place of the folded messages. */
      summary: string;
      focus?: string;
      error?: string;
    }
  | { kind: "turn-end"; id: string; reason: "interrupted" | "max_iterations" | "error"; text: string };

export type BlockKind = Block["kind"];

export interface TranscriptState {
  blocks: Block[];
  /** Incremented for every new block, so ids are unique within the task. */
  seq: number;
  running: boolean;
  /** A stop was asked for and the turn has not ended yet. */
  stopping: boolean;
  turnStartedAt: number | null;
  /** Since when the open model request has sent no content (model.waiting); null while content flows. */
  waitingSince: number | null;
  /** Paths this task wrote and read, in first-seen order. */
  changed: string[];
  reads: string[];
  /** The subagent board of this task, by agent id, in first-seen order. */
  agents: AgentRow[];
  /** The plan (todo_write), and the background commands. */
  todo: EventOf<"todo.updated">["items"];
  jobs: EventOf<"background.updated">["job"][];
  /** Each subagent's own transcript, by agent id (grandchildren too, flat): see state/children.ts. */
  children: Record<string, TranscriptState>;
  /** The agent that started each nested subagent (depth 2 and deeper), when it could be told. */
  parents: Record<string, string>;
  /** From session.started: the session's id (its file checkpoints are kept under it) and workspace. */
  sessionId: string | null;
  workspace: string | null;
  /** The files each user turn changed (checkpoints.updated), oldest turn first. */
  checkpoints: CheckpointTurn[];
  /**
   * Set when the UI asked for a change that reloads the session (undo, clear, rewind): the notices
   * from this block on answer it, and survive the reload (the engine may send them before it).
   */
  reloadFrom: number | null;
}

export type AgentRow = EventOf<"subagent.updated">["row"];

export const emptyTranscript = (): TranscriptState => ({
  blocks: [],
  seq: 0,
  running: false,
  stopping: false,
  turnStartedAt: null,
  waitingSince: null,
  changed: [],
  reads: [],
  agents: [],
  todo: [],
  jobs: [],
  children: {},
  parents: {},
  sessionId: null,
  workspace: null,
  checkpoints: [],
  reloadFrom: null,
});

/** UI-side actions on the transcript (not engine events). */
export type TranscriptAction =
  | { type: "ui.toggle"; blockId: string }
  | { type: "ui.stopping" }
  | { type: "ui.local"; level: "info" | "warn" | "error"; text: string }
  /** A command that reloads the session was sent (see TranscriptState.reloadFrom). */
  | { type: "ui.reloading" }
  /** The turns as read from the checkpoint store (a resumed session, after a rewind): they replace the list. */
  | { type: "ui.checkpoints"; turns: CheckpointTurn[] };

function lastIndex(blocks: Block[], pred: (b: Block) => boolean): number {
  for (let i = blocks.length - 1; i >= 0; i--) if (pred(blocks[i]!)) return i;
  return -1;
}

function replaceAt(blocks: Block[], i: number, block: Block): Block[] {
  const next = blocks.slice();
  next[i] = block;
  return next;
}

function add(state: TranscriptState, make: (id: string) => Block): TranscriptState {
  const seq = state.seq + 1;
  return { ...state, seq, blocks: [...state.blocks, make(`b${seq}`)] };
}

const pathArg = (args: unknown): string | null => {
  const p = (args as { path?: unknown } | null)?.path;
  return typeof p === "string" ? p : null;
};

/** Appends streamed text to the open block of `kind`, or opens one. */
function appendLive(state: TranscriptState, kind: "assistant" | "reasoning", text: string): TranscriptState {
  const i = state.blocks.length - 1;
  const last = state.blocks[i];
  if (last && last.kind === kind && !last.done)
    return { ...state, blocks: replaceAt(state.blocks, i, { ...last, text: last.text + text }) };
  return add(state, (id) =>
    kind === "assistant" ? { kind, id, text, done: false } : { kind, id, text, done: false, expanded: false },
  );
}

/** Drops the open (streaming) blocks: their request is being retried. */
function dropLive(state: TranscriptState): TranscriptState {
  const blocks = state.blocks.filter((b) => !((b.kind === "assistant" || b.kind === "reasoning") && !b.done));
  return blocks.length === state.blocks.length ? state : { ...state, blocks };
}

function closeLive(state: TranscriptState, stopped: boolean): TranscriptState {
  let changedAny = false;
  const blocks = state.blocks.map((b) => {
    if ((b.kind === "assistant" || b.kind === "reasoning") && !b.done) {
      changedAny = true;
      return b.kind === "assistant"
        ? { ...b, done: true, ...(stopped ? { stopped: true } : {}) }
        : { ...b, done: true };
    }
    return b;
  });
  return changedAny ? { ...state, blocks } : state;
}

/**
 * Rebuilds a transcript from the session's typed history (resume, undo, clear): the blocks the live
 * run showed for the same items, in the same order. Approvals and notices were moments, not history.
 */
export function fromHistory(items: readonly HistoryItem[]): TranscriptState {
  let state = emptyTranscript();
  for (const it of items) {
    const seq = state.seq + 1;
    const block = blockOf(it, `b${seq}`);
    if (block) state = { ...state, seq, blocks: [...state.blocks, block] };
  }
  return state;
}

/** Content arrived (or the attempt ended): the "waiting for the model" mark goes. */
function notWaiting(state: TranscriptState): TranscriptState {
  return state.waitingSince === null ? state : { ...state, waitingSince: null };
}

export function reduceTranscript(
  state: TranscriptState,
  event: BusEvent | TranscriptAction,
  now = Date.now(),
): TranscriptState {
  switch (event.type) {
    case "turn.started":
      return add({ ...state, reloadFrom: null, running: true, stopping: false, turnStartedAt: now }, (id) => ({
        kind: "user",
        id,
        text: event.prompt,
      }));
    case "steer.delivered":
      return add(state, (id) => ({ kind: "steer", id, text: event.text }));
    case "assistant.delta":
      return appendLive(notWaiting(state), "assistant", event.text);
    case "reasoning.delta":
      return appendLive(notWaiting(state), "reasoning", event.text);
    case "model.waiting":
      return { ...state, waitingSince: now - event.idleMs };
    case "assistant.completed": {
      const closed = closeLive(notWaiting(state), false);
      const hadText = state.blocks.some((b) => b.kind === "assistant" && !b.done);
      // A whole (non-streamed) reply arrives only here.
      if (!hadText && event.text) return add(closed, (id) => ({ kind: "assistant", id, text: event.text, done: true }));
      return closed;
    }
    case "model.retrying":
      // Said, not silent: the pause before the next attempt would look like a hang.
      return add(dropLive(notWaiting(state)), (id) => ({ kind: "notice", id, level: "warn", text: retryText(event) }));
    case "model.fallback":
      // A switch of model or provider stays in the transcript: the rest of the turn comes from elsewhere.
      return add(dropLive(notWaiting(state)), (id) => ({
        kind: "notice",
        id,
        level: "warn",
        text: fallbackText(event),
      }));
    case "tool.started":
      return add(state, (id) => ({
        kind: "tool",
        id,
        callId: event.callId,
        name: event.name,
        toolKind: event.kind,
        summary: event.summary,
        args: event.args,
        status: "running",
        output: "",
        display: "",
        forModel: "",
        startedAt: now,
        durationMs: null,
        // A `!` command's output is what the user asked to see: its card opens.
        expanded: event.callId.startsWith(SHELL_CALL_PREFIX),
      }));
    case "tool.output": {
      const i = lastIndex(state.blocks, (b) => b.kind === "tool" && b.callId === event.callId);
      const block = state.blocks[i];
      if (!block || block.kind !== "tool") return state;
      const output = (block.output + event.chunk).slice(-OUTPUT_TAIL_CHARS);
      return { ...state, blocks: replaceAt(state.blocks, i, { ...block, output }) };
    }
    case "tool.completed": {
      const i = lastIndex(
        state.blocks,
        (b) => b.kind === "tool" && b.callId === event.callId && b.status === "running",
      );
      const block = state.blocks[i];
      const done = {
        status: event.status,
        display: event.display,
        forModel: event.forModel,
        durationMs: event.durationMs,
      };
      let next: TranscriptState;
      if (block && block.kind === "tool")
        next = { ...state, blocks: replaceAt(state.blocks, i, { ...block, ...done }) };
      else {
        // Rejected before it ran (unknown tool, invalid arguments, denied): a card all the same,
        // saying what it was when the engine knows (a denied command keeps its text).
        next = add(state, (id) => ({
          kind: "tool",
          id,
          callId: event.callId,
          name: event.name,
          toolKind: event.kind ?? null,
          summary: event.summary ?? "",
          args: event.args ?? null,
          output: "",
          startedAt: now,
          expanded: false,
          ...done,
        }));
      }
      // Only a write that happened is a change: a failed or denied edit is not listed.
      const written =
        block?.kind === "tool" && event.status === "ok" && block.toolKind === "edit" ? pathArg(block.args) : null;
      if (written && !next.changed.includes(written)) next = { ...next, changed: [...next.changed, written] };
      if (block?.kind === "tool" && event.status === "ok" && block.toolKind === "read" && event.name === "read_file") {
        const path = pathArg(block.args);
        if (path && !next.reads.includes(path)) next = { ...next, reads: [...next.reads, path] };
      }
      return next;
    }
    case "approval.requested": {
      const name = event.agentId ? state.agents.find((a) => a.id === event.agentId)?.name : undefined;
      return add(state, (id) => ({
        kind: "approval",
        id,
        requestId: event.requestId,
        tool: event.tool,
        toolKind: event.kind,
        title: event.title,
        detail: event.detail,
        reason: event.reason,
        resolved: null,
        rule: event.rule ?? null,
        dangerous: event.dangerous ?? false,
        match: event.match ?? null,
        always: event.always ?? null,
        alwaysWorkspace: event.alwaysWorkspace ?? true,
        ...(event.agentId ? { agentId: event.agentId } : {}),
        ...(name ? { agentName: name } : {}),
      }));
    }
    case "approval.resolved": {
      const i = lastIndex(state.blocks, (b) => b.kind === "approval" && b.requestId === event.requestId);
      const block = state.blocks[i];
      if (!block || block.kind !== "approval") return state;
      return { ...state, blocks: replaceAt(state.blocks, i, { ...block, resolved: event.decision }) };
    }
    case "notice":
      return add(state, (id) => ({ kind: "notice", id, level: event.level, text: event.text }));
    case "context.compacted":
      return add(state, (id) => ({
        kind: "compaction",
        id,
        folded: event.folded,
        summaryChars: event.summaryChars,
        failed: event.failed,
        beforeChars: event.beforeChars,
        afterChars: event.afterChars,
        summary: event.summary,
        ...(event.focus ? { focus: event.focus } : {}),
        ...(event.error ? { error: event.error } : {}),
      }));
    case "hook.completed": {
      if (event.outcome === "passed") return state;
      const why = event.exitCode === -2 ? "timed out" : `exit ${event.exitCode}`;
      const first = event.output.split("\n", 1)[0] ?? "";
      const text = `${event.event} hook ${event.outcome === "blocked" ? "blocked" : "warned about"} ${event.tool} (${why}): ${event.command}${first ? ` — ${first}` : ""}`;
      return add(state, (id) => ({ kind: "notice", id, level: event.outcome === "blocked" ? "error" : "warn", text }));
    }
    case "turn.completed": {
      const next = closeLive(
        { ...state, running: false, stopping: false, turnStartedAt: null, waitingSince: null },
        event.reason === "interrupted",
      );
      if (event.reason === "completed") return next;
      const text = turnEndText(event.reason, event.error);
      return add(next, (id) => ({
        kind: "turn-end",
        id,
        reason: event.reason as "interrupted" | "max_iterations" | "error",
        text,
      }));
    }
    case "subagent.updated": {
      const i = state.agents.findIndex((a) => a.id === event.row.id);
      const agents = i === -1 ? [...state.agents, event.row] : state.agents.map((a, k) => (k === i ? event.row : a));
      return { ...state, agents };
    }
    case "todo.updated":
      return { ...state, todo: event.items };
    case "background.updated": {
      const i = state.jobs.findIndex((j) => j.id === event.job.id);
      return {
        ...state,
        jobs: i === -1 ? [...state.jobs, event.job] : state.jobs.map((j, k) => (k === i ? event.job : j)),
      };
    }
    case "session.loaded": {
      // A daemon older than typed history (a remote task) sends none: an empty transcript, not a crash.
      const rebuilt = fromHistory(event.transcript ?? []);
      const { sessionId, workspace } = state;
      const checkpoints = keepExistingTurns(rebuilt.blocks, state.checkpoints);
      // After a restart the results tabs start empty: the history says what they showed.
      const found = resultsOf(rebuilt.blocks);
      const union = (a: string[], b: string[]) => [...a, ...b.filter((x) => !a.includes(x))];
      let next: TranscriptState = {
        ...rebuilt,
        seq: Math.max(rebuilt.seq, state.seq),
        running: state.running,
        changed: union(found.changed, state.changed),
        reads: union(found.reads, state.reads),
        agents: state.agents,
        todo: state.todo.length > 0 ? state.todo : (found.todo ?? []),
        jobs: state.jobs,
        children: state.children,
        parents: state.parents,
        sessionId,
        workspace,
        checkpoints,
      };
      // What the engine said about the change so far ("files as before turn 2: …") stays in view.
      for (const b of state.reloadFrom === null ? [] : state.blocks.slice(state.reloadFrom))
        if (b.kind === "notice") next = add(next, (id) => ({ ...b, id }));
      return next;
    }
    case "ui.reloading":
      return { ...state, reloadFrom: state.blocks.length };
    case "session.started":
      return { ...state, sessionId: event.sessionId, workspace: event.workspace };
    case "checkpoints.updated":
      return { ...state, checkpoints: event.turns };
    case "ui.checkpoints":
      return { ...state, checkpoints: withPrompts(event.turns, state.checkpoints) };
    case "ui.toggle": {
      const i = state.blocks.findIndex((b) => b.id === event.blockId);
      const block = state.blocks[i];
      if (!block || (block.kind !== "tool" && block.kind !== "reasoning")) return state;
      return { ...state, blocks: replaceAt(state.blocks, i, { ...block, expanded: !block.expanded }) };
    }
    case "ui.stopping":
      return state.running ? { ...state, stopping: true } : state;
    case "ui.local":
      return add(state, (id) => ({ kind: "notice", id, level: event.level, text: event.text }));
    default:
      return state;
  }
}

/** "gpt-5 (openai) failed (503 overloaded); trying claude-sonnet-4-5 (anthropic)". */
export function fallbackText(event: {
  from: string;
  to: string;
  error: string;
  fromProvider?: string | undefined;
  toProvider?: string | undefined;
}): string {
  const where = (model: string, provider: string | undefined) => (provider ? `${model} (${provider})` : model);
  return `${where(event.from, event.fromProvider)} failed (${event.error}); trying ${where(event.to, event.toProvider ?? event.fromProvider)}`;
}
