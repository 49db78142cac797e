// The one exit path: the alternate screen is entered here, and every way out (quit, signals,
// uncaught errors) shuts the engine and the extensions down, saves the bench's frame log, and
// restores the terminal.
import { TELEMETRY_FLUSH_MS } from "../../telemetry/start.js";
import { writeFileSync } from "node:fs";
import { log } from "../../config/log.js";
import { enterScreen, type ScreenSession } from "../terminal/screen.js";
import { writerTiming } from "../terminal/writer-choice.js";
import type { UiRuntime } from "./runtime.js";

export interface ExitPath {
  screen: ScreenSession;
  /** The benchmark's probe (NANOHERMES_BENCH_FRAMES): Ink's render time of every frame, written at exit. */
  frameLog: number[] | null;
}

export function exitPath(rt: UiRuntime): ExitPath {
  const { stdin, stdout, env } = rt.opts;
  const frameLog = env.NANOHERMES_BENCH_FRAMES ? ([] as number[]) : null;
  // The terminal writer's time per frame, with when (it runs after Ink's render, which frameLog times).
  const writerLog: [number, number][] = [];
  if (frameLog) writerTiming.record = (ms) => void writerLog.push([Date.now(), ms]);
  const shutdown = async () => {
    rt.remote()?.close();
    await rt.manager?.shutdown();
    await Promise.race([
      rt.extensions.then((ext) => ext.close()),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]);
    if (frameLog && env.NANOHERMES_BENCH_FRAMES) {
      writeFileSync(env.NANOHERMES_BENCH_FRAMES, JSON.stringify(frameLog));
      writeFileSync(`${env.NANOHERMES_BENCH_FRAMES}.writer.json`, JSON.stringify(writerLog));
    }
  };
  const screen = enterScreen({ stdin, stdout }, shutdown, () => rt.ink?.unmount());
  // Node prints process warnings (e.g. MaxListenersExceededWarning) to stderr, which is the
  // terminal: text the writer does not know about, which can scroll the screen under its model of
  // the cells. While the UI owns the terminal they go to the log file instead.
  process.removeAllListeners("warning");
  process.on("warning", (warning) => log("warn", "node warning", warning));
  let exiting = false;
  rt.finish = async (code: number) => {
    if (exiting) return;
    exiting = true;
    await shutdown().catch((error: unknown) => log("error", "shutdown", error));
    // The last spans go to the collector, waiting a bounded time (a collector that hangs costs at most that).
    await rt.telemetry?.shutdown(TELEMETRY_FLUSH_MS);
    screen.restore();
    process.exit(code);
  };
  return { screen, frameLog };
}
