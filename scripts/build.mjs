// Bundles src/cli.ts into dist/ with esbuild: one entry plus lazily loaded chunks, so the
// program starts without resolving node_modules at run time. The chunks are then turned into
// scripts (scripts/as-scripts.mjs: dist/main.js and dist/chunks/) that dist/cli.js, built from
// src/start.ts, runs through V8's code cache. Files are replaced atomically and
// stale chunks removed, so a program running from dist/ during a rebuild never sees half a file.
import { execFileSync } from "node:child_process";
import { build } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { builtinFacades } from "./builtin-facades.mjs";
import { depPatches, stubModules } from "./dep-patches.mjs";
import { BANNER, programFiles } from "./as-scripts.mjs";
import { openaiSlim, UNUSED_OPENAI_HELPERS, UNUSED_OPENAI_RESOURCES } from "./openai-slim.mjs";

const root = resolve(import.meta.dirname, "..");
const dist = join(root, "dist");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

const { plugin: patches } = depPatches(root);
const slim = openaiSlim();
// For measuring what each start-up measure still buys (`npm run bench`, section patches): a build
// without some of them. NANOHERMES_BUILD_WITHOUT=openai-slim,builtin-facades,code-cache.
const without = new Set((process.env.NANOHERMES_BUILD_WITHOUT ?? "").split(",").filter(Boolean));
for (const name of without)
  if (!["openai-slim", "builtin-facades", "code-cache"].includes(name))
    throw new Error(`NANOHERMES_BUILD_WITHOUT: unknown ${name}`);

const result = await build({
  absWorkingDir: root,
  entryPoints: ["src/cli.ts"],
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // No source maps: the scripts are esbuild's chunks converted once more, which a map of the
  // chunks would no longer describe.
  sourcemap: false,
  minify: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  write: false,
  metafile: true,
  // Native addons (sharp's libvips, better-sqlite3's SQLite) load their .node files at run time
  // from node_modules; bundling cannot carry them.
  external: ["sharp", "better-sqlite3"],
  banner: {
    js: without.has("code-cache") ? `#!/usr/bin/env node\n${BANNER}` : BANNER,
  },
  define: { __NANOHERMES_VERSION__: JSON.stringify(pkg.version), "process.env.NODE_ENV": '"production"' },
  alias: stubModules(root),
  plugins: [
    ...(without.has("openai-slim") ? [] : [slim.plugin]),
    ...(without.has("builtin-facades") ? [] : [builtinFacades()]),
    patches,
  ],
  jsx: "automatic",
  logLevel: "warning",
});

// Every unused module was replaced: one the SDK renamed or moved would be bundled in full again.
const stubs = UNUSED_OPENAI_RESOURCES.length + UNUSED_OPENAI_HELPERS.length;
if (!without.has("openai-slim") && slim.applied.stubs !== stubs)
  throw new Error(`openai-slim: ${slim.applied.stubs} of ${stubs} modules replaced`);

const outputs = without.has("code-cache")
  ? new Map(result.outputFiles.map((f) => [relative(dist, f.path), f.text]))
  : await programFiles(result, { root, dist, version: pkg.version });

const written = new Set();
for (const [path, text] of outputs) {
  const file = join(dist, path);
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode: path === "cli.js" ? 0o755 : 0o644 });
  renameSync(tmp, file);
  written.add(path);
}

function prune(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) prune(path);
    else if (!written.has(relative(dist, path)) && !entry.name.includes(".tmp-")) rmSync(path, { force: true });
  }
}
// dist/help.txt: what dist/cli.js prints for a lone --help without loading the bundle. Asked of the
// program just built, after the old file is gone (else it would answer from it).
if (!without.has("code-cache")) {
  const help = join(dist, "help.txt");
  rmSync(help, { force: true });
  const text = execFileSync(process.execPath, [join(dist, "cli.js"), "--help"], {
    encoding: "utf8",
    env: { ...process.env, NANOHERMES_CODE_CACHE: "off" },
  });
  if (!text.startsWith(`nanohermes ${pkg.version}`)) throw new Error("build: --help did not print the help");
  writeFileSync(help, text);
  written.add("help.txt");
}

// Which modules went into which file, for the tests that guard the bundle's weight.
writeFileSync(join(dist, "meta.json"), JSON.stringify(result.metafile));
written.add("meta.json");
prune(dist);
