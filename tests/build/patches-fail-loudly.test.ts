// A dependency update that changes the text a build patch rewrites must fail the build, naming the
// patch, rather than ship the dependency unpatched (scripts/ink-patches.mjs, strict as the build
// runs it). Here Ink's output module is a copy whose patched method reads differently.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { afterAll, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
// @ts-expect-error a plain .mjs build script without types
const { inkPatches, inkReconcilerPath } = (await import("../../scripts/ink-patches.mjs")) as {
  inkPatches: (root: string, o: { strict: boolean }) => { plugin: Plugin; applied: Record<string, number> };
  inkReconcilerPath: (root: string) => string;
};

const dir = mkdtempSync(join(tmpdir(), "nh-patch-fail-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles Ink and the openai client (every module a patch touches) with the build's patches, strict. */
async function bundle(swap?: Plugin): Promise<void> {
  const entry = join(dir, "entry.mjs");
  writeFileSync(entry, `export * from "ink";\nexport { default as OpenAI } from "openai";\n`);
  await build({
    entryPoints: [entry],
    outfile: join(dir, "out.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    nodePaths: [join(root, "node_modules")],
    external: ["react-devtools-core"],
    plugins: [...(swap ? [swap] : []), inkPatches(root, { strict: true }).plugin],
    logLevel: "silent",
  });
}

it("builds when every patch applies to the installed dependencies", async () => {
  await expect(bundle()).resolves.toBeUndefined();
});

it("fails, naming the patch, when Ink's text under a patch changed", async () => {
  const real = join(dirname(inkReconcilerPath(root)), "output.js");
  const text = readFileSync(real, "utf8");
  const anchor = "    get() {\n        // Initialize output array";
  expect(text).toContain(anchor);
  // The same module a release later: the method the patch hooks into is written another way.
  const copy = join(dir, "node_modules/ink/build/output.js");
  mkdirSync(dirname(copy), { recursive: true });
  writeFileSync(copy, text.replace(anchor, "    get() {\n        // Build the output array"));
  const swap: Plugin = {
    name: "ink-release-later",
    setup(b) {
      b.onResolve({ filter: /^\.\/output\.js$/ }, (a) =>
        a.importer.endsWith(join("ink", "build", "renderer.js")) ? { path: copy } : undefined,
      );
    },
  };
  await expect(bundle(swap)).rejects.toThrow(/patches that no longer apply \(a dependency changed\): inkOutput;/);
});
