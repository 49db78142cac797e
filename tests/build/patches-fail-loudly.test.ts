// A dependency update that changes the text a diff of patches/ rewrites must fail the build,
// naming the diff, the hunk and the installed version, rather than ship the dependency unpatched
// (scripts/dep-patches.mjs, strict as the build runs it). Here Ink's output module is a copy, with
// Ink's package.json beside it, whose patched method reads differently, or whose version moved.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { afterAll, expect, it } from "vitest";
import { depPatches, inkReconcilerPath } from "../../scripts/dep-patches.mjs";

const root = resolve(import.meta.dirname, "../..");
const inkBuild = dirname(inkReconcilerPath(root));

const dir = mkdtempSync(join(tmpdir(), "nh-patch-fail-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles Ink and the openai client (every module a diff touches) with the build's diffs, strict. */
async function bundle(swap?: Plugin): Promise<void> {
  const entry = join(dir, "entry.mjs");
  writeFileSync(
    entry,
    `export * from "ink";\nexport { default as OpenAI } from "openai";\nexport { default as stringWidth } from "string-width";\n`,
  );
  await build({
    entryPoints: [entry],
    outfile: join(dir, "out.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    nodePaths: [join(root, "node_modules")],
    external: ["react-devtools-core"],
    plugins: [...(swap ? [swap] : []), depPatches(root, { strict: true }).plugin],
    logLevel: "silent",
  });
}

/** Ink's `module` (imported as `./module` by Ink's own modules) comes from a copy: `text` and `version`. */
function inkReleaseLater(name: string, text: string, version: string, module = "output.js"): Plugin {
  const copy = join(dir, name, "node_modules/ink/build", module);
  mkdirSync(dirname(copy), { recursive: true });
  writeFileSync(copy, text);
  const pkg = JSON.parse(readFileSync(join(inkBuild, "../package.json"), "utf8")) as { version: string };
  writeFileSync(join(dir, name, "node_modules/ink/package.json"), JSON.stringify({ ...pkg, version }));
  return {
    name: "ink-release-later",
    setup(b) {
      b.onResolve({ filter: /^\.\// }, (a) => {
        // The copy's own relative imports are Ink's; Ink's imports of the module get the copy.
        if (a.importer === copy) return { path: join(inkBuild, a.path) };
        return a.path === `./${module}` && a.importer.startsWith(inkBuild) ? { path: copy } : undefined;
      });
    },
  };
}

it("builds when every diff applies to the installed dependencies", async () => {
  await expect(bundle()).resolves.toBeUndefined();
});

it("fails, naming the diff, its hunk and Ink's version, when Ink's text under a hunk changed", async () => {
  const text = readFileSync(join(inkBuild, "output.js"), "utf8");
  const anchor = "    get() {\n        // Initialize output array";
  expect(text).toContain(anchor);
  // The same module a release later: the method the diff hooks into is written another way.
  const swap = inkReleaseLater(
    "changed",
    text.replace(anchor, "    get() {\n        // Build the output array"),
    "6.8.0",
  );
  const failure = bundle(swap);
  await expect(failure).rejects.toThrow(
    /patches\/ink@6\.8\.0\/7-output-rect-path\.diff \(for ink@6\.8\.0 build\/output\.js; installed: 6\.8\.0 at [^)]*changed[^)]*\)/,
  );
  await expect(failure).rejects.toThrow(
    /hunk 2 of 2 \(@@ -\d+,\d+ \+\d+,\d+ @@\) no longer applies: line \d+ reads " {8}\/\/ Build the output array[^"]*" where the diff expects " {8}\/\/ Initialize output array/,
  );
});

it("fails, naming the diff and the version found, when Ink's version moved", async () => {
  const text = readFileSync(join(inkBuild, "output.js"), "utf8");
  const failure = bundle(inkReleaseLater("moved", text, "6.9.0"));
  await expect(failure).rejects.toThrow(/dependency patches that applied nowhere \(a dependency changed\)/);
  await expect(failure).rejects.toThrow(
    /patches\/ink@6\.8\.0\/7-output-rect-path\.diff \(ink@6\.8\.0 build\/output\.js; loaded instead: ink 6\.9\.0 at [^)]*moved/,
  );
});

it("names only the diff that failed when a module's later diffs build on it", async () => {
  const text = readFileSync(join(inkBuild, "log-update.js"), "utf8");
  const line = "buffer.push(ansiEscapes.cursorUp(previousVisible - 1));";
  expect(text).toContain(line);
  const failure = bundle(
    inkReleaseLater("first-of-two", text.replace(line, line.replace("- 1", "- 2")), "6.8.0", "log-update.js"),
  );
  await expect(failure).rejects.toThrow(/patches\/ink@6\.8\.0\/1-cursor-up-count\.diff .*hunk 1 of 1/);
  await expect(failure).rejects.not.toThrow(/2-cell-writer/);
});
