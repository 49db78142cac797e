// Mounts one component of the app with ink-testing-library on test services (harness.tsx): keys
// written to its stdin go through the real key parser to the controller, as in the program.
import { render } from "ink-testing-library";
import type { ReactElement } from "react";
import { AppContext } from "../../../src/ui/context/services.js";
import { KeyParser } from "../../../src/ui/input/keys.js";
import { createTestServices, snapshot, type RenderOptions } from "../harness.js";

const tick = () => new Promise((r) => setTimeout(r, 0));

export function mountPane(
  element: ReactElement,
  columns: number,
  rows: number,
  options: RenderOptions & { motion?: boolean } = {},
) {
  const t = createTestServices(columns, rows, options);
  const services = { ...t.services, motion: options.motion ?? false };
  const app = render(<AppContext.Provider value={services}>{element}</AppContext.Provider>);
  // As in the program (terminal/inert-stdin.ts), Ink itself reads nothing: every key goes through
  // our parser to the controller, which routes a field's keys to it (input/field-router.ts).
  (app.stdin as unknown as { read: () => null }).read = () => null;
  const parser = new KeyParser();
  app.stdin.on("data", (bytes: string) => {
    for (const e of [...parser.feed(bytes), ...parser.flush()]) t.ctl.handle(e);
  });
  t.bus.emit({ type: "task.updated", taskId: "t0", task: snapshot() });
  return {
    ...t,
    services,
    app,
    /** The last frame once pending store notifications and renders ran. */
    frame: async () => {
      for (let i = 0; i < 4; i++) await tick();
      return app.lastFrame() ?? "";
    },
  };
}
