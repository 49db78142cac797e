// Waiting on a condition instead of a fixed pause: tests that race on a loaded machine do so
// because a pause was long enough on the author's machine; a condition waits exactly as long as
// it takes, and a failure names what never happened.

export interface WaitOptions {
  /** What the test waits for, in words: the failure reads "... never happened: <what>". */
  what: string;
  /** Give up after this long (default 10 s); keep it under the test's own timeout. */
  timeoutMs?: number;
  /** How often to look (default 10 ms). */
  everyMs?: number;
}

/**
 * Polls `check` until it returns something truthy and returns that. A `check` that throws counts
 * as "not yet"; its last error is part of the failure message.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  { what, timeoutMs = 10_000, everyMs = 10 }: WaitOptions,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const why = lastError === undefined ? "" : ` (last check threw: ${String(lastError)})`;
      throw new Error(`waited ${timeoutMs} ms, never happened: ${what}${why}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Lets queued callbacks (promise jobs, then one round of timers and I/O) run. Not a wait for
 * anything in particular: use it where the code under test hands work to the event loop and the
 * test then checks that something did NOT happen, or to let a renderer flush once.
 */
export function turn(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
