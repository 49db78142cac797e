// The diffs of Ink (patches/ink@6.8.0/, applied by scripts/dep-patches.mjs) still apply to the installed Ink and do
// what they claim: Ink's modules are bundled here with the same plugin the build uses, then run.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { depPatches } from "../../scripts/dep-patches.mjs";
import { cells, makeTerm, play, repainted } from "../helpers/xterm-screen.js";

const root = resolve(import.meta.dirname, "../..");

interface OutputLike {
  write(
    x: number,
    y: number,
    text: string,
    options: { transformers: ((line: string, index: number) => string)[] },
  ): void;
  get(): { output: string; height: number };
  getByCells(): { output: string; height: number };
}
interface Patched {
  Output: new (o: { width: number; height: number }) => OutputLike;
  logUpdate: {
    create(
      stream: unknown,
      o: { incremental: boolean },
    ): ((s: string) => boolean) & { setCursorPosition(p: { x: number; y: number }): void };
  };
}

let dir = "";
let patched: Patched;
let applied: Record<string, number>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "nh-ink-patch-"));
  const entry = join(dir, "entry.mjs");
  const ink = join(root, "node_modules/ink/build");
  writeFileSync(
    entry,
    `export { default as Output } from ${JSON.stringify(join(ink, "output.js"))};\nexport { default as logUpdate } from ${JSON.stringify(join(ink, "log-update.js"))};\n`,
  );
  const patches = depPatches(root, { strict: false });
  await build({
    entryPoints: [entry],
    outfile: join(dir, "patched.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    plugins: [patches.plugin],
    logLevel: "silent",
  });
  applied = patches.applied;
  patched = (await import(pathToFileURL(join(dir, "patched.mjs")).href)) as Patched;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A frame like the App's: width-exact lines of styled text, borders, a wide character or two. */
function frame(cols: number, rows: number): string[] {
  const lines: string[] = [];
  const padRow = (plain: string, styled: string) => styled + " ".repeat(Math.max(0, cols - plain.length));
  lines.push(padRow(" NanoHermes · model ", "\x1b[7m NanoHermes · model \x1b[27m"));
  for (let i = 1; i < rows - 2; i++) {
    if (i === 3)
      lines.push(padRow("│ 中文 and emoji ", "\x1b[90m│\x1b[39m \x1b[1m中文\x1b[22m and emoji ").slice(0, -2));
    else lines.push(padRow(`│ line ${i} `, `\x1b[90m│\x1b[39m \x1b[38;5;${100 + i}mline ${i}\x1b[39m `));
  }
  lines.push(padRow("status", "\x1b[36mstatus\x1b[39m"));
  return lines;
}

describe("Ink's output stage with the fast path", () => {
  it("every patch applies to the installed Ink", () => {
    for (const diff of ["1-cursor-up-count", "2-cell-writer", "7-output-rect-path"])
      expect(applied[`patches/ink@6.8.0/${diff}.diff`], diff).toBe(1);
  });

  it.each([
    [120, 39],
    [80, 23],
    [50, 19],
  ])("gives the screen Ink's cell path gives for a one-text frame at %ix%i", async (cols, rows) => {
    const lines = frame(cols, rows);
    const out = new patched.Output({ width: cols, height: rows });
    out.write(0, 0, lines.join("\n"), { transformers: [] });
    const fast = out.get();
    const slow = out.getByCells();
    expect(fast.height).toBe(slow.height);
    expect(fast.output.split("\n")).toHaveLength(slow.output.split("\n").length);
    const a = await repainted(fast.output.split("\n"), cols, rows + 1);
    const b = await repainted(slow.output.split("\n"), cols, rows + 1);
    expect(cells(a)).toEqual(cells(b));
  });

  /** The App's panes: a title row, three side-by-side boxes (one with a gap after it), a status row. */
  function panes(cols: number, rows: number): { x: number; y: number; lines: string[] }[] {
    const pad = (plain: string, styled: string, w: number) => styled + " ".repeat(Math.max(0, w - plain.length));
    const left = 20;
    const right = Math.floor(cols / 3);
    const gap = 2;
    const middle = cols - left - right - gap;
    const body = rows - 2;
    const col = (w: number, f: (i: number) => [string, string]) =>
      Array.from({ length: body }, (_, i) => pad(...f(i), w));
    return [
      { x: 0, y: 0, lines: [pad(" NanoHermes · model ", "\x1b[7m NanoHermes · model \x1b[27m", cols)] },
      { x: 0, y: 1, lines: col(left, (i) => [`● task ${i}`, `\x1b[32m●\x1b[39m task ${i}`]) },
      // Wide characters: "中文" is 4 columns in 2 characters, so the plain width is counted by hand.
      {
        x: left,
        y: 1,
        lines: col(middle, (i) =>
          i % 3 === 0
            ? [`中文 line ${i}xx`, `\x1b[1m中文\x1b[22m line ${i}`]
            : [`line ${i}`, `\x1b[38;5;${100 + i}mline ${i}\x1b[39m`],
        ),
      },
      {
        x: left + middle + gap,
        y: 1,
        lines: col(right, (i) => [`│ diff ${i}`, `\x1b[90m│\x1b[39m \x1b[41mdiff ${i}\x1b[49m`]),
      },
      { x: 0, y: rows - 1, lines: [pad("status", "\x1b[36mstatus\x1b[39m", cols)] },
    ];
  }

  it.each([
    [120, 39],
    [80, 23],
    [50, 19],
  ])(
    "composes side-by-side boxes the way the cell path does, colours and wide characters included, at %ix%i",
    async (cols, rows) => {
      const out = new patched.Output({ width: cols, height: rows });
      for (const p of panes(cols, rows)) out.write(p.x, p.y, p.lines.join("\n"), { transformers: [] });
      const byCells = vi.spyOn(out, "getByCells");
      const fast = out.get();
      expect(byCells).not.toHaveBeenCalled();
      const slow = out.getByCells();
      expect(fast.height).toBe(slow.height);
      const a = await repainted(fast.output.split("\n"), cols, rows + 1);
      const b = await repainted(slow.output.split("\n"), cols, rows + 1);
      expect(cells(a)).toEqual(cells(b));
      // The gap between the middle and the right box is blank, and the right box starts after it.
      expect(
        a.buffer.active
          .getLine(2)!
          .translateToString(true)
          .slice(cols - Math.floor(cols / 3) - 2),
      ).toBe("  │ diff 1");
    },
  );

  it("applies each write's transformers (Ink's Transform) before composing", async () => {
    const out = new patched.Output({ width: 10, height: 2 });
    out.write(0, 0, "ab", { transformers: [(line) => line.toUpperCase()] });
    out.write(5, 1, "cd", { transformers: [] });
    expect(out.get().output).toBe("AB\n     cd");
  });

  it.each([
    [
      "overlapping boxes",
      (o: OutputLike) => (
        o.write(0, 0, "hello world", { transformers: [] }), o.write(3, 0, "XY", { transformers: [] })
      ),
    ],
    ["text wider than the frame", (o: OutputLike) => o.write(15, 1, "past the edge", { transformers: [] })],
  ])("falls back to the cell path for %s", (_, draw) => {
    const out = new patched.Output({ width: 20, height: 3 });
    draw(out);
    const byCells = vi.spyOn(out, "getByCells");
    const got = out.get();
    expect(byCells).toHaveBeenCalledOnce();
    expect(got.output).toBe(out.getByCells().output);
  });

  it("places a write that is not at the origin", () => {
    const out = new patched.Output({ width: 20, height: 3 });
    out.write(2, 1, "moved", { transformers: [] });
    expect(out.get().output.split("\n")[1]).toBe("  moved");
  });
});

describe("Ink's log-update with the writer patch", () => {
  const stream = (chunks: string[]) => ({ columns: 80, rows: 24, isTTY: true, write: (c: string) => chunks.push(c) });

  it("creates our cell writer for incremental rendering: absolute moves, only changed cells", async () => {
    const chunks: string[] = [];
    const log = patched.logUpdate.create(stream(chunks), { incremental: true });
    log("one\ntwo\nthree\n");
    chunks.length = 0;
    log("one\ntwo!\nthree\n");
    expect(chunks.join("")).toBe("\x1b[2;4H!");
  });

  it("keeps Ink's line writer (with the line-count fix) when the bench asks for it", async () => {
    const before = process.env.NANOHERMES_TERMINAL_WRITER;
    process.env.NANOHERMES_TERMINAL_WRITER = "lines";
    try {
      const chunks: string[] = [];
      const log = patched.logUpdate.create(stream(chunks), { incremental: true });
      log("one\ntwo\nthree\n");
      log("one\ntwo!\nthree\n");
      const term = makeTerm(80, 24);
      await play(term, chunks.join(""));
      expect(chunks.join("")).toContain("\x1b[E");
      // The fix: the update lands on the lines it replaces.
      expect(term.buffer.active.getLine(1)!.translateToString(true)).toBe("two!");
      expect(term.buffer.active.getLine(3)!.translateToString(true)).toBe("");
    } finally {
      if (before === undefined) delete process.env.NANOHERMES_TERMINAL_WRITER;
      else process.env.NANOHERMES_TERMINAL_WRITER = before;
    }
  });
});

describe("the built bundle", () => {
  const chunks = () => {
    const d = join(root, "dist/chunks");
    return readdirSync(d)
      .filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(join(d, f), "utf8"));
  };
  it("carries the cell writer and the output fast path", () => {
    const all = chunks();
    expect(all.some((c) => c.includes("NANOHERMES_TERMINAL_WRITER"))).toBe(true);
    // Ink's renderer (with its synchronized-update markers) and the writer's SGR-from-reset sit in one chunk.
    expect(all.some((c) => c.includes("\\x1B[?2026h") && c.includes("\\x1B[0;${"))).toBe(true);
    expect(all.some((c) => c.includes("getByCells"))).toBe(true);
  });
});
