// Starts the full-screen UI: the engine (task manager) and the UI on one bus, the terminal in the
// alternate screen, stdin parsed by our own key parser, and one exit path that saves and restores.
// Each part is in src/ui/app/, in the order it runs here.
import { exitPath } from "./app/exit-path.js";
import { openFirstTask } from "./app/first-task.js";
import { wireInput } from "./app/input.js";
import { mountUi } from "./app/mount-ui.js";
import { createServices, type UiOptions } from "./app/runtime.js";
import { wireBus } from "./app/wire-bus.js";
import { createProbe } from "./terminal/probe.js";

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
