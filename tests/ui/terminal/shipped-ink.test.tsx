// Component tests run the Ink that ships: vitest.config.ts applies the build's diffs (patches/,
// scripts/dep-patches.mjs) as vite loads Ink. Each test here fails on the installed, unpatched Ink.
import { EventEmitter } from "node:events";
import { dirname, join, resolve } from "node:path";
import { Box, render, Text } from "ink";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { inkReconcilerPath } from "../../../scripts/dep-patches.mjs";
import { StatusLine } from "../../../src/ui/components/StatusLine.js";
import { TitleBar } from "../../../src/ui/components/TitleBar.js";
import { frameNow } from "../../../src/ui/terminal/frame-now.js";
import { mountPane } from "../components/mount.js";

// The shipped Ink draws every frame even where the shell exports CI=true (is-in-ci is a stub in
// the build, and vitest.config.ts maps the same stub): the frames watched below would otherwise be
// only the last one. Set as the file loads, before Ink's modules read it; put back after.
const ciBefore = vi.hoisted(() => {
  const before = process.env.CI;
  process.env.CI = "true";
  return before;
});
afterAll(() => {
  if (ciBefore === undefined) delete process.env.CI;
  else process.env.CI = ciBefore;
});

const root = resolve(import.meta.dirname, "../../..");
// Ink's output stage, the very module Ink's renderer imports (one id for vite, so one instance).
const { default: Output } = (await import(join(dirname(inkReconcilerPath(root)), "output.js"))) as {
  default: { prototype: Record<string, (...a: unknown[]) => unknown> };
};

let mounted: ReturnType<typeof mountPane> | undefined;
afterEach(() => {
  mounted?.app.unmount();
  mounted = undefined;
  vi.restoreAllMocks();
});

/** A terminal for Ink to draw on: every write kept in `writes`. */
function ttyOut(columns: number, rows: number, writes: string[]): NodeJS.WriteStream {
  return Object.assign(new EventEmitter(), {
    columns,
    rows,
    isTTY: true,
    write: (s: string) => void writes.push(s),
  }) as unknown as NodeJS.WriteStream;
}

it("draws a pane's frame through the output stage's rectangle path, not cell by cell", async () => {
  const byRects = vi.spyOn(Output.prototype, "getByRects");
  const byCells = vi.spyOn(Output.prototype, "getByCells");
  mounted = mountPane(
    <Box flexDirection="column">
      <TitleBar width={80} />
      <StatusLine width={80} />
    </Box>,
    80,
    20,
  );
  const frame = await mounted.frame();
  expect(frame).toContain("NanoHermes");
  expect(byRects).toHaveBeenCalled();
  // Every frame was composed from the panes' rectangles: none fell back to Ink's cells.
  expect(byRects.mock.results.every((r) => r.value !== null)).toBe(true);
  expect(byCells).not.toHaveBeenCalled();
});

it("draws a commit at once when the frame answers a key (frame-now), at the frame rate otherwise", () => {
  const writes: string[] = [];
  const app = render(<Text>first</Text>, {
    stdout: ttyOut(40, 10, writes),
    patchConsole: false,
    exitOnCtrlC: false,
    maxFps: 1,
  });
  const shown = () => writes.join("");
  expect(shown()).toContain("first");
  app.rerender(<Text>second</Text>);
  expect(shown()).not.toContain("second");
  frameNow.pending = true;
  app.rerender(<Text>third</Text>);
  expect(shown()).toContain("third");
  expect(frameNow.pending).toBe(false);
  app.unmount();
});

it("hands incremental rendering to our cell writer: only the changed cells, by absolute moves", () => {
  const writes: string[] = [];
  const app = render(<Text>first</Text>, {
    stdout: ttyOut(80, 30, writes),
    patchConsole: false,
    exitOnCtrlC: false,
    incrementalRendering: true,
  });
  writes.length = 0;
  frameNow.pending = true;
  app.rerender(<Text>first and more</Text>);
  expect(writes).toEqual(["\x1b[1;6H and more"]);
  app.unmount();
});

it("measures text with the string-width and widest-line that ship (their remembered widths)", async () => {
  const { default: stringWidth } = await import("string-width");
  const { default: widestLine } = await import("widest-line");
  // The patched modules measure through a function of their diff's: the remembering front.
  expect(stringWidth.toString()).toContain("measuredWidth(input)");
  expect(widestLine.toString()).toContain("widestLineOnce(string)");
  expect(stringWidth("\x1b[2m│\x1b[22m 中文")).toBe(6);
  expect(widestLine("ab\n中文 x")).toBe(6);
});
