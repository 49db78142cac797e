// Turns esbuild's ES module chunks into scripts that src/start.ts runs through V8's code cache
// (Node 20 caches compiled code only for scripts, never for ES modules). Each chunk becomes the
// body of a CommonJS-style function: esbuild rewrites its imports into require() calls that read
// the exported bindings live (cycles between chunks keep working), lowers dynamic import() to
// require(), and maps import.meta.url to a parameter. Nothing is patched by matching library text;
// the two things esbuild cannot express in CommonJS are handled here, and the build fails when
// they do not hold:
// - A chunk whose top level awaits (Ink's yoga-layout, which awaits its WebAssembly) runs as an
//   async function: each top-level `await` esbuild reports is swapped for a marker before the
//   conversion and back after it, and a dynamic import of such a chunk waits for it
//   (`require.ready`). A static import of one would make its importer async too: refused.
// - The bundle banner's createRequire is dropped: the loader passes require in.
import { createHash } from "node:crypto";
import { relative, resolve } from "node:path";
import { build, transformSync } from "esbuild";

/** The banner scripts/build.mjs puts on every chunk; a script gets `require` as a parameter instead. */
export const BANNER =
  "import { createRequire as __nhCreateRequire } from 'node:module'; const require = __nhCreateRequire(import.meta.url);";
const SHEBANG = "#!/usr/bin/env node\n";
/** What src/start.ts passes each script, in order. */
export const SCRIPT_PARAMS = "exports, require, module, __filename, __dirname, __nhUrl";
const MARKER = "__nhTopLevelAwait__";

const convert = (code) =>
  transformSync(code, {
    format: "cjs",
    platform: "node",
    target: "node20",
    logLevel: "silent",
    // Whitespace only: identifiers are already short, and the dynamic imports of awaiting chunks
    // are found by esbuild's own helper name below.
    minifyWhitespace: true,
    supported: { "dynamic-import": false },
    define: { "import.meta.url": "__nhUrl", "import.meta.dirname": "__dirname", "import.meta.filename": "__filename" },
  }).code;

/** Offsets of the top-level awaits esbuild refuses in `code`, or [] when it converts as it is. */
function topLevelAwaits(code) {
  try {
    convert(code);
    return [];
  } catch (error) {
    const errors = error.errors ?? [];
    const awaits = errors.filter((e) => /Top-level await/.test(e.text));
    if (awaits.length === 0 || awaits.length !== errors.length) throw error;
    // Line starts, to turn esbuild's line and column (a column counts UTF-8 bytes) into offsets.
    const starts = [0];
    for (let i = 0; i < code.length; i++) if (code[i] === "\n") starts.push(i + 1);
    const inLine = (text, bytes) => Buffer.from(text, "utf8").subarray(0, bytes).toString("utf8").length;
    return awaits.map((e) => starts[e.location.line - 1] + inLine(e.location.lineText, e.location.column));
  }
}

/**
 * Converts the build's output files (esbuild's `outputFiles`, paths relative to `dist`) in place.
 * `entry` is the entry chunk's path, which moves to `main.js`. Returns, for src/start.ts, each
 * script's hash and the awaiting ones, and the list of files to write.
 */
export function asScripts(files, { entry, metafile, relativeTo }) {
  const scripts = new Map();
  const awaiting = new Set();
  for (const file of files) {
    const path = relativeTo(file.path);
    if (!path.endsWith(".js")) continue;
    let code = file.text;
    if (code.startsWith(SHEBANG)) code = code.slice(SHEBANG.length);
    if (!code.startsWith(BANNER)) throw new Error(`as-scripts: ${path} does not start with the bundle banner`);
    code = code.slice(BANNER.length);
    const offsets = topLevelAwaits(code);
    for (const at of offsets.sort((a, b) => b - a)) {
      if (code.slice(at, at + 5) !== "await") throw new Error(`as-scripts: no await at ${path}:${at}`);
      code = `${code.slice(0, at)}${MARKER}*${code.slice(at + 5)}`;
    }
    let script = convert(code);
    if (offsets.length > 0) {
      const marked = script.split(`${MARKER}*`).length - 1;
      if (marked !== offsets.length) throw new Error(`as-scripts: ${path}: ${marked} of ${offsets.length} awaits kept`);
      script = script.replaceAll(`${MARKER}*`, "await ");
      awaiting.add(path);
    }
    scripts.set(path === entry ? "main.js" : path, script);
  }

  // Nothing may import an awaiting chunk statically; a dynamic import of one waits for it.
  for (const [out, info] of Object.entries(metafile.outputs)) {
    for (const imp of info.imports) {
      if (!awaiting.has(relativeTo(imp.path))) continue;
      if (imp.kind !== "dynamic-import")
        throw new Error(`as-scripts: ${out} imports ${imp.path} statically, and its top level awaits`);
    }
  }
  for (const name of awaiting) {
    const base = name.split("/").at(-1).replace(/[.$]/g, "\\$&");
    const lowered = new RegExp(
      `Promise\\.resolve\\(\\)\\.then\\(\\(\\)=>__toESM\\(require\\(("(?:\\./|\\.\\./|\\./chunks/)${base}")\\)\\)\\)`,
      "g",
    );
    for (const [path, script] of scripts) {
      const waited = script.replace(lowered, (_m, spec) => `require.ready(${spec}).then((m)=>__toESM(m))`);
      if (new RegExp(`require\\("[^"]*/${base}"\\)`).test(waited))
        throw new Error(`as-scripts: ${path} loads ${name} without waiting for it`);
      scripts.set(path, waited);
    }
  }

  // Each script is written as the function src/start.ts calls, so the loader compiles the file's
  // text as it is read: no second copy of every script's source while the program starts.
  for (const [path, script] of scripts) {
    const head = awaiting.has(path) ? "(async function (" : "(function (";
    scripts.set(path, `${head}${SCRIPT_PARAMS}) {${script}\n})`);
  }
  const hashes = {};
  for (const [path, script] of scripts) hashes[path] = createHash("sha256").update(script).digest("hex").slice(0, 32);
  return { scripts, hashes, awaiting: [...awaiting] };
}

/** dist/package.json: the scripts and dist/cli.js are CommonJS, whatever the package around says. */
export const DIST_PACKAGE = `${JSON.stringify({ type: "commonjs" })}\n`;

/**
 * The files of the program from esbuild's result (`write: false`, entry `cli.js`, the banner on
 * every chunk): the scripts, dist/cli.js built from src/start.ts with their hashes, and the
 * dist/package.json that makes it CommonJS. Paths are relative to `dist`.
 */
export async function programFiles(result, { root, dist, version }) {
  const relativeTo = (path) => relative(dist, resolve(root, path));
  const { scripts, hashes, awaiting } = asScripts(result.outputFiles, {
    entry: "cli.js",
    metafile: result.metafile,
    relativeTo,
  });
  const start = await build({
    absWorkingDir: root,
    entryPoints: [resolve(import.meta.dirname, "../src/start.ts")],
    bundle: true,
    // CommonJS: Node starts it without its ES module loader (dist/package.json below says so).
    format: "cjs",
    platform: "node",
    target: "node20",
    minify: true,
    legalComments: "none",
    write: false,
    banner: { js: "#!/usr/bin/env node" },
    define: {
      __NANOHERMES_VERSION__: JSON.stringify(version),
      __NANOHERMES_SCRIPTS__: JSON.stringify({ hashes, async: awaiting }),
    },
    logLevel: "warning",
  });
  return new Map([...scripts, ["cli.js", start.outputFiles[0].text], ["package.json", DIST_PACKAGE]]);
}
