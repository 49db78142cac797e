import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { defineConfig } from "vitest/config";

/** `#ink-reconciler`: the module Ink imports (src/ui/terminal/ink-updates.ts; the build maps it too). */
const inkReconciler = realpathSync(join(dirname(createRequire(import.meta.url).resolve("ink")), "reconciler.js"));

export default defineConfig({
  resolve: { alias: { "#ink-reconciler": inkReconciler } },
  test: {
    include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ["default", ["json", { outputFile: "test-results.json" }]],
    pool: "forks",
    globalSetup: ["tests/global-setup.ts"],
  },
});
