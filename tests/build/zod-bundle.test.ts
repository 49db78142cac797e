// Start-up weight of dist/: zod must arrive as zod/mini with only its English locale. Classic zod,
// or `import { z }` of the re-exported namespace, would bundle ~450 KB and every locale again.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";

const dist = resolve(import.meta.dirname, "../../dist");

/** The zod files in the bundle, from the metafile the build writes beside it. */
function bundledZodFiles(): string[] {
  const meta = JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  const found = new Set<string>();
  for (const output of Object.values(meta.outputs)) {
    for (const input of Object.keys(output.inputs)) {
      const m = /^node_modules\/zod\/(\S+)$/.exec(input);
      if (m) found.add(m[1]!);
    }
  }
  return [...found].sort();
}

it("bundles zod/mini with the English locale only, and no classic zod", () => {
  const zod = bundledZodFiles();
  expect(zod.some((f) => f.startsWith("v4/mini/"))).toBe(true);
  expect(zod.filter((f) => f.startsWith("v4/classic/"))).toEqual([]);
  expect(zod.filter((f) => f.startsWith("v4/locales/"))).toEqual(["v4/locales/en.js"]);
});
