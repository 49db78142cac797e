// The store's clock: the time the UI shows is in the state (AppState.clock), renewed once a second
// only while something counts time, and moved in tests by an injected clock, not by waiting.
import { describe, expect, it } from "vitest";
import type { BusEvent } from "../../../src/protocol/events.js";
import { manualClock } from "../../../src/ui/state/clock.js";
import { CLOCK_TICK_MS, Store } from "../../../src/ui/state/store.js";
import { snapshot } from "../harness.js";

const microtasks = () => new Promise<void>((r) => setImmediate(r));
const T0 = 1_700_000_000_000;

function started() {
  const clock = manualClock(() => T0);
  const store = new Store({ frameMs: 0, clock });
  let heard = 0;
  store.subscribe(() => heard++);
  return { clock, store, heard: () => heard };
}

const task: BusEvent = { type: "task.updated", taskId: "t0", task: snapshot() };
const turn: BusEvent = { type: "turn.started", taskId: "t0", turnId: "turn-1", prompt: "go" };

describe("the store's clock", () => {
  it("reads the injected clock at the start and stamps events with it", async () => {
    const { clock, store } = started();
    expect(store.getState().clock).toBe(T0);
    clock.advance(500);
    store.dispatch(task);
    store.dispatch(turn);
    await microtasks();
    expect(store.getView().transcripts.t0?.turnStartedAt).toBe(T0 + 500);
    expect(store.getView().clock).toBe(T0 + 500);
  });

  it("does not tick while nothing counts time: an idle UI hears nothing from it", async () => {
    const { clock, store, heard } = started();
    store.dispatch(task);
    await microtasks();
    const before = heard();
    const view = store.getView();
    clock.advance(10 * CLOCK_TICK_MS);
    await microtasks();
    expect(clock.timers).toBe(0);
    expect(heard()).toBe(before);
    expect(store.getView()).toBe(view);
  });

  it("ticks once a second while a turn runs, and stops when it ends", async () => {
    const { clock, store, heard } = started();
    store.dispatch(task);
    store.dispatch(turn);
    await microtasks();
    expect(clock.timers).toBe(1);
    const before = heard();
    clock.advance(CLOCK_TICK_MS);
    await microtasks();
    expect(store.getView().clock).toBe(T0 + CLOCK_TICK_MS);
    expect(heard()).toBe(before + 1);
    // Less than a tick moves nothing on screen.
    clock.advance(CLOCK_TICK_MS / 2);
    await microtasks();
    expect(heard()).toBe(before + 1);
    store.dispatch({
      type: "turn.completed",
      taskId: "t0",
      turnId: "turn-1",
      reason: "completed",
      response: "",
      steps: 1,
      usage: { prompt: 1, completion: 1 },
    });
    await microtasks();
    expect(clock.timers).toBe(0);
    const after = heard();
    clock.advance(5 * CLOCK_TICK_MS);
    await microtasks();
    expect(heard()).toBe(after);
  });

  it("is read again with each change of the UI state (a key) while idle, so its times are current", async () => {
    const { clock, store } = started();
    clock.advance(60_000);
    store.updateUi((ui) => ({ ...ui, focus: "tasks" }));
    await microtasks();
    expect(store.getView().clock).toBe(T0 + 60_000);
  });

  it("is left to its tick while it ticks: a key does not move the running times on screen", async () => {
    const { clock, store } = started();
    store.dispatch(task);
    store.dispatch(turn);
    await microtasks();
    clock.advance(CLOCK_TICK_MS / 2);
    store.updateUi((ui) => ({ ...ui, focus: "tasks" }));
    await microtasks();
    expect(store.getView().clock).toBe(T0);
    clock.advance(CLOCK_TICK_MS / 2);
    await microtasks();
    expect(store.getView().clock).toBe(T0 + CLOCK_TICK_MS);
  });

  it("redraw() is a change every pane's model holds, and nothing else", async () => {
    const { store } = started();
    const before = store.getState();
    store.redraw();
    await microtasks();
    const after = store.getView();
    expect(after.redraws).toBe(before.redraws + 1);
    expect(after.ui).toBe(before.ui);
    expect(after.clock).toBe(before.clock);
  });
});
