// Ink's React reconciler, which Ink's package does not export (only its index): the build and the
// tests (scripts/dep-patches.mjs; vitest.config.ts reads it) map this name to the very module Ink
// imports, so there is one reconciler. Typed here with the three calls ink-updates.ts makes.
declare module "#ink-reconciler" {
  const reconciler: {
    flushSyncFromReconciler<T>(fn: () => T): T;
    flushPassiveEffects(): boolean;
    flushSyncWork(): void;
  };
  export default reconciler;
}
