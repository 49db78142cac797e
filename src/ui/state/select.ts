// Selectors: what one pane, tab or dialog reads of the state, as its model. A model is a plain
// object of parts (slices of the state, or values computed from them); two models with the same
// parts are the same model. A component subscribes with `useStore(selectX, sameParts)`, so it
// draws again exactly when a part its pane reads changed, and the pane function takes the model,
// so TypeScript holds it to what was selected.

/** Equality by parts: the same keys, each value the same (Object.is). */
export function sameParts<M extends object>(a: M, b: M): boolean {
  if (a === b) return true;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && Object.is(ra[k], rb[k]));
}

/** How many recent models a selector keeps: the render's state, the controller's latest, the settle step's. */
const KEPT = 4;

/**
 * Contract: a selector memoised per slice: it returns the very object it returned before when the
 * parts are the same, so a model can key caches (a pane's frame) and compare by identity. It keeps
 * a few recent models, because the render (the settled view), the controller's measures (the
 * latest state) and the settle step ask with different states between two frames.
 */
export function selector<S, M extends object>(pick: (s: S) => M): (s: S) => M {
  const recent: M[] = [];
  return (s) => {
    const model = pick(s);
    const i = recent.findIndex((m) => sameParts(m, model));
    if (i === 0) return recent[0]!;
    const kept = i > 0 ? recent.splice(i, 1)[0]! : model;
    recent.unshift(kept);
    if (recent.length > KEPT) recent.pop();
    return kept;
  };
}
