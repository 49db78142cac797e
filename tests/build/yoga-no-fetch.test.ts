// yoga-layout's diff (patches/yoga-layout@3.2.1/): it decodes its WebAssembly from its own base64,
// never through fetch() (whose first use loads undici, ~40 ms at start-up). yoga is bundled with
// the build's plugin and loaded with a fetch that counts its calls; the stock bundle beside it
// shows the count would move.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";
import { bundleModule, resolveDependency } from "../helpers/stock-module.js";

const dir = mkdtempSync(join(tmpdir(), "nh-yoga-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Loads yoga bundled with or without the diffs; returns how many times it called fetch. */
async function fetchesWhileLoading(patched: boolean): Promise<{ fetches: number; applied: number }> {
  const bundle = await bundleModule(resolveDependency("yoga-layout"), dir, { patched, exports: "default" });
  let fetches = 0;
  globalThis.fetch = ((...a: Parameters<typeof fetch>) => {
    fetches++;
    return realFetch(...a);
  }) as typeof fetch;
  const { default: Yoga } = (await import(bundle.url)) as {
    default: { Node: { create(): { setWidth(w: number): void; calculateLayout(): void; getComputedWidth(): number } } };
  };
  const node = Yoga.Node.create();
  node.setWidth(42);
  node.calculateLayout();
  expect(node.getComputedWidth()).toBe(42);
  return { fetches, applied: bundle.applied["patches/yoga-layout@3.2.1/1-no-fetch.diff"] ?? -1 };
}

it("loads and lays out without calling fetch", async () => {
  expect(await fetchesWhileLoading(true)).toEqual({ fetches: 0, applied: 1 });
});

it("the stock module calls fetch while loading (what the diff removes)", async () => {
  expect((await fetchesWhileLoading(false)).fetches).toBeGreaterThan(0);
});
