import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { Bus } from "../../src/protocol/bus.js";
import { BusCommandSchema } from "../../src/protocol/commands.js";
import { renderEventsDoc } from "../../src/protocol/docs.js";
import { BusEventSchema, eventDefinitions, type BusEvent } from "../../src/protocol/events.js";

const note = (text: string): BusEvent => ({ type: "notice", taskId: "t", level: "info", text });

describe("bus", () => {
  it("delivers events synchronously in subscription order", () => {
    const bus = new Bus();
    const seen: string[] = [];
    bus.subscribe((e) => seen.push(`a:${e.type}`));
    bus.subscribe((e) => seen.push(`b:${e.type}`));
    bus.emit(note("x"));
    expect(seen).toEqual(["a:notice", "b:notice"]);
  });

  it("isolates a throwing handler: others still run, the emitter never sees the throw", () => {
    const errors: unknown[] = [];
    const bus = new Bus({ onHandlerError: (e) => errors.push(e) });
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error("boom");
    });
    bus.subscribe((e) => seen.push(e.type));
    expect(() => bus.emit(note("x"))).not.toThrow();
    expect(seen).toEqual(["notice"]);
    expect((errors[0] as Error).message).toBe("boom");
  });

  it("buffers events emitted before the first subscriber, capped, oldest dropped", () => {
    const bus = new Bus({ bufferCap: 3 });
    for (let i = 0; i < 5; i++) bus.emit(note(String(i)));
    const seen: string[] = [];
    bus.subscribe((e) => seen.push(e.type === "notice" ? e.text : ""));
    expect(seen).toEqual(["2", "3", "4"]);
    expect(bus.droppedBeforeSubscribe).toBe(2);
    bus.emit(note("5"));
    expect(seen.at(-1)).toBe("5");
  });

  it("unsubscribes", () => {
    const bus = new Bus();
    bus.subscribe(() => {});
    let n = 0;
    const off = bus.subscribe(() => n++);
    bus.emit(note("a"));
    off();
    bus.emit(note("b"));
    expect(n).toBe(1);
  });

  it("routes commands to command handlers", () => {
    const bus = new Bus();
    const got: string[] = [];
    bus.onCommand((c) => got.push(c.type));
    bus.send({ type: "turn.interrupt", taskId: "t", force: true });
    expect(got).toEqual(["turn.interrupt"]);
  });
});

describe("event and command schemas", () => {
  it("accept well-formed values and reject unknown types and extra fields", () => {
    expect(BusEventSchema.safeParse(note("x")).success).toBe(true);
    expect(BusEventSchema.safeParse({ type: "nope", taskId: "t" }).success).toBe(false);
    expect(BusEventSchema.safeParse({ ...note("x"), extra: 1 }).success).toBe(false);
    expect(
      BusCommandSchema.safeParse({ type: "approval.reply", taskId: "t", requestId: "r", decision: "once" }).success,
    ).toBe(true);
    expect(
      BusCommandSchema.safeParse({ type: "approval.reply", taskId: "t", requestId: "r", decision: "maybe" }).success,
    ).toBe(false);
  });

  it("name every event noun.phase (or a single noun)", () => {
    for (const type of Object.keys(eventDefinitions)) expect(type).toMatch(/^[a-z]+(\.[a-z]+)?$/);
  });

  it("docs/events.md matches the definitions (run npm run docs:events after changing them)", () => {
    const doc = readFileSync(resolve(import.meta.dirname, "../../docs/events.md"), "utf8");
    expect(doc).toBe(renderEventsDoc());
    for (const type of Object.keys(eventDefinitions)) expect(doc).toContain(`### \`${type}\``);
  });
});
