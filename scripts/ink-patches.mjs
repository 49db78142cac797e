// The build-time patches of dependencies (an esbuild plugin), apart from scripts/build.mjs so that
// tests/build/ink-output-patch.test.ts can bundle Ink's modules with them and check they still apply.
import { readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * Contract: `plugin` patches the modules below as esbuild loads them; `applied` counts each
 * patch that took, and (when `strict`) the build fails when one no longer applies (Ink or a
 * dependency changed).
 */
/** Ink's reconciler module (Ink's package exports only its index), as a real path. */
export function inkReconcilerPath(root) {
  const ink = createRequire(join(root, "package.json")).resolve("ink");
  return realpathSync(join(dirname(ink), "reconciler.js"));
}

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

  const applied = {
    yoga: 0,
    stringWidth: 0,
    stringWidthCache: 0,
    inkIncremental: 0,
    inkFrameNow: 0,
    inkOwnSync: 0,
    widestLine: 0,
    inkSanitize: 0,
    inkMeasureCache: 0,
    inkWriter: 0,
    inkOutput: 0,
    openaiHeaders: 0,
    openaiFormData: 0,
    openaiReadableStream: 0,
  };
  const patches = {
    name: "nanohermes-patches",
    setup(b) {
      // `#ink-reconciler` (src/ui/terminal/ink-updates.ts): the reconciler module Ink itself imports,
      // by its real path as esbuild names Ink's own import of it, so the bundle holds one copy.
      b.onResolve({ filter: /^#ink-reconciler$/ }, () => ({ path: inkReconcilerPath(root) }));
      b.onLoad({ filter: /yoga-wasm-base64-esm\.js$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        const out = text.replaceAll('"function"!=typeof fetch', "true");
        if (out !== text) applied.yoga++;
        return { contents: out, loader: "js" };
      });
      // Several string-width versions are installed; the one Ink uses has this fast path.
      b.onLoad({ filter: /node_modules[/\\]string-width[/\\]index\.js$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        const out = text
          .replace("if (/^[\\u0020-\\u007E]*$/.test(string)) {", `if (/^[${narrowClass}]*$/.test(string)) {`)
          // Its segmenter is built on first use instead of at import (~15 ms).
          .replace("const segmenter = new Intl.Segmenter();", "let segmenterInstance;")
          .replace("of segmenter.segment(string)", "of (segmenterInstance ??= new Intl.Segmenter()).segment(string)")
          // V8 checks a regex literal's syntax when the module is parsed; \p{RGI_Emoji} costs ~25-40 ms
          // there, before the first frame. Built on first use instead.
          .replace(
            "const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;",
            'let rgiEmojiInstance; const rgiEmojiRegex = { test: (s) => (rgiEmojiInstance ??= new RegExp("^\\\\p{RGI_Emoji}$", "v")).test(s) };',
          );
        if (out !== text) applied.stringWidth++;
        // Ink measures every line of every text node at each layout and again at each frame (its
        // own caches last one frame), and a styled line's width costs an ANSI strip and a Unicode
        // scan. From one frame to the next most lines are the same strings: their widths are
        // remembered (a bounded map, emptied when full).
        const cached = out.replace(
          "export default function stringWidth(input, options = {}) {",
          `const nhWidths = new Map();
export default function stringWidth(input, options) {
	if (options !== undefined || typeof input !== 'string') return measuredWidth(input, options);
	let width = nhWidths.get(input);
	if (width === undefined) {
		if (nhWidths.size >= 4096) nhWidths.clear();
		width = measuredWidth(input);
		nhWidths.set(input, width);
	}
	return width;
}

function measuredWidth(input, options = {}) {`,
        );
        if (cached !== out) applied.stringWidthCache++;
        return { contents: cached, loader: "js" };
      });
      // Ink 6.8's incremental renderer moves up one line too few when the frame ends with a newline
      // (every frame shorter than the terminal, which is all of ours: rows - 1): each update is then
      // drawn one line lower and the last line is lost. tests/e2e/tui-*.test.ts watch for it.
      b.onLoad({ filter: /node_modules[/\\]ink[/\\]build[/\\]log-update\.js$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        const out = text.replace(
          "buffer.push(ansiEscapes.cursorUp(previousVisible - 1));",
          "buffer.push(ansiEscapes.cursorUp(previousVisible - (previousOutput.endsWith('\\n') ? 0 : 1)));",
        );
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
      // A frame that answers a key is drawn at once instead of at the frame rate's next slot
      // (src/ui/terminal/frame-now.ts): the store raises the flag when it notifies for a UI change.
      b.onLoad({ filter: /node_modules[/\\]ink[/\\]build[/\\]ink\.js$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        const frameNow = JSON.stringify(join(root, "src/ui/terminal/frame-now.ts").replaceAll("\\", "/"));
        const out = text.replace(
          "                this.hasPendingThrottledRender = true;\n                throttled();\n",
          "                this.hasPendingThrottledRender = true;\n                throttled();\n                if (nhTakeFrameNow()) throttled.flush();\n",
        );
        if (out === text) return { contents: text, loader: "js" };
        applied.inkFrameNow++;
        // Ink writes its synchronized-update markers around every throttled frame, each in a write
        // of its own (three syscalls a frame); our writer puts them in its one write where they
        // matter (src/ui/terminal/cell-writer.ts), so Ink leaves them out for it.
        const sync = out.replace(
          "const shouldWrite = this.log.willRender(output);\n                const sync = shouldSynchronize(this.options.stdout);",
          "const shouldWrite = this.log.willRender(output);\n                const sync = shouldSynchronize(this.options.stdout) && !this.log.synchronizesFrames;",
        );
        if (sync !== out) applied.inkOwnSync++;
        return { contents: `import { takeFrameNow as nhTakeFrameNow } from ${frameNow};\n${sync}`, loader: "js" };
      });
      // Ink asks each text node's widest line at every frame (to know whether to wrap it), and every
      // pane's text but the transcript's is the string it was the frame before: remembered.
      b.onLoad({ filter: /node_modules[/\\]widest-line[/\\]index\.js$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        const out = text.replace(
          "export default function widestLine(string) {",
          "const nhWidest = new Map();\nexport default function widestLine(string) {\n\tconst known = nhWidest.get(string);\n\tif (known !== undefined) return known;\n\tif (nhWidest.size >= 64) nhWidest.clear();\n\tconst width = widestLineOnce(string);\n\tnhWidest.set(string, width);\n\treturn width;\n}\nfunction widestLineOnce(string) {",
        );
        if (out !== text) applied.widestLine++;
        return { contents: out, loader: "js" };
      });
      // Ink keeps only SGR and OSC sequences of a text node, tokenizing all of its text to find
      // others, at each layout and at each frame. Text whose every ESC starts an SGR sequence
      // (all of ours: chalk's colours) and that holds no C1 control comes out as it went in.
      b.onLoad({ filter: /node_modules[/\\]ink[/\\]build[/\\]sanitize-ansi\.js$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        const out = text.replace(
          "    if (!hasAnsiControlCharacters(text)) {",
          "    if (!/\\u001B(?!\\[[\\d:;]*m)|[\\u0080-\\u009F]/.test(text)) {",
        );
        if (out !== text) applied.inkSanitize++;
        return { contents: out, loader: "js" };
      });
      // Ink's text measurements are cached by text and never dropped: a streamed reply is a new
      // text every frame, so the map grew by a screenful of text per frame for the whole session.
      b.onLoad({ filter: /node_modules[/\\]ink[/\\]build[/\\]measure-text\.js$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        const out = text.replace(
          "    cache.set(text, dimensions);",
          "    if (cache.size >= 256) cache.clear();\n    cache.set(text, dimensions);",
        );
        if (out !== text) applied.inkMeasureCache++;
        return { contents: out, loader: "js" };
      });
      // Ink rebuilds every frame cell by cell (an object per cell, ANSI parsed and re-serialised),
      // ~4 ms a frame at 120x40 and most of a streaming turn's CPU. Our panes are Boxes each holding
      // one text node of width-exact lines, so a frame is a few non-overlapping rectangles of text:
      // each row is then the rectangles' lines that cover it, left to right, with spaces in the gaps,
      // which is what the cells would come out as. Anything else (overlapping writes, a clip that
      // cuts a write, text past the frame) takes Ink's cell path (tests/build/ink-output-patch.test.ts).
      b.onLoad({ filter: /node_modules[/\\]ink[/\\]build[/\\]output\.js$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        const fast = `get() {
          return this.getByRects() ?? this.getByCells();
      }
      getByRects() {
          const rects = [];
          const clips = [];
          for (const op of this.operations) {
              if (op.type === 'clip') { clips.push(op.clip); continue; }
              if (op.type === 'unclip') { clips.pop(); continue; }
              if (op.type !== 'write') return null;
              // A pane's text is mostly the same string as in the last frames: its lines and widths are kept.
              let split = op.transformers.length === 0 ? nhRectLines.get(op.text) : undefined;
              if (!split) {
                  const lines = op.text.split('\\n');
                  for (const transformer of op.transformers) for (let i = 0; i < lines.length; i++) lines[i] = transformer(lines[i], i);
                  const widths = lines.map(line => this.caches.getStringWidth(line));
                  split = { lines, widths, w: Math.max(...widths) };
                  if (op.transformers.length === 0) {
                      if (nhRectLines.size >= 64) nhRectLines.clear();
                      nhRectLines.set(op.text, split);
                  }
              }
              const { lines, widths, w } = split;
              const r = { x: op.x, y: op.y, w, h: lines.length, lines, widths };
              if (r.x < 0 || r.y < 0 || r.x + r.w > this.width || r.y + r.h > this.height) return null;
              const clip = clips.at(-1);
              // A clip that contains the write changes nothing; one that cuts it needs the cells.
              if (clip && ((typeof clip.x1 === 'number' && (r.x < clip.x1 || r.x + r.w > clip.x2)) || (typeof clip.y1 === 'number' && (r.y < clip.y1 || r.y + r.h > clip.y2)))) return null;
              for (const o of rects) if (r.x < o.x + o.w && o.x < r.x + r.w && r.y < o.y + o.h && o.y < r.y + r.h) return null;
              rects.push(r);
          }
          rects.sort((a, b) => a.x - b.x);
          const rows = [];
          for (let y = 0; y < this.height; y++) {
              let row = '';
              let at = 0;
              for (const r of rects) {
                  if (y < r.y || y >= r.y + r.h) continue;
                  if (r.x > at) row += ' '.repeat(r.x - at);
                  row += r.lines[y - r.y];
                  at = r.x + r.widths[y - r.y];
              }
              rows.push(row.trimEnd());
          }
          return { output: rows.join('\\n'), height: this.height };
      }
      getByCells() {`;
        const out = text.replace(
          "    get() {\n        // Initialize output array",
          `    ${fast}\n        // Initialize output array`,
        );
        if (out !== text) applied.inkOutput++;
        return { contents: `const nhRectLines = new Map();\n${out}`, loader: "js" };
      });
      // The openai SDK's modules that touch the global Headers (which loads undici) get a small one
      // of ours instead (src/agent/providers/sdk-headers.ts); its requests go through node:http.
      const sdkHeaders = JSON.stringify(join(root, "src/agent/providers/sdk-headers.ts"));
      b.onLoad({ filter: /node_modules[/\\]openai[/\\]internal[/\\](headers|utils[/\\]log)\.mjs$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        if (text.includes("Headers")) applied.openaiHeaders++;
        return {
          contents: `import { Headers } from ${sdkHeaders};\n${text}`,
          loader: "js",
          resolveDir: dirname(a.path),
        };
      });
      // Its body check tests `instanceof FormData`, whose first touch loads undici too; we never send
      // multipart bodies, so in the client module FormData is a class nothing is an instance of.
      // Likewise `globalThis.ReadableStream`: Node builds that global on first touch, loading its web
      // streams (~10 ms before the first request); our bodies are strings, never streams.
      b.onLoad({ filter: /node_modules[/\\]openai[/\\]client\.mjs$/ }, async (a) => {
        const text = readFileSync(a.path, "utf8");
        if (text.includes("instanceof FormData")) applied.openaiFormData++;
        const out = text.replaceAll("globalThis.ReadableStream", "nhNoReadableStream");
        if (out !== text) applied.openaiReadableStream++;
        return {
          contents: `const FormData = class FormData {};\nconst nhNoReadableStream = undefined;\n${out}`,
          loader: "js",
          resolveDir: dirname(a.path),
        };
      });
      b.onEnd(() => {
        if (!strict) return;
        const missing = Object.entries(applied).flatMap(([name, count]) => (count === 0 ? [name] : []));
        if (missing.length > 0)
          throw new Error(
            `patches that no longer apply (a dependency changed): ${missing.join(", ")}; read each one's reason in scripts/ink-patches.mjs, measure again and update or drop it`,
          );
      });
    },
  };
  return { plugin: patches, applied };
}
