// A dependency's module bundled alone by esbuild, as installed or with our diffs (patches/) applied
// by the build's own plugin: tests that compare the two (the openai SDK's and yoga's diffs), and
// tests that want the stock module (string-width's own rules) while vitest.config.ts patches what
// vite loads. Each bundle is a scratch file the test imports or reads.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { depPatches } from "../../scripts/dep-patches.mjs";

const root = resolve(import.meta.dirname, "../..");

/** Where the project resolves `specifier` (a package or a file in one) from. */
export const resolveDependency = (specifier: string) => createRequire(join(root, "package.json")).resolve(specifier);

export interface Bundled {
  /** The bundle, an ES module. */
  file: string;
  /** Its file URL, for `import()`. */
  url: string;
  /** How many times each diff applied (by its path under the root); empty when not patched. */
  applied: Record<string, number>;
}

export interface BundleOptions {
  /** Through the build's plugin (scripts/dep-patches.mjs), or as installed. */
  patched: boolean;
  /** What the bundle re-exports of the module: its named exports, its default, or both. */
  exports: "named" | "default" | "both";
}

let bundles = 0;

/**
 * Bundles the module file `path` alone into `dir`. Contract: each call writes a file of its own
 * name, so importing two bundles of one module never gets the first from the module cache.
 */
export async function bundleModule(path: string, dir: string, opts: BundleOptions): Promise<Bundled> {
  const name = `${basename(path).replace(/\W/g, "-")}-${opts.patched ? "patched" : "stock"}-${++bundles}`;
  const from = JSON.stringify(path);
  const lines = [
    ...(opts.exports === "default" ? [] : [`export * from ${from};`]),
    ...(opts.exports === "named" ? [] : [`export { default } from ${from};`]),
  ];
  const entry = join(dir, `${name}-entry.mjs`);
  writeFileSync(entry, `${lines.join("\n")}\n`);
  const patches = opts.patched ? depPatches(root, { strict: false }) : undefined;
  const file = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    format: "esm",
    platform: "node",
    plugins: patches ? [patches.plugin] : [],
    logLevel: "silent",
  });
  return { file, url: pathToFileURL(file).href, applied: patches?.applied ?? {} };
}

/** The installed `specifier` (a package the project resolves), unpatched. */
export async function stockModule<T>(specifier: string): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "nh-stock-"));
  try {
    const { url } = await bundleModule(resolveDependency(specifier), dir, { patched: false, exports: "both" });
    return (await import(url)) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
