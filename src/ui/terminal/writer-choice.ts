// Which terminal writer draws Ink's frames: ours (cell-writer.ts) unless a benchmark asks for Ink's
// line writer to compare against. Its own module so the start-up path can ask without loading it.

/** `NANOHERMES_TERMINAL_WRITER=lines` keeps Ink's line writer, for side-by-side benchmarks only. */
export function lineWriterSelected(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NANOHERMES_TERMINAL_WRITER === "lines";
}
