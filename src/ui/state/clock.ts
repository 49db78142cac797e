// The time the UI shows. The store owns one (Store's `clock` option) and writes its reading into
// the state (`AppState.clock`); panes, tabs and dialogs read that, never the wall clock, so a
// component's model says when its elapsed times change. Tests pass `manualClock` and move it on.

/** Contract: `now` in ms; `every` calls `tick` each `ms` until the returned function stops it. */
export interface StoreClock {
  now(): number;
  every(ms: number, tick: () => void): () => void;
}

/** The wall clock; its timer does not keep the process alive. */
export const systemClock: StoreClock = {
  now: () => Date.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export interface ManualClock extends StoreClock {
  /** Moves the time on by `ms`, running every timer that falls due on the way, in order. */
  advance(ms: number): void;
  /** Timers running now (the store runs one while something on screen counts time). */
  readonly timers: number;
}

/**
 * A clock that moves only when told. `base` is where it reads from (default: 0), so a test may
 * keep it in step with another clock of its own and add what it advances.
 */
export function manualClock(base: () => number = () => 0): ManualClock {
  let moved = 0;
  const timers = new Set<{ every: number; due: number; tick: () => void }>();
  return {
    now: () => base() + moved,
    every(ms, tick) {
      const timer = { every: Math.max(1, ms), due: moved + Math.max(1, ms), tick };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    advance(ms) {
      const end = moved + ms;
      for (;;) {
        let next: { every: number; due: number; tick: () => void } | undefined;
        for (const t of timers) if (t.due <= end && (!next || t.due < next.due)) next = t;
        if (!next) break;
        moved = next.due;
        next.due += next.every;
        next.tick();
      }
      moved = end;
    },
    get timers() {
      return timers.size;
    },
  };
}
