// One start of the built UI in a pseudo-terminal with no model to reach (a port nothing listens
// on), for the tests of what a start runs and caches: it reads the loader's report
// (NANOHERMES_CODE_CACHE_REPORT), written as the program exits.
import { join } from "node:path";
import { tempDir, testEnv } from "./cli.js";
import { PtyApp } from "./pty.js";

export interface UiStartOptions {
  /** The program (default: this tree's dist/cli.js). */
  cli?: string;
  /** More environment: HOME, NODE_OPTIONS, ... */
  env?: Record<string, string | undefined>;
  /** Quit with Ctrl-D once the prompt shows (default), or wait for the program to end by itself. */
  quit?: boolean;
}

/** Runs the UI from start to exit in a 100x30 terminal; returns the path of the loader's report. */
export async function uiStartReport(opts: UiStartOptions = {}): Promise<string> {
  const report = join(tempDir(), "report.json");
  const app = new PtyApp({
    cols: 100,
    rows: 30,
    cwd: tempDir(),
    cli: opts.cli,
    env: testEnv({
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      NANOHERMES_CODE_CACHE_REPORT: report,
      ...opts.env,
    }),
  });
  if (opts.quit !== false) {
    await app.waitFor((s) => s.includes("Ask anything"), 20_000);
    app.type("\x04");
  }
  await app.exit();
  return report;
}
