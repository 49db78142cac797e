// Starts the full-screen UI: the engine (task manager) and the UI on one bus, the terminal in the
// alternate screen, stdin parsed by our own key parser, and one exit path that saves and restores.
// Each part is in src/ui/app/, in the order it runs here.
import type { Settings } from "../config/schema.js";
import type { DaemonClient } from "../remote/client.js";
import type { SessionInfo } from "../remote/wire.js";
import { exitPath } from "./app/exit-path.js";
import { openFirstTask } from "./app/first-task.js";
import { wireInput } from "./app/input.js";
import { mountUi } from "./app/mount-ui.js";
import { createServices } from "./app/services.js";
import { wireBus } from "./app/wire-bus.js";
import { createProbe } from "./terminal/probe.js";

export interface UiOptions {
  settings: Settings;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** Resume this session file in the first task (--session, --resume ID, --continue). */
  sessionFile?: string;
  /** Bare --resume: open the session picker first. */
  pickSession?: boolean;
  /** `nanohermes attach`: every task is a session of this daemon (listed already). */
  attach?: { client: DaemonClient; sessions: SessionInfo[] };
}

export async function runUi(opts: UiOptions): Promise<number> {
  const rt = await createServices(opts);
  const { screen, frameLog } = exitPath(rt);
  wireBus(rt);
  await openFirstTask(rt);
  // The terminal handshake runs after the first frame; its replies arrive as keys.
  const probe = createProbe({ timeoutMs: 400, skipBackground: opts.env.TERM === "linux" });
  wireInput(rt, probe);
  await mountUi(rt, screen, probe, frameLog);
  await new Promise<never>(() => {});
  return 0;
}
