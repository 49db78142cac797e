// string-width's diffs (patches/string-width@*/): the characters of narrow-chars.json take the
// ASCII fast path, which is only right if the installed string-width says one column for every
// one; the segmenter and the emoji regex are built on first use, not at import (8.3.0 and
// wrap-ansi's 7.2.0). The modules are bundled with the build's plugin, then run.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, expect, it } from "vitest";
import { depPatches } from "../../scripts/dep-patches.mjs";
import { stockModule } from "../helpers/stock-module.js";

const root = resolve(import.meta.dirname, "../..");
const { default: stockWidth } = await stockModule<typeof import("string-width")>("string-width");
const { ranges } = JSON.parse(readFileSync(resolve(root, "scripts/narrow-chars.json"), "utf8")) as {
  ranges: [string, string][];
};
const narrowClass = ranges.map(([a, b]) => (a === b ? `\\u${a}` : `\\u${a}-\\u${b}`)).join("");

type Width = (s: string) => number;
let dir = "";
let patched: { width8: Width; width7: Width };
let applied: Record<string, number>;
const built = { segmenters: 0, emojiRegexes: 0, segmented: 0 };
const RealSegmenter = Intl.Segmenter;
const RealRegExp = RegExp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "nh-string-width-"));
  const require = createRequire(join(root, "package.json"));
  const width8 = require.resolve("string-width");
  const width7 = createRequire(require.resolve("wrap-ansi")).resolve("string-width");
  writeFileSync(
    join(dir, "entry.mjs"),
    `export { default as width8 } from ${JSON.stringify(width8)};\nexport { default as width7 } from ${JSON.stringify(width7)};\n`,
  );
  const patches = depPatches(root, { strict: false });
  await build({
    entryPoints: [join(dir, "entry.mjs")],
    outfile: join(dir, "patched.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    plugins: [patches.plugin],
    logLevel: "silent",
  });
  applied = patches.applied;
  // What the modules build, counted from their import on.
  (Intl as { Segmenter: typeof Intl.Segmenter }).Segmenter = class extends RealSegmenter {
    constructor(...a: ConstructorParameters<typeof Intl.Segmenter>) {
      super(...a);
      built.segmenters++;
    }
    override segment(s: string) {
      built.segmented++;
      return super.segment(s);
    }
  };
  globalThis.RegExp = new Proxy(RealRegExp, {
    construct(target, args: [string, string?]) {
      if (String(args[0]).includes("RGI_Emoji")) built.emojiRegexes++;
      return Reflect.construct(target, args);
    },
  });
  patched = (await import(pathToFileURL(join(dir, "patched.mjs")).href)) as typeof patched;
}, 60_000);

afterAll(() => {
  (Intl as { Segmenter: typeof Intl.Segmenter }).Segmenter = RealSegmenter;
  globalThis.RegExp = RealRegExp;
  rmSync(dir, { recursive: true, force: true });
});

it("every fast-path character is one column wide by the installed string-width's own rules", () => {
  let checked = 0;
  for (const [from, to] of ranges) {
    for (let cp = parseInt(from, 16); cp <= parseInt(to, 16); cp++) {
      expect(stockWidth(String.fromCodePoint(cp)), `U+${cp.toString(16)}`).toBe(1);
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(200);
});

it("the fast path's class in the diff is narrow-chars.json's", () => {
  const diff = readFileSync(join(root, "patches/string-width@8.3.0/1-narrow-fast-path.diff"), "utf8");
  const added = diff.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++"));
  expect(added).toEqual([`+\tif (/^[${narrowClass}]*$/.test(string)) {`]);
});

it("builds no segmenter and no emoji regex at import; each on first use", () => {
  for (const diff of [
    "string-width@8.3.0/1-narrow-fast-path",
    "string-width@8.3.0/2-lazy-segmenter",
    "string-width@8.3.0/3-lazy-emoji-regex",
    "string-width@7.2.0/1-lazy-segmenter",
  ])
    expect(applied[`patches/${diff}.diff`], diff).toBe(1);
  expect(built).toEqual({ segmenters: 0, emojiRegexes: 0, segmented: 0 });
  // The first text past the fast path builds 8.3.0's segmenter and emoji regex, once.
  expect(patched.width8("中文")).toBe(4);
  expect(built).toMatchObject({ segmenters: 1, emojiRegexes: 1 });
  expect(patched.width8("🙂 again 🙂")).toBe(11);
  expect(built).toMatchObject({ segmenters: 1, emojiRegexes: 1 });
  expect(patched.width7("中文")).toBe(4);
  expect(built.segmenters).toBe(2);
});

it("measures a line of the UI's glyphs without segmenting it, as the stock module counts it", () => {
  const line = "│ ● done · 3s › ─── ⠋ ok…";
  const before = built.segmented;
  expect(patched.width8(line)).toBe(stockWidth(line));
  expect(built.segmented).toBe(before);
  expect(patched.width8(`${line} 中`)).toBe(stockWidth(`${line} 中`));
  expect(built.segmented).toBe(before + 1);
});

it("the built bundle carries the patched fast path", () => {
  const dist = resolve(root, "dist/chunks");
  const files = readdirSync(dist).filter((f) => f.endsWith(".js"));
  // The character class ends with the last range of narrow-chars.json.
  const [a, b] = ranges.at(-1)!;
  const tail = `${a === b ? `\\u${a}` : `\\u${a}-\\u${b}`}]*$/.test(`;
  const patchedChunk = files.some((f) => readFileSync(resolve(dist, f), "utf8").includes(tail));
  expect(patchedChunk).toBe(true);
});
