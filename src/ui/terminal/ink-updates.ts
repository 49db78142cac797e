// Ink's React reconciler, for one thing Ink does not offer: applying an update at once. A key
// given to an ink-text-input field through Ink's input events is applied in a later render (at
// Ink's default priority), and until then the field's input listener still holds the old value
// and cursor, so a second key edits the old state (tests/deps/ink-text-input-burst.test.tsx).
// Given inside `applyNow`, the key renders at once and the field takes the next key fresh.
// Ink's package exports only its index: `#ink-reconciler` names the module Ink imports, mapped by
// the build and the tests (scripts/dep-patches.mjs, also read by vitest.config.ts), so both hold one
// reconciler (tests/build/ink-reconciler-once.test.ts checks); its types: ink-reconciler.d.ts.
import reconciler from "#ink-reconciler";

/**
 * Runs `update` (a key for a field) and renders what it changed before returning, with the effects
 * of that render and what they change in turn (ink-text-input moves its cursor in an effect when
 * its value changed from outside, as Ctrl-U does).
 */
export function applyNow(update: () => void): void {
  reconciler.flushSyncFromReconciler(update);
  for (let i = 0; i < 8; i++) {
    const flushed = reconciler.flushSyncFromReconciler(() => reconciler.flushPassiveEffects());
    reconciler.flushSyncWork();
    if (!flushed) return;
  }
}
