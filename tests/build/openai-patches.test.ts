// The openai SDK's diffs (patches/openai@6.49.0/): its headers and log modules build and test
// headers with our Headers (src/agent/providers/sdk-headers.ts), and its client module never
// touches the global FormData or ReadableStream; each of those globals loads undici or Node's web
// streams on first touch. The modules are bundled with the build's plugin, and without it for
// comparison; tests/e2e/startup-modules.test.ts checks the built program loads none of it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { bundleModule, resolveDependency } from "../helpers/stock-module.js";

const sdk = dirname(resolveDependency("openai"));
const dir = mkdtempSync(join(tmpdir(), "nh-openai-patches-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles one of the SDK's modules, with the diffs or as installed. */
const bundled = (module: string, patched: boolean) =>
  bundleModule(join(sdk, module), dir, { patched, exports: "named" });

/** Runs `f` with the global Headers behind a getter that counts its reads. */
async function headersReads(f: () => unknown): Promise<number> {
  const real = Object.getOwnPropertyDescriptor(globalThis, "Headers")!;
  let reads = 0;
  Object.defineProperty(globalThis, "Headers", {
    configurable: true,
    get: () => {
      reads++;
      return real.value ?? real.get?.call(globalThis);
    },
  });
  try {
    await f();
  } finally {
    Object.defineProperty(globalThis, "Headers", real);
  }
  return reads;
}

it.each([
  [
    "internal/headers.mjs",
    "1-headers-module-own-headers",
    (m: Record<string, (x: unknown) => unknown>) => m.buildHeaders!([{ "X-One": "1" }, { "x-two": "2" }]),
  ],
  [
    "internal/utils/log.mjs",
    "2-log-module-own-headers",
    (m: Record<string, (x: unknown) => unknown>) => m.formatRequestDetails!({ headers: { authorization: "secret" } }),
  ],
])("%s builds and reads headers without the global Headers", async (module, diff, use) => {
  const patched = await bundled(module, true);
  expect(patched.applied[`patches/openai@6.49.0/${diff}.diff`]).toBe(1);
  const mine = (await import(patched.url)) as Record<string, (x: unknown) => unknown>;
  expect(await headersReads(() => use(mine))).toBe(0);
  // As installed, the same call reads the global (which loads undici).
  const stock = (await import((await bundled(module, false)).url)) as typeof mine;
  expect(await headersReads(() => use(stock))).toBeGreaterThan(0);
});

it("the client module tests bodies against a FormData of its own and no ReadableStream global", async () => {
  /** The client module's part of a bundle (esbuild marks each module with its path). */
  const clientPart = (file: string) => {
    const text = readFileSync(file, "utf8");
    const start = text.search(/\/\/ \S*node_modules\/openai\/client\.mjs\n/);
    expect(start).toBeGreaterThan(-1);
    const end = text.indexOf("\n// ", start + 10);
    return text.slice(start, end < 0 ? undefined : end);
  };
  const patched = await bundled("client.mjs", true);
  expect(patched.applied["patches/openai@6.49.0/3-no-form-data.diff"]).toBe(1);
  expect(patched.applied["patches/openai@6.49.0/4-no-readable-stream.diff"]).toBe(1);
  const mine = clientPart(patched.file);
  const stock = clientPart((await bundled("client.mjs", false)).file);
  expect(stock).toContain("globalThis.ReadableStream");
  expect(mine).not.toContain("globalThis.ReadableStream");
  // The global's name, as installed; a class of the module's own (renamed by esbuild), patched.
  expect(stock).toMatch(/instanceof FormData(?!\d)/);
  expect(mine).not.toMatch(/instanceof FormData(?!\d)/);
  expect(mine).toMatch(/var (FormData\d*) = class [\s\S]*instanceof \1\b/);
});
