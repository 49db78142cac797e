import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { defineConfig } from "vitest/config";

/** `#ink-reconciler`: the module Ink imports (src/ui/terminal/ink-updates.ts; the build maps it too). */
const inkReconciler = realpathSync(join(dirname(createRequire(import.meta.url).resolve("ink")), "reconciler.js"));

/**
 * The slow part (`npm run test:slow`): the built program (in a pseudo-terminal or as a process),
 * the build itself, the real sandbox helper, daemons, PostgreSQL clusters, MCP servers started with
 * npx, and the whole-project type check. A slow file in another folder is named `*.slow.test.ts`.
 * Everything else is the fast part (`npm run test:fast`): in-process, no dist/ needed.
 */
const slowFolders = ["e2e", "build", "sandbox", "daemon", "cron", "remote", "mcp", "mcp-server", "acp", "telemetry"];
const slow = [
  ...slowFolders.map((folder) => `tests/${folder}/**/*.test.{ts,tsx}`),
  "tests/typecheck.test.ts",
  "tests/**/*.slow.test.ts",
];
const all = ["tests/**/*.test.ts", "tests/**/*.test.tsx"];

export default defineConfig({
  resolve: { alias: { "#ink-reconciler": inkReconciler } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ["default", "json"],
    outputFile: { json: "test-results.json" },
    pool: "forks",
    projects: [
      // The native helper only (quick when it is current): in-process commands run under it.
      {
        extends: true,
        test: { name: "fast", include: all, exclude: slow, globalSetup: ["tests/global-setup-fast.ts"] },
      },
      // dist/ and the helper, built once before the suite, so the program tested is the current source.
      { extends: true, test: { name: "slow", include: slow, globalSetup: ["tests/global-setup.ts"] } },
    ],
  },
});
