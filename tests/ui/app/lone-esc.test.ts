// A lone Esc is one when nothing follows it for 25 ms. When the event loop was busy past that
// (a first render, a chunk compiling), the next read must not join the Esc to what follows it into
// an Alt chord: by the clock the Esc stood alone.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { wireInput } from "../../../src/ui/app/input.js";
import type { UiRuntime } from "../../../src/ui/app/runtime.js";
import type { InputEvent } from "../../../src/ui/input/keys.js";

function wired() {
  const got: InputEvent[] = [];
  const stdin = new EventEmitter();
  const rt = {
    ctl: { handle: (e: InputEvent) => got.push(e), status: () => {} },
    store: { updateUi: () => {} },
    opts: { stdin, stdout: new EventEmitter() },
  } as unknown as UiRuntime;
  wireInput(rt, { feed: () => {} });
  return { got, send: (s: string) => stdin.emit("data", Buffer.from(s)) };
}

const busy = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {}
};
const names = (events: InputEvent[]) =>
  events.map((e) => (e.kind === "key" ? `${e.key.alt ? "alt+" : ""}${e.key.name}` : "paste"));

describe("the lone Esc", () => {
  it("stands alone when the next read comes 25 ms later, even if its timer could not run", () => {
    const { got, send } = wired();
    send("\x1b");
    busy(40); // the loop is busy: the 25 ms timer cannot fire before the next read
    send("/s");
    expect(names(got)).toEqual(["escape", "/", "s"]);
  });

  it("still joins a key that follows at once into an Alt chord", () => {
    const { got, send } = wired();
    send("\x1b");
    send("/");
    expect(names(got)).toEqual(["alt+/"]);
  });
});
