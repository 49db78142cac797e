// Every tool call has a deadline, and a forced stop ends the wait for it, whatever the tool waits
// on (a FIFO, a hung MCP server, a blocked file-system thread): the turn goes on, the model is told.
import type { ToolKind } from "../protocol/events.js";

/** How long a call of each kind may take when its tool does not say (`ToolDef.deadlineMs`). */
export const KIND_DEADLINE_MS: Record<ToolKind, number> = {
  read: 120_000,
  edit: 120_000,
  // run_command gives its own: its timeout plus the time to kill the process group.
  exec: 660_000,
  net: 300_000,
  mcp: 600_000,
  // A subagent runs a whole turn of its own.
  agent: 3_600_000,
};

/** After a forced stop, how long a tool gets to end by itself before the registry stops waiting. */
export const ABORT_GRACE_MS = 5_000;

export class DeadlineExceeded extends Error {
  constructor(readonly ms: number) {
    super(`no result within ${Math.round(ms / 1000)} s`);
  }
}

export class StopAbandoned extends Error {
  constructor(readonly graceMs: number) {
    super(`the tool did not end within ${Math.round(graceMs / 1000)} s of the forced stop`);
  }
}

/**
 * Contract: settles with `work`'s outcome, or rejects with DeadlineExceeded after `deadlineMs`
 * (aborting `controller` first, so a tool that listens can clean up), or with StopAbandoned
 * `graceMs` after `stop` aborts. The work itself may go on in the background; nobody waits on it.
 */
export function settle<T>(
  work: Promise<T>,
  opts: { deadlineMs: number; graceMs: number; stop: AbortSignal; controller: AbortController },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let grace: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(deadline);
      clearTimeout(grace);
      opts.stop.removeEventListener("abort", onStop);
    };
    const deadline = setTimeout(() => {
      opts.controller.abort(new DeadlineExceeded(opts.deadlineMs));
      done();
      reject(new DeadlineExceeded(opts.deadlineMs));
    }, opts.deadlineMs);
    const onStop = () => {
      grace = setTimeout(() => {
        done();
        reject(new StopAbandoned(opts.graceMs));
      }, opts.graceMs);
    };
    if (opts.stop.aborted) onStop();
    else opts.stop.addEventListener("abort", onStop, { once: true });
    work.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
    // A late rejection of abandoned work must not become an unhandled rejection.
    work.catch(() => {});
  });
}
