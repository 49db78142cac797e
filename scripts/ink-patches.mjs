// The build-time patches of dependencies (an esbuild plugin), apart from scripts/build.mjs so that
// tests/build/ink-output-patch.test.ts can bundle Ink's modules with them and check they still apply.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * Contract: `plugin` patches the modules below as esbuild loads them; `applied` counts each
 * patch that took, and (when `strict`) the build fails when one no longer applies (Ink or a
 * dependency changed).
 */
export function inkPatches(root, { strict = true } = {}) {
  /**
   * Build-time patches of dependencies, each for a measured start-up cost:
   * - yoga-layout decodes its WebAssembly through fetch() when fetch exists, which loads undici
   *   (~40 ms); its own base64 path needs nothing.
   * - the openai SDK builds its request headers with the global Headers, whose first touch loads
 *   undici (~10 MB, tens of ms); its own modules get src/agent/providers/sdk-headers.ts instead.
 * - string-width sends any non-ASCII string (our borders, glyphs and separators) through a Unicode
   *   property regex whose first compilation costs ~50-60 ms; the characters in narrow-chars.json
   *   are one column wide, so they join the ASCII fast path (tests/build/string-width-patch.test.ts).
   */
  const narrow = JSON.parse(readFileSync(join(root, "scripts/narrow-chars.json"), "utf8"));
  const narrowClass = narrow.ranges.map(([a, b]) => (a === b ? `\\u${a}` : `\\u${a}-\\u${b}`)).join("");

  const applied = { yoga: 0, stringWidth: 0, inkIncremental: 0, inkWriter: 0, inkOutput: 0, openaiHeaders: 0, openaiFormData: 0 };
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
        // Ink's incremental renderer is replaced by our cell writer (src/ui/terminal/cell-writer.ts):
        // it writes only the cells a frame changes (~100 bytes per streamed token before, issue 17).
        // NANOHERMES_TERMINAL_WRITER=lines keeps Ink's (patched) line writer for side-by-side benches.
        const writer = JSON.stringify(join(root, "src/ui/terminal/cell-writer.ts").replaceAll("\\", "/"));
        const routed = out.replace(
          "const create = (stream, { showCursor = false, incremental = false } = {}) => {\n",
          `import { createCellWriter as nhCellWriter, lineWriterSelected as nhLineWriter, timedWriter as nhTimed } from ${writer};\nconst create = (stream, { showCursor = false, incremental = false } = {}) => {\n    if (incremental) return nhTimed(nhLineWriter() ? createIncremental(stream, { showCursor }) : nhCellWriter(stream, { showCursor }));\n`,
        );
        if (routed !== out) applied.inkWriter++;
        return { contents: routed, loader: "js" };
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
      // The openai SDK's modules that touch the global Headers (which loads undici) get a small one
      // of ours instead (src/agent/providers/sdk-headers.ts); its requests go through node:http.
      const sdkHeaders = JSON.stringify(join(root, "src/agent/providers/sdk-headers.ts"));
      b.onLoad({ filter: /node_modules[\/\\]openai[\/\\]internal[\/\\](headers|utils[\/\\]log)\.mjs$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        if (text.includes("Headers")) applied.openaiHeaders++;
        return { contents: `import { Headers } from ${sdkHeaders};\n${text}`, loader: "js", resolveDir: dirname(a.path) };
      });
      // Its body check tests `instanceof FormData`, whose first touch loads undici too; we never send
      // multipart bodies, so in the client module FormData is a class nothing is an instance of.
      b.onLoad({ filter: /node_modules[\/\\]openai[\/\\]client\.mjs$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        if (text.includes("instanceof FormData")) applied.openaiFormData++;
        return { contents: `const FormData = class FormData {};\n${text}`, loader: "js", resolveDir: dirname(a.path) };
      });
      b.onEnd(() => {
        if (!strict) return;
        for (const [name, count] of Object.entries(applied)) {
          if (count === 0) throw new Error(`the ${name} start-up patch no longer applies: measure the start-up cost again and update scripts/build.mjs`);
        }
      });
    },
  };
  return { plugin: patches, applied };
}
