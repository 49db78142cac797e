// Bundles src/cli.ts into dist/ with esbuild: one entry plus lazily loaded chunks, so the
// program starts without resolving node_modules at run time. Files are replaced atomically and
// stale chunks removed, so a program running from dist/ during a rebuild never sees half a file.
import { build } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { builtinFacades } from "./builtin-facades.mjs";
import { inkPatches } from "./ink-patches.mjs";
import { openaiSlim, UNUSED_OPENAI_HELPERS, UNUSED_OPENAI_RESOURCES } from "./openai-slim.mjs";

const root = resolve(import.meta.dirname, "..");
const dist = join(root, "dist");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

const { plugin: patches } = inkPatches(root);
const slim = openaiSlim();

const result = await build({
  absWorkingDir: root,
  entryPoints: ["src/cli.ts"],
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  minify: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  write: false,
  metafile: true,
  // Native addons (sharp's libvips, better-sqlite3's SQLite) load their .node files at run time
  // from node_modules; bundling cannot carry them.
  external: ["sharp", "better-sqlite3"],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __nhCreateRequire } from 'node:module'; const require = __nhCreateRequire(import.meta.url);",
  },
  define: { __NANOHERMES_VERSION__: JSON.stringify(pkg.version), "process.env.NODE_ENV": '"production"' },
  alias: {
    "react-devtools-core": join(root, "scripts/stubs/react-devtools-core.mjs"),
    "is-in-ci": join(root, "scripts/stubs/is-in-ci.mjs"),
  },
  plugins: [slim.plugin, builtinFacades(), patches],
  jsx: "automatic",
  logLevel: "warning",
});

// Every unused module was replaced: one the SDK renamed or moved would be bundled in full again.
const stubs = UNUSED_OPENAI_RESOURCES.length + UNUSED_OPENAI_HELPERS.length;
if (slim.applied.stubs !== stubs) throw new Error(`openai-slim: ${slim.applied.stubs} of ${stubs} modules replaced`);

const written = new Set();
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  const tmp = `${file.path}.tmp-${process.pid}`;
  writeFileSync(tmp, file.contents, { mode: file.path.endsWith("cli.js") ? 0o755 : 0o644 });
  renameSync(tmp, file.path);
  written.add(relative(dist, file.path));
}

function prune(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) prune(path);
    else if (!written.has(relative(dist, path)) && !entry.name.includes(".tmp-")) rmSync(path, { force: true });
  }
}
// Which modules went into which file, for the tests that guard the bundle's weight.
writeFileSync(join(dist, "meta.json"), JSON.stringify(result.metafile));
written.add("meta.json");
prune(dist);
