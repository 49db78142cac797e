// The plain-text one-shot front end: assistant text streams to stdout, tool activity and
// notices go to stderr (when it is a terminal, or with --verbose).
import type { BusEvent, EventOf } from "../protocol/events.js";
import { retryText } from "../protocol/retry-note.js";

export interface Writer {
  write(text: string): void;
}

export interface PrinterOptions {
  stdout: Writer;
  stderr: Writer;
  /** Show tool activity on stderr. */
  progress: boolean;
  /** Say every retry on stderr (else only one LONG_RETRY_MS or more away): not with -q. */
  retries?: boolean;
  color: boolean;
  /** Write deltas as they arrive (stdout is a terminal); otherwise each step's text is written once it is final, so a retried step never leaves partial text in a pipe. */
  live: boolean;
}

/** A retry this far off (a Retry-After) is said even when stderr is no terminal: a silent pause looks like a hang. */
export const LONG_RETRY_MS = 5_000;

export const retryLine = (event: EventOf<"model.retrying">): string => retryText(event);

/** The "still waiting" line, written to stderr even when it is not a terminal: a silent hang looks like a dead program. */
export function waitingLine(event: EventOf<"model.waiting">): string {
  const secs = (ms: number) => `${Math.round(ms / 1000)} s`;
  const limit =
    event.idleLimitMs - event.idleMs < event.deadlineMs - event.elapsedMs
      ? `gives up after ${secs(event.idleLimitMs)} without output`
      : `gives up at ${secs(event.deadlineMs)}`;
  return `waiting for the model (${event.model}): nothing for ${secs(event.idleMs)}, ${limit}`;
}

export function createTextPrinter(opts: PrinterOptions): (event: BusEvent) => void {
  const dim = (s: string) => (opts.color ? `\x1b[2m${s}\x1b[22m` : s);
  const red = (s: string) => (opts.color ? `\x1b[31m${s}\x1b[39m` : s);
  let atLineStart = true;
  let printedText = false;
  let stepText = "";
  const failedServers = new Set<string>();
  const out = (text: string) => {
    if (text === "") return;
    opts.stdout.write(text);
    atLineStart = text.endsWith("\n");
    printedText = true;
  };
  const progress = (line: string) => {
    if (opts.progress) opts.stderr.write(`${line}\n`);
  };

  return (event) => {
    // A subagent's text is its parent's business: only its tool activity is shown, labelled.
    if (event.agentId !== undefined) {
      if (event.type === "tool.started") progress(dim(`  [${event.agentId}] ▸ ${event.name} ${event.summary}`));
      else if (event.type === "tool.completed" && event.status !== "ok")
        progress(red(`  [${event.agentId}] ✗ ${event.status}: ${event.display}`));
      return;
    }
    switch (event.type) {
      case "step.started":
        stepText = "";
        break;
      case "assistant.delta":
        stepText += event.text;
        if (opts.live) out(event.text);
        break;
      case "assistant.completed":
        // Without live output, or when the reply was not streamed, the final text is written here.
        if (!opts.live || stepText === "") out(event.text);
        stepText = "";
        if (!atLineStart) out("\n");
        break;
      case "tool.started":
        progress(dim(`▸ ${event.name} ${event.summary}`));
        break;
      case "tool.completed":
        if (event.status === "ok") progress(dim(`  ✓ ${event.display}`));
        else progress(red(`  ✗ ${event.status}: ${event.display}`));
        break;
      case "model.retrying":
        if (opts.live && stepText !== "") out("\n");
        stepText = "";
        if (opts.progress || opts.retries || event.delayMs >= LONG_RETRY_MS)
          opts.stderr.write(`${dim(`  ${retryLine(event)}`)}\n`);
        break;
      case "model.fallback":
        if (opts.live && stepText !== "") out("\n");
        stepText = "";
        progress(
          dim(
            `  ${event.from}${event.fromProvider ? ` (${event.fromProvider})` : ""} failed (${event.error}); trying ${event.to}${event.toProvider ? ` (${event.toProvider})` : ""}`,
          ),
        );
        break;
      case "model.waiting":
        opts.stderr.write(`${dim(waitingLine(event))}\n`);
        break;
      case "hook.completed":
        if (event.outcome !== "passed")
          progress(
            red(`  ${event.event} hook ${event.outcome} ${event.tool} (exit ${event.exitCode}): ${event.command}`),
          );
        break;
      case "mcp.updated":
        for (const s of event.servers) {
          if (s.state === "failed" && !failedServers.has(s.name))
            progress(red(`  MCP server ${s.name} failed: ${s.error ?? "unknown error"}`));
          if (s.state === "failed") failedServers.add(s.name);
          else failedServers.delete(s.name);
        }
        break;
      case "notice":
        if (event.level !== "info" || opts.progress)
          opts.stderr.write(`${event.level === "info" ? "" : `${event.level}: `}${event.text}\n`);
        break;
      case "turn.completed":
        if (!atLineStart) out("\n");
        if (!printedText && event.response) out(`${event.response}\n`);
        break;
      case "session.started":
      case "session.saved":
      case "session.loaded":
      case "turn.started":
      case "reasoning.delta":
      case "tool.output":
      case "approval.requested":
      case "approval.resolved":
      case "usage.updated":
      case "context.compacted":
      case "context.compacting":
      case "observer.started":
      case "model.requested":
      case "model.responded":
      case "gate.refused":
      case "sandbox.refused":
      case "sandbox.notice":
      case "memory.retrieved":
      case "subagent.updated":
      case "task.updated":
      case "task.removed":
      case "queue.updated":
      case "prompt.refused":
      case "steer.delivered":
      case "todo.updated":
      case "background.updated":
      case "checkpoints.updated":
      case "proposals.updated":
        break;
      default:
        event satisfies never;
    }
  };
}
