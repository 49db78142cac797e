import { describe, expect, it } from "vitest";
import { KeyDispatcher, type KeyLayer } from "../../../src/ui/input/dispatcher.js";
import type { InputEvent } from "../../../src/ui/input/keys.js";

const ev = (name: string): InputEvent => ({ kind: "key", key: { name, ctrl: false, alt: false, shift: false, sequence: name } });
/** A layer that records what it saw into `log` and consumes when `consume` says so. */
function layer(name: string, priority: number, log: string[], consume: (e: InputEvent) => boolean = () => false): KeyLayer {
  return {
    name,
    priority,
    handle: (e) => {
      log.push(name);
      return consume(e);
    },
  };
}

describe("KeyDispatcher", () => {
  it.each([
    { pushes: [["a", 0], ["b", 10], ["c", 5]] as const, order: ["b", "c", "a"] },
    { pushes: [["a", 1], ["b", 1], ["c", 1]] as const, order: ["c", "b", "a"] },
    { pushes: [["low", -5], ["x", 3], ["y", 3], ["top", 100]] as const, order: ["top", "y", "x", "low"] },
  ])("runs layers by priority, newest first among equals: $order", ({ pushes, order }) => {
    const d = new KeyDispatcher();
    const log: string[] = [];
    for (const [n, p] of pushes) d.push(layer(n, p, log));
    expect(d.dispatch(ev("a"))).toBe(false);
    expect(log).toEqual(order);
    expect(d.layers).toEqual(order);
  });

  it("stops at the first layer that consumes", () => {
    const d = new KeyDispatcher();
    const log: string[] = [];
    d.push(layer("global", 0, log, () => true));
    d.push(layer("dialog", 10, log, (e) => e.kind === "key" && e.key.name === "enter"));
    expect(d.dispatch(ev("enter"))).toBe(true);
    expect(log).toEqual(["dialog"]);
    expect(d.dispatch(ev("x"))).toBe(true);
    expect(log).toEqual(["dialog", "dialog", "global"]);
  });

  it("consumes only on true, not on other truthy values", () => {
    const d = new KeyDispatcher();
    const log: string[] = [];
    d.push({ name: "sloppy", priority: 1, handle: () => 1 as unknown as boolean });
    d.push(layer("next", 0, log));
    expect(d.dispatch(ev("a"))).toBe(false);
    expect(log).toEqual(["next"]);
  });

  it("removes a layer, and a second remove is harmless", () => {
    const d = new KeyDispatcher();
    const log: string[] = [];
    const remove = d.push(layer("overlay", 5, log, () => true));
    d.push(layer("base", 0, log, () => true));
    remove();
    remove();
    d.dispatch(ev("a"));
    expect(log).toEqual(["base"]);
    expect(d.layers).toEqual(["base"]);
  });

  it("isolates a throwing layer: reported to onError, the event goes on", () => {
    const errors: Array<[string, string]> = [];
    const d = new KeyDispatcher({ onError: (e, name) => errors.push([name, (e as Error).message]) });
    const log: string[] = [];
    d.push({ name: "broken", priority: 9, handle: () => { throw new Error("boom"); } });
    d.push(layer("ok", 1, log, () => true));
    expect(d.dispatch(ev("a"))).toBe(true);
    expect(errors).toEqual([["broken", "boom"]]);
    expect(log).toEqual(["ok"]);
  });

  it("survives an onError that throws", () => {
    const d = new KeyDispatcher({ onError: () => { throw new Error("reporter"); } });
    d.push({ name: "broken", priority: 1, handle: () => { throw new Error("boom"); } });
    expect(() => d.dispatch(ev("a"))).not.toThrow();
  });

  it("sees the layers as they were when dispatch began", () => {
    const d = new KeyDispatcher();
    const log: string[] = [];
    d.push({
      name: "opener",
      priority: 0,
      handle: () => {
        log.push("opener");
        d.push(layer("dialog", 10, log, () => true));
        return false;
      },
    });
    expect(d.dispatch(ev("a"))).toBe(false);
    expect(log).toEqual(["opener"]);
    expect(d.dispatch(ev("b"))).toBe(true);
    expect(log).toEqual(["opener", "dialog"]);
  });

  it("passes pastes through the same layers", () => {
    const d = new KeyDispatcher();
    const got: string[] = [];
    d.push({ name: "composer", priority: 0, handle: (e) => (e.kind === "paste" ? (got.push(e.text), true) : false) });
    expect(d.dispatch({ kind: "paste", text: "x\ny" })).toBe(true);
    expect(d.dispatch(ev("a"))).toBe(false);
    expect(got).toEqual(["x\ny"]);
  });
});
