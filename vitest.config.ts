import { defineConfig } from "vitest/config";
import { availableParallelism } from "node:os";
import { hookModules, stubModules, viteDepPatches } from "./scripts/dep-patches.mjs";

const root = import.meta.dirname;

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
const fastWorkers = Math.min(8, 2 * availableParallelism());
const all = ["tests/**/*.test.ts", "tests/**/*.test.tsx"];

export default defineConfig({
  // The hook modules our dependency patches import, `#ink-reconciler`, and the stubs the build puts
  // in place of is-in-ci and Ink's devtools bridge (the build maps the same names).
  resolve: { alias: { ...hookModules(root), ...stubModules(root) } },
  // Tests run the dependencies that ship: the diffs of patches/ applied as vite loads Ink and the
  // modules it measures text with (scripts/dep-patches.mjs, the build's list and applier).
  plugins: [viteDepPatches(root)],
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ["default", "json"],
    outputFile: { json: "test-results.json" },
    pool: "forks",
    // The temp folders a file made with tempDir are removed when it ends.
    setupFiles: ["tests/temp-cleanup.ts"],
    // Environment variables and globals a test stubs are put back after it (files share workers).
    unstubEnvs: true,
    unstubGlobals: true,
    // Vite loads (and so patches) only what it inlines; Node loads the rest as installed. Ink's
    // companions go through vite too, so everything holds one Ink (its React contexts). The
    // openai SDK's and yoga's diffs are start-up savings of the bundle: not inlined (the tests of
    // the built program check them, tests/build/openai-chunk.test.ts and yoga-no-fetch.test.ts).
    server: {
      deps: {
        inline: [
          "ink",
          "ink-testing-library",
          "ink-text-input",
          "ink-spinner",
          "string-width",
          "widest-line",
          "wrap-ansi",
        ],
      },
    },
    projects: [
      // The native helper only (quick when it is current): in-process commands run under it.
      // Its files share their worker's modules (isolate: false): importing the sources once per
      // worker rather than once per file is most of what makes it quick. So a test file leaves no
      // state behind it (env, timers, process-wide flags); one that needs a module fresh imports
      // it after vi.resetModules(). Files wait on processes and timers more than they compute, so
      // twice as many workers as cores.
      {
        extends: true,
        test: {
          name: "fast",
          include: all,
          exclude: slow,
          globalSetup: ["tests/global-setup-fast.ts"],
          isolate: false,
          maxWorkers: fastWorkers,
          sequence: { groupOrder: 0 },
        },
      },
      // dist/ and the helper, built once before the suite, so the program tested is the current
      // source. After the fast part, one file at a time per spare core (pseudo-terminals and timed
      // protocols), each in a fresh module registry.
      {
        extends: true,
        test: { name: "slow", include: slow, globalSetup: ["tests/global-setup.ts"], sequence: { groupOrder: 1 } },
      },
    ],
  },
});
