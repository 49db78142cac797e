// A dependency as installed, without our diffs (patches/): vitest.config.ts applies them to what
// vite loads, so a test that compares against the stock module (string-width's own rules) gets it
// bundled here by esbuild, no plugins, into a scratch file it then imports.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "../..");

/** The installed `specifier` (a package the project resolves), unpatched. */
export async function stockModule<T>(specifier: string): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "nh-stock-"));
  try {
    const path = createRequire(join(root, "package.json")).resolve(specifier);
    const entry = join(dir, "entry.mjs");
    writeFileSync(entry, `export * from ${JSON.stringify(path)};\nexport { default } from ${JSON.stringify(path)};\n`);
    await build({
      entryPoints: [entry],
      outfile: join(dir, "stock.mjs"),
      bundle: true,
      format: "esm",
      platform: "node",
      logLevel: "silent",
    });
    return (await import(pathToFileURL(join(dir, "stock.mjs")).href)) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
