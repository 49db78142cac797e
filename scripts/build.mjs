// Bundles src/cli.ts into dist/ with esbuild: one entry plus lazily loaded chunks, so the
// program starts without resolving node_modules at run time. Files are replaced atomically and
// stale chunks removed, so a program running from dist/ during a rebuild never sees half a file.
import { build } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const dist = join(root, "dist");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/**
 * Build-time patches of dependencies, each for a measured start-up cost:
 * - yoga-layout decodes its WebAssembly through fetch() when fetch exists, which loads undici
 *   (~40 ms); its own base64 path needs nothing.
 * - string-width sends any non-ASCII string (our borders, glyphs and separators) through a Unicode
 *   property regex whose first compilation costs ~50-60 ms; the characters in narrow-chars.json
 *   are one column wide, so they join the ASCII fast path (tests/build/string-width-patch.test.ts).
 */
const narrow = JSON.parse(readFileSync(join(root, "scripts/narrow-chars.json"), "utf8"));
const narrowClass = narrow.ranges.map(([a, b]) => (a === b ? `\\u${a}` : `\\u${a}-\\u${b}`)).join("");

const applied = { yoga: 0, stringWidth: 0, inkIncremental: 0, inkOutput: 0 };
const patches = {
  name: "nanohermes-patches",
  setup(b) {
    b.onLoad({ filter: /yoga-wasm-base64-esm\.js$/ }, async (a) => {
      const text = readFileSync(a.path, "utf8");
      const out = text.replaceAll('"function"!=typeof fetch', "true");
      if (out !== text) applied.yoga++;
      return { contents: out, loader: "js" };
    });
    // Several string-width versions are installed; the one Ink uses has this fast path.
    b.onLoad({ filter: /node_modules[\/\\]string-width[\/\\]index\.js$/ }, async (a) => {
      const text = readFileSync(a.path, "utf8");
      const out = text
        .replace("if (/^[\\u0020-\\u007E]*$/.test(string)) {", `if (/^[${narrowClass}]*$/.test(string)) {`)
        // Its segmenter is built on first use instead of at import (~15 ms).
        .replace("const segmenter = new Intl.Segmenter();", "let segmenterInstance;")
        .replace("of segmenter.segment(string)", "of (segmenterInstance ??= new Intl.Segmenter()).segment(string)");
      if (out !== text) applied.stringWidth++;
      return { contents: out, loader: "js" };
    });
    // Ink 6.8's incremental renderer moves up one line too few when the frame ends with a newline
    // (every frame shorter than the terminal, which is all of ours: rows - 1): each update is then
    // drawn one line lower and the last line is lost. tests/e2e/tui-*.test.ts watch for it.
    b.onLoad({ filter: /node_modules[\/\\]ink[\/\\]build[\/\\]log-update\.js$/ }, async (a) => {
      const text = readFileSync(a.path, "utf8");
      const out = text.replace("buffer.push(ansiEscapes.cursorUp(previousVisible - 1));", "buffer.push(ansiEscapes.cursorUp(previousVisible - (previousOutput.endsWith('\\n') ? 0 : 1)));");
      if (out !== text) applied.inkIncremental++;
      return { contents: out, loader: "js" };
    });
    // Ink rebuilds every frame cell by cell (an object per cell, ANSI parsed and re-serialised),
    // ~4 ms a frame at 120x40 and most of a streaming turn's CPU. Our App renders the whole
    // screen as one text node of width-exact lines at (0, 0); for that case the cells would come
    // out as the lines went in, so they are passed through (tests/build/ink-output-patch.test.ts).
    b.onLoad({ filter: /node_modules[\/\\]ink[\/\\]build[\/\\]output\.js$/ }, async (a) => {
      const text = readFileSync(a.path, "utf8");
      const fast = `get() {
        if (this.operations.length === 1 && this.operations[0].type === 'write' && this.operations[0].x === 0 && this.operations[0].y === 0) {
            const op = this.operations[0];
            const lines = op.text.split('\\n');
            if (lines.length <= this.height) {
                for (const transformer of op.transformers) for (let i = 0; i < lines.length; i++) lines[i] = transformer(lines[i], i);
                for (let i = 0; i < lines.length; i++) lines[i] = lines[i].trimEnd();
                while (lines.length < this.height) lines.push('');
                return { output: lines.join('\\n'), height: this.height };
            }
        }
        return this.getByCells();
    }
    getByCells() {`;
      const out = text.replace("    get() {\n        // Initialize output array", `    ${fast}\n        // Initialize output array`);
      if (out !== text) applied.inkOutput++;
      return { contents: out, loader: "js" };
    });
    b.onEnd(() => {
      for (const [name, count] of Object.entries(applied)) {
        if (count === 0) throw new Error(`the ${name} start-up patch no longer applies: measure the start-up cost again and update scripts/build.mjs`);
      }
    });
  },
};

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
  plugins: [patches],
  jsx: "automatic",
  logLevel: "warning",
});

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
