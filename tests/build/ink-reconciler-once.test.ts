// TextField renders a field's keys at once through Ink's reconciler (src/ui/terminal/ink-updates.ts),
// which it imports as `#ink-reconciler` because Ink exports only its index (the build and
// vitest.config.ts map the name). That works only if the name maps to the very module Ink imports:
// a second copy would be a second React renderer that knows no root.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { applyNow } from "../../src/ui/terminal/ink-updates.js";

const dist = join(import.meta.dirname, "../../dist");

it("bundles one copy of Ink's reconciler, the one Ink itself uses", () => {
  const meta = JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as { inputs: Record<string, unknown> };
  const copies = Object.keys(meta.inputs).filter((i) => i.endsWith("ink/build/reconciler.js"));
  expect(copies).toHaveLength(1);
});

it("reaches the reconciler from the sources too (tests run them unbundled)", () => {
  let ran = false;
  applyNow(() => {
    ran = true;
  });
  expect(ran).toBe(true);
});
