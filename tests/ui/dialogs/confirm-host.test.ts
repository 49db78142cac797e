// The confirm question's keys driven by a small host of their own, no Controller: what a dialog
// may use of the controller is the narrow interface it names (ConfirmHost: controller/host.ts's
// UiHost and three ports), so a real store, the real keymap and a list of sent commands are enough.
import { describe, expect, it, vi } from "vitest";
import { type Action, defaultKeymap } from "../../../src/config/keybindings.js";
import type { BusCommand } from "../../../src/protocol/commands.js";
import { type ConfirmHost, confirmDialog } from "../../../src/ui/dialogs/confirm.js";
import type { InputEvent } from "../../../src/ui/input/keys.js";
import { findAction, matchesAny, resolveKeymap } from "../../../src/ui/input/keymap.js";
import type { MemoryRow } from "../../../src/ui/state/data-sources.js";
import type { ConfirmDialog } from "../../../src/ui/state/dialogs.js";
import { Store } from "../../../src/ui/state/store.js";

interface Fake {
  host: ConfirmHost;
  store: Store;
  sent: BusCommand[];
  said: string[];
  exits: number;
  trusted: number;
  removed: string[];
}

function fakeHost(): Fake {
  const store = new Store({ frameMs: 0 });
  const keymap = resolveKeymap<Action>(defaultKeymap()).keymap;
  const at = "2026-01-01T00:00:00.000Z";
  const memory: MemoryRow[] = [{ id: "m1", kind: "fact", text: "tabs, not spaces", createdAt: at, updatedAt: at }];
  const fake: Fake = {
    store,
    sent: [],
    said: [],
    exits: 0,
    trusted: 0,
    removed: [],
    host: {
      get state() {
        return store.getState();
      },
      get ui() {
        return store.getState().ui;
      },
      setUi: (change) => store.updateUi(change),
      dispatch: (action) => store.dispatch(action),
      status: (text) => void fake.said.push(text),
      send: (command) => void fake.sent.push(command),
      keymap,
      is: (action, key) => matchesAny(key, keymap[action]),
      action: (key, among) => findAction(keymap, key, among),
      now: () => 0,
      currentTask: () => null,
      currentBlocks: () => [],
      selectTask: () => {},
      revealBlock: () => {},
      exit: () => void fake.exits++,
      trustWorkspace: () => void fake.trusted++,
      memory: {
        enabled: true,
        kinds: ["fact"],
        list: async () => memory.filter((m) => !fake.removed.includes(m.id)),
        search: async () => [],
        update: async () => null,
        remove: async (id) => {
          fake.removed.push(id);
          return true;
        },
        save: async () => {
          throw new Error("not in this test");
        },
      },
    },
  };
  return fake;
}

const key = (name: string): InputEvent => ({
  kind: "key",
  key: { name, ctrl: false, alt: false, shift: false, sequence: name, ...(name.length === 1 ? { text: name } : {}) },
});

/** Opens `dialog` on the fake's store and presses `name` in it, as the dialog layer does. */
function press(f: Fake, dialog: ConfirmDialog, name: string): boolean {
  f.store.updateUi((ui) => ({ ...ui, dialog }));
  return confirmDialog.keys(f.host, dialog, key(name));
}

describe("the confirm question on a host of its own", () => {
  it("y deletes the task: the question closes and the command goes on the bus", () => {
    const f = fakeHost();
    expect(press(f, { kind: "confirm", action: "delete", target: "t3", title: "Delete?" }, "y")).toBe(true);
    expect(f.host.ui.dialog).toBeNull();
    expect(f.sent).toEqual([{ type: "task.delete", taskId: "t3" }]);
  });

  it("n closes it back to the dialog it was asked over, and does nothing else", () => {
    const f = fakeHost();
    const back = { kind: "permissions" as const, index: 2 };
    expect(press(f, { kind: "confirm", action: "delete", target: "t3", title: "Delete?", back }, "n")).toBe(true);
    expect(f.host.ui.dialog).toEqual(back);
    expect(f.sent).toEqual([]);
  });

  it("y on the quit question exits through the host's port; n stays", () => {
    const f = fakeHost();
    press(f, { kind: "confirm", action: "quit", target: "", title: "Quit?" }, "n");
    expect(f.exits).toBe(0);
    press(f, { kind: "confirm", action: "quit", target: "", title: "Quit?" }, "y");
    expect(f.exits).toBe(1);
    expect(f.host.ui.dialog).toBeNull();
  });

  it("y on the trust question trusts the workspace", () => {
    const f = fakeHost();
    press(f, { kind: "confirm", action: "trust", target: "", title: "Trust?" }, "y");
    expect(f.trusted).toBe(1);
    expect(f.exits).toBe(0);
  });

  it("f stops a subagent and kills its command; y only stops it", () => {
    const f = fakeHost();
    const ask: ConfirmDialog = { kind: "confirm", action: "stopAgent", target: "a2", taskId: "t1", title: "Stop?" };
    press(f, ask, "f");
    press(f, ask, "y");
    expect(f.sent).toEqual([
      { type: "subagent.stop", taskId: "t1", agentId: "a2", force: true },
      { type: "subagent.stop", taskId: "t1", agentId: "a2" },
    ]);
    expect(f.said).toEqual(["stopping a2 and killing its running command", "stopping a2 at its next step"]);
  });

  it("y forgets a memory through the memory port and says so once it is done", async () => {
    const f = fakeHost();
    press(f, { kind: "confirm", action: "forgetMemory", target: "m1", title: "Forget?" }, "y");
    expect(f.removed).toEqual(["m1"]);
    await vi.waitFor(() => expect(f.said).toContain("memory deleted"));
  });

  it("leaves Esc and other keys to the dialog layer (false: not used)", () => {
    const f = fakeHost();
    const ask: ConfirmDialog = { kind: "confirm", action: "delete", target: "t3", title: "Delete?" };
    expect(press(f, ask, "escape")).toBe(false);
    expect(press(f, ask, "f")).toBe(false);
    expect(f.host.ui.dialog).toEqual(ask);
    expect(f.sent).toEqual([]);
  });
});
