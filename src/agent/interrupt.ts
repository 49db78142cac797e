// Signals while a turn runs. SIGINT (Ctrl-C): a handler installed only for the turn's duration and
// nesting-safe (reference-counted), so Ctrl-C when idle keeps its default meaning: exit.
// SIGTERM and SIGHUP (`timeout`, a CI cancel, a dropped SSH link) end the program, but first the
// turn is stopped like a second Ctrl-C and the session saved: `withTermination`.
import { constants } from "node:os";

type Listener = () => void;

const listeners: Listener[] = [];
let installed = false;

function onSigint(): void {
  // The innermost (latest) turn gets the signal.
  listeners[listeners.length - 1]?.();
}

/**
 * Contract: while `fn` runs, SIGINT calls `listener` instead of killing the process; when the
 * last such scope ends the default action is restored.
 */
export async function withSigint<T>(listener: Listener, fn: () => Promise<T>): Promise<T> {
  listeners.push(listener);
  if (!installed) {
    process.on("SIGINT", onSigint);
    installed = true;
  }
  try {
    return await fn();
  } finally {
    const i = listeners.lastIndexOf(listener);
    if (i !== -1) listeners.splice(i, 1);
    if (listeners.length === 0 && installed) {
      process.removeListener("SIGINT", onSigint);
      installed = false;
    }
  }
}

export const sigintScopes = () => listeners.length;

/** The signals that end the program after the work in hand is saved. */
export const terminationSignals = ["SIGTERM", "SIGHUP"] as const;
export type TerminationSignal = (typeof terminationSignals)[number];

/** The shell's convention for a death by `signal`: 128 + its number (SIGTERM 143, SIGHUP 129). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/**
 * Contract: while `fn` runs, the first SIGTERM or SIGHUP calls `onSignal` (stop the work, let it
 * save) instead of killing the process, and arms a last-resort exit with 128 + signal after
 * `budgetMs`, for work that does not stop. Later signals are ignored meanwhile; the caller exits
 * with `signalExitCode` once `fn` is done. Writes to a terminal that went away (SIGHUP) fail
 * quietly instead of crashing the save.
 */
export async function withTermination<T>(
  onSignal: (signal: TerminationSignal) => void,
  fn: () => Promise<T>,
  budgetMs = 8_000,
): Promise<T> {
  let received: TerminationSignal | null = null;
  const handlers = terminationSignals.map((signal) => {
    const handler = () => {
      if (received) return;
      received = signal;
      process.stdout.on("error", () => {});
      process.stderr.on("error", () => {});
      setTimeout(() => process.exit(signalExitCode(signal)), budgetMs).unref();
      onSignal(signal);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  try {
    return await fn();
  } finally {
    for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  }
}
