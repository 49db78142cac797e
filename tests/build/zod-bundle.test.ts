// Start-up weight of dist/: zod must arrive as zod/mini with only its English locale. Classic zod,
// or `import { z }` of the re-exported namespace, would bundle ~450 KB and every locale again.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";

const dist = resolve(import.meta.dirname, "../../dist");

/** The zod files in the bundle, from the `// node_modules/...` comments esbuild writes before each module. */
function bundledZodFiles(): string[] {
  const files = ["cli.js", ...readdirSync(join(dist, "chunks")).filter((f) => f.endsWith(".js")).map((f) => `chunks/${f}`)];
  const found = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(join(dist, file), "utf8").matchAll(/^\/\/ node_modules\/zod\/(\S+)$/gm)) found.add(match[1] ?? "");
  }
  return [...found].sort();
}

it("bundles zod/mini with the English locale only, and no classic zod", () => {
  const zod = bundledZodFiles();
  expect(zod.some((f) => f.startsWith("v4/mini/"))).toBe(true);
  expect(zod.filter((f) => f.startsWith("v4/classic/"))).toEqual([]);
  expect(zod.filter((f) => f.startsWith("v4/locales/"))).toEqual(["v4/locales/en.js"]);
});
