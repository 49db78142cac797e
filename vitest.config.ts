import { defineConfig } from "vitest/config";
import { hookModules, viteDepPatches } from "./scripts/dep-patches.mjs";

const root = import.meta.dirname;

export default defineConfig({
  // The hook modules our dependency patches import, and `#ink-reconciler` (the build maps them too).
  resolve: { alias: hookModules(root) },
  // Tests run the dependencies that ship: the diffs of patches/ applied as vite loads Ink and the
  // modules it measures text with (scripts/dep-patches.mjs, the build's list and applier).
  plugins: [viteDepPatches(root)],
  test: {
    include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ["default", ["json", { outputFile: "test-results.json" }]],
    pool: "forks",
    globalSetup: ["tests/global-setup.ts"],
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
  },
});
