// The first frame is drawn as text before Ink loads (text-frame.ts), and a dialog can be open then
// (the trust question, a bare --resume): its text must be the screen Ink then draws, row for row.
import { afterEach, describe, expect, it } from "vitest";
import type { Dialog } from "../../../src/ui/state/ui-state.js";
import { dialogArea, selectDialog } from "../../../src/ui/panes/dialog-area.js";
import { snapshot } from "../harness.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

const dialogs: Dialog[] = [
  { kind: "palette", query: "re", index: 2 },
  { kind: "help", offset: 3 },
  { kind: "confirm", action: "trust", target: "/w", title: "This workspace's config sets hooks. Trust it? (y/n)" },
  { kind: "input", purpose: "rename", title: "Rename task", value: "a new title", index: 0 },
  { kind: "permissions", index: 1 },
  {
    kind: "sessions",
    query: "",
    all: false,
    index: 0,
    rows: [
      {
        file: "/s/a.json",
        sessionId: "a",
        title: "fix the parser",
        workspace: "/work/demo",
        updatedAt: "2026-01-01T00:00:00Z",
      },
    ],
    seq: 1,
    answered: 1,
    previews: {},
    startup: true,
  },
];

describe.each(widths)("at %i columns", (columns) => {
  it.each(dialogs.map((d) => [d.kind, d] as const))("%s: the text frame is the Ink frame", async (_kind, dialog) => {
    m = mountDialog(columns);
    m.bus.emit({
      type: "task.updated",
      taskId: "t0",
      task: snapshot({ rules: ["run_command npm test", "edit src/**"] }),
    });
    m.store.updateUi((ui) => ({ ...ui, dialog }));
    const ink = (await m.rows()).map((r) => r.trimEnd());
    const s = m.store.getState();
    const text = dialogArea(selectDialog(s), m.services, columns, 16).map((r) => r.trimEnd());
    expect(ink).toEqual(text);
    expect(text.filter((r) => r).length).toBeGreaterThan(2);
  });
});
