// SIGINT while a turn runs: a handler installed only for the turn's duration and nesting-safe
// (reference-counted), so Ctrl-C when idle keeps its default meaning: exit.

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
