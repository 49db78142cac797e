// The diffs that cut the cost of a streamed frame (patches/, applied by scripts/dep-patches.mjs) still
// apply, and change what they claim to change only: Ink's ANSI sanitizing, its text measurements,
// string-width's and widest-line's remembered widths, and the frame drawn at once for a key (src/ui/terminal/frame-now.ts).
// Ink's modules are bundled here with the build's plugin, then run.
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depPatches, stubModules } from "../../scripts/dep-patches.mjs";
import { stockModule } from "../helpers/stock-module.js";

const { default: unpatchedWidth } = await stockModule<typeof import("string-width")>("string-width");

const root = resolve(import.meta.dirname, "../..");

interface Bundle {
  sanitizeAnsi(text: string): string;
  measureText(text: string): { width: number; height: number };
  stringWidth(text: string, options?: { countAnsiEscapeCodes?: boolean }): number;
  widestLine(text: string): number;
  frameNow: { pending: boolean };
  render: typeof import("ink").render;
  Text: typeof import("ink").Text;
  createElement: typeof import("react").createElement;
}

let dir = "";
let patched: Bundle;
let applied: Record<string, number>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "nh-ink-frame-"));
  const ink = join(root, "node_modules/ink/build");
  const from = (name: string, path: string) => `export { default as ${name} } from ${JSON.stringify(path)};`;
  writeFileSync(
    join(dir, "entry.mjs"),
    [
      from("sanitizeAnsi", join(ink, "sanitize-ansi.js")),
      from("measureText", join(ink, "measure-text.js")),
      from("stringWidth", join(root, "node_modules/string-width/index.js")),
      from("widestLine", join(root, "node_modules/widest-line/index.js")),
      `export { render, Text } from ${JSON.stringify(join(ink, "index.js"))};`,
      `export { createElement } from "react";`,
      `export { frameNow } from ${JSON.stringify(join(root, "src/ui/terminal/frame-now.ts"))};`,
    ].join("\n"),
  );
  const patches = depPatches(root, { strict: false });
  await build({
    entryPoints: [join(dir, "entry.mjs")],
    outfile: join(dir, "patched.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    plugins: [patches.plugin],
    // As the build: Ink's optional devtools hook is a stub, so is its CI check (with CI set, as on
    // the CI machine, Ink would draw only the last frame), and React is the production build.
    alias: stubModules(root),
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
    nodePaths: [join(root, "node_modules")],
  });
  applied = patches.applied;
  patched = (await import(pathToFileURL(join(dir, "patched.mjs")).href)) as Bundle;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A terminal for Ink to draw on: every write kept in `writes`. */
function ttyOut(columns: number, rows: number, writes: string[]): NodeJS.WriteStream {
  return Object.assign(new EventEmitter(), {
    columns,
    rows,
    isTTY: true,
    write: (s: string) => void writes.push(s),
  }) as unknown as NodeJS.WriteStream;
}

/**
 * How many times `run` calls String.prototype[method] on `text`: what a patched module skips (a
 * remembered result, a tokenizer not run) shows as calls that no longer happen.
 */
function callsOn(method: "includes" | "split", text: string, run: () => void): number {
  const proto = String.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const original = proto[method]!;
  let calls = 0;
  proto[method] = function (this: unknown, ...args: unknown[]) {
    if (this === text) calls++;
    return original.apply(this, args);
  };
  try {
    run();
  } finally {
    proto[method] = original;
  }
  return calls;
}

describe("the streamed-frame patches", () => {
  it("apply to the installed Ink and string-width", () => {
    for (const diff of [
      "ink@6.8.0/3-frame-now",
      "ink@6.8.0/4-own-sync-markers",
      "ink@6.8.0/5-sanitize-sgr-fast-path",
      "ink@6.8.0/6-measure-cache-bound",
      "widest-line@6.0.0/1-remembered-widths",
      "string-width@8.3.0/4-remembered-widths",
    ])
      expect(applied[`patches/${diff}.diff`], diff).toBe(1);
  });

  it("keep SGR-only text as it is, and still strip cursor moves and other controls", () => {
    const styled = "\x1b[1mbold\x1b[22m \x1b[38;5;245mgrey\x1b[39m \x1b[38:2::1:2:3mtrue\x1b[m";
    expect(patched.sanitizeAnsi(styled)).toBe(styled);
    expect(patched.sanitizeAnsi("plain text")).toBe("plain text");
    // Not SGR: the tokenizer's path, which drops them.
    expect(patched.sanitizeAnsi("a\x1b[2Jb\x1b[10;3Hc")).toBe("abc");
    expect(patched.sanitizeAnsi("x\x1b[?25ly")).toBe("xy");
    // OSC hyperlinks are kept (the slow path keeps them too).
    const link = "\x1b]8;;https://example.com\x07link\x1b]8;;\x07";
    expect(patched.sanitizeAnsi(link)).toBe(link);
    // A C1 CSI (0x9b) is a control even without ESC.
    expect(patched.sanitizeAnsi("p\u009b2Jq")).toBe("pq");
  });

  it("run no tokenizer over SGR-only text (Ink's own check reads it with includes, then tokenizes)", () => {
    const styled = "\x1b[1mbold\x1b[22m and \x1b[38;5;245mgrey\x1b[39m, once";
    expect(callsOn("includes", styled, () => patched.sanitizeAnsi(styled))).toBe(0);
    // Text with a cursor move still takes Ink's path.
    const moving = "a\x1b[2Jb, once";
    expect(callsOn("includes", moving, () => patched.sanitizeAnsi(moving))).toBeGreaterThan(0);
  });

  it("string-width measures a string once, then answers from memory (not with options)", () => {
    const line = "\x1b[2m│\x1b[22m remembered 中文 line";
    expect(callsOn("includes", line, () => patched.stringWidth(line))).toBeGreaterThan(0);
    expect(callsOn("includes", line, () => patched.stringWidth(line))).toBe(0);
    expect(callsOn("includes", line, () => patched.stringWidth(line, {}))).toBeGreaterThan(0);
  });

  it("widest-line splits a text once, then answers from memory", () => {
    const text = "widest\nline 中文 remembered";
    expect(callsOn("split", text, () => expect(patched.widestLine(text)).toBe(20))).toBe(1);
    expect(callsOn("split", text, () => expect(patched.widestLine(text)).toBe(20))).toBe(0);
  });

  it("Ink's text measurements forget old texts once 256 are kept", () => {
    const first = "kept first\nthen flooded";
    patched.measureText(first);
    expect(callsOn("split", first, () => patched.measureText(first))).toBe(0);
    for (let i = 0; i < 300; i++) patched.measureText(`flood ${i}\nline`);
    // Measured again, not answered from a map that grew without end.
    expect(
      callsOn("split", first, () => expect(patched.measureText(first)).toEqual({ width: 12, height: 2 })),
    ).toBeGreaterThan(0);
  });

  it("measure widths as before, remembered or not", () => {
    const lines = ["\x1b[2m│\x1b[22m 中文 text", "plain", "é\u0301 and 🙂", "\x1b[31mred\x1b[39m"];
    const first = lines.map((l) => patched.stringWidth(l));
    expect(first).toEqual(lines.map((l) => unpatchedWidth(l)));
    expect(first[0]).toBe(11);
    expect(lines.map((l) => patched.stringWidth(l))).toEqual(first);
    // Options bypass the memory: counting the escapes gives another width for the same string.
    expect(patched.stringWidth("\x1b[31mred\x1b[39m", { countAnsiEscapeCodes: true })).toBeGreaterThan(3);
    // More distinct strings than it keeps: it empties itself and still answers right.
    for (let i = 0; i < 5000; i++) expect(patched.stringWidth(`row ${i}`)).toBe(`row ${i}`.length);
    expect(patched.stringWidth(lines[0]!)).toBe(11);
  });

  it("measure text as before after Ink's text cache empties itself", () => {
    for (let i = 0; i < 600; i++) patched.measureText(`frame ${i}\nsecond line`);
    expect(patched.measureText("ab\nabcd\n中")).toEqual({ width: 4, height: 3 });
    expect(patched.measureText("frame 3\nsecond line")).toEqual({ width: 11, height: 2 });
  });

  it("draw a commit at once when the frame answers a key, and at the frame rate otherwise", () => {
    const writes: string[] = [];
    const stdout = ttyOut(40, 10, writes);
    const { Text, createElement } = patched;
    // One frame a second: a second commit within it waits for the frame's time.
    const app = patched.render(createElement(Text, null, "first"), {
      stdout,
      patchConsole: false,
      exitOnCtrlC: false,
      maxFps: 1,
    });
    const shown = () => writes.join("");
    expect(shown()).toContain("first");
    app.rerender(createElement(Text, null, "second"));
    expect(shown()).not.toContain("second");
    patched.frameNow.pending = true;
    app.rerender(createElement(Text, null, "third"));
    expect(shown()).toContain("third");
    expect(patched.frameNow.pending).toBe(false);
    app.unmount();
  });

  it("leave a frame's synchronized-update markers to our writer: one write a frame, markers only around a large one", () => {
    const writes: string[] = [];
    const stdout = ttyOut(80, 30, writes);
    const { Text, createElement } = patched;
    const app = patched.render(createElement(Text, null, "first"), {
      stdout,
      patchConsole: false,
      exitOnCtrlC: false,
      incrementalRendering: true,
    });
    const frame = (text: string) => {
      writes.length = 0;
      patched.frameNow.pending = true;
      app.rerender(createElement(Text, null, text));
      return [...writes];
    };
    // A streamed frame's few cells: one write, no markers (it reaches the terminal in one read).
    const small = frame("first and more");
    expect(small).toEqual(["\x1b[1;6H and more"]);
    // A screenful: one write that is one synchronized update.
    const big = frame(Array.from({ length: 25 }, (_, i) => `row ${i} ${"x".repeat(60)}`).join("\n"));
    expect(big).toHaveLength(1);
    expect(big[0]!.startsWith("\x1b[?2026h")).toBe(true);
    expect(big[0]!.endsWith("\x1b[?2026l")).toBe(true);
    expect(big[0]!.split("\x1b[?2026h")).toHaveLength(2);
    app.unmount();
  });
});
