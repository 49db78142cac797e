// yoga-layout's diff (patches/yoga-layout@3.2.1/): it decodes its WebAssembly from its own base64,
// never through fetch() (whose first use loads undici, ~40 ms at start-up). yoga is bundled with
// the build's plugin and loaded with a fetch that counts its calls; the stock bundle beside it
// shows the count would move.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, afterEach, expect, it } from "vitest";
import { depPatches } from "../../scripts/dep-patches.mjs";

const root = resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "nh-yoga-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Loads yoga bundled with or without the diffs; returns how many times it called fetch. */
async function fetchesWhileLoading(patched: boolean): Promise<{ fetches: number; applied: number }> {
  const name = patched ? "patched" : "stock";
  writeFileSync(
    join(dir, `${name}-entry.mjs`),
    `export { default } from ${JSON.stringify(createRequire(join(root, "package.json")).resolve("yoga-layout"))};\n`,
  );
  const patches = depPatches(root, { strict: false });
  await build({
    entryPoints: [join(dir, `${name}-entry.mjs`)],
    outfile: join(dir, `${name}.mjs`),
    bundle: true,
    format: "esm",
    platform: "node",
    plugins: patched ? [patches.plugin] : [],
    logLevel: "silent",
  });
  let fetches = 0;
  globalThis.fetch = ((...a: Parameters<typeof fetch>) => {
    fetches++;
    return realFetch(...a);
  }) as typeof fetch;
  const { default: Yoga } = (await import(pathToFileURL(join(dir, `${name}.mjs`)).href)) as {
    default: { Node: { create(): { setWidth(w: number): void; calculateLayout(): void; getComputedWidth(): number } } };
  };
  const node = Yoga.Node.create();
  node.setWidth(42);
  node.calculateLayout();
  expect(node.getComputedWidth()).toBe(42);
  return { fetches, applied: patches.applied["patches/yoga-layout@3.2.1/1-no-fetch.diff"] ?? -1 };
}

it("loads and lays out without calling fetch", async () => {
  expect(await fetchesWhileLoading(true)).toEqual({ fetches: 0, applied: 1 });
});

it("the stock module calls fetch while loading (what the diff removes)", async () => {
  expect((await fetchesWhileLoading(false)).fetches).toBeGreaterThan(0);
});
