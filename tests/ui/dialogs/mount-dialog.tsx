// Mounts the dialog area alone (ink-testing-library) at a given width on test services; keys
// written to stdin go through the real key parser and the controller to the open dialog.
import { DialogArea } from "../../../src/ui/components/DialogArea.js";
import { visibleWidth } from "../../../src/ui/render/wrap.js";
import type { RenderOptions } from "../harness.js";
import { mountPane } from "../components/mount.js";

export const widths = [40, 80, 120] as const;

export function mountDialog(columns: number, rows = 16, options: RenderOptions = {}) {
  const m = mountPane(<DialogArea width={columns} height={rows} />, columns, rows + 2, options);
  // ink-testing-library's stdout is 100 columns wide: give it the width under test.
  Object.defineProperty(m.app.stdout, "columns", { value: columns, configurable: true });
  m.app.stdout.emit("resize");
  return {
    ...m,
    /** Raw bytes through the key parser, as a terminal sends them. */
    type: (bytes: string) => m.app.stdin.write(bytes),
    /** The frame's rows once it settled; each checked to fit the width. */
    rows: async () => {
      const frame = await m.frame();
      const lines = frame.split("\n");
      for (const line of lines) if (visibleWidth(line) > columns) throw new Error(`row wider than ${columns}: ${line}`);
      return lines;
    },
    dialog: () => m.store.getState().ui.dialog,
    /** The first frame that passes `test` (answers from fake sources arrive after a pause). */
    until: async (test: (frame: string) => boolean, ms = 3000) => {
      const start = Date.now();
      for (;;) {
        const frame = await m.frame();
        if (test(frame)) return frame;
        if (Date.now() - start > ms) throw new Error(`timed out; last frame:\n${frame}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

export type MountedDialog = ReturnType<typeof mountDialog>;
