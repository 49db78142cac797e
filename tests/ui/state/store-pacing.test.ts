// The store's pacing: the stream's updates are notified at most once a frame, a UI change (a key)
// at once and with its frame drawn at once (src/ui/terminal/frame-now.ts), and renders read the
// state of the last notification (getView), never updates applied after it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Store } from "../../../src/ui/state/store.js";
import { frameNow } from "../../../src/ui/terminal/frame-now.js";

const microtasks = () => new Promise<void>((r) => setImmediate(r));
const started = (taskId: string) =>
  ({
    type: "task.updated",
    taskId,
    task: { id: taskId, title: taskId, status: "idle" },
  }) as unknown as Parameters<Store["dispatch"]>[0];

// The flag is process-wide: start each test without one a file before it left.
beforeEach(() => void (frameNow.pending = false));
afterEach(() => void (frameNow.pending = false));

describe("the store's notifications", () => {
  it("hold a stream update for the frame, and bring it forward for a UI change", async () => {
    // A frame longer than the test: only an urgent change can notify during it.
    const store = new Store({ frameMs: 60_000 });
    let heard = 0;
    store.subscribe(() => heard++);
    store.dispatch(started("a"));
    await microtasks();
    expect(heard).toBe(1); // the first notification has no earlier frame to wait for
    store.dispatch(started("b"));
    await microtasks();
    expect(heard).toBe(1);
    expect(frameNow.pending).toBe(false);
    store.updateUi((ui) => ({ ...ui, focus: "results" }));
    await microtasks();
    expect(heard).toBe(2);
    // That notification carried the held update too, and asked for its frame at once.
    expect(Object.keys(store.getView().tasks)).toEqual(["a", "b"]);
    expect(frameNow.pending).toBe(true);
  });

  it("let renders read the notified state until the next notification", async () => {
    const store = new Store({ frameMs: 60_000 });
    store.dispatch(started("a"));
    await microtasks();
    store.dispatch(started("b"));
    expect(Object.keys(store.getState().tasks)).toEqual(["a", "b"]);
    expect(Object.keys(store.getView().tasks)).toEqual(["a"]);
  });

  it("settle before subscribers hear, and renders read the settled state", async () => {
    const store = new Store({ frameMs: 0 });
    store.setSettle((s) =>
      s.current === "a" && !s.follow.a ? { ...s, follow: { a: { top: null, width: 1, height: 1 } } } : s,
    );
    store.dispatch(started("a"));
    await microtasks();
    expect(store.getView().follow.a).toEqual({ top: null, width: 1, height: 1 });
    expect(store.getView()).toBe(store.getState());
  });
});
