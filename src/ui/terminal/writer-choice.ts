// Which terminal writer draws Ink's frames (ours, cell-writer.ts, unless a benchmark asks for Ink's
// line writer) and what the app learned about the terminal that the writer can use. Its own module
// so the start-up path can set both without loading the writer.

/** `NANOHERMES_TERMINAL_WRITER=lines` keeps Ink's line writer, for side-by-side benchmarks only. */
export function lineWriterSelected(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NANOHERMES_TERMINAL_WRITER === "lines";
}

export const terminalHints = {
  /**
   * The terminal said (DECRQM) it honours synchronized updates (mode 2026), which Ink wraps every
   * frame in: it then shows a frame only whole, so the writer need not hide the cursor while it
   * writes cells (12 bytes a frame).
   */
  synchronizedOutput: false,
};

/** Set by the bench (NANOHERMES_BENCH_FRAMES) before Ink starts: each frame's write time, in ms. */
export const writerTiming: { record?: (ms: number) => void } = {};
