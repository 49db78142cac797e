// A model picker (issue 28, item 17): /model alone lists the provider's models (as `nanohermes
// models` does) as completions of `/model NAME`; Tab completes a typed name; Enter switches.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../helpers/pty.js";
import { renderUi, until, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

describe("/model", () => {
  it("lists the models, completes names with Tab, and Enter switches", async () => {
    h = await renderUi(100, 30);
    (h.ctl.deps as { models?: () => Promise<string[]> }).models = async () => [
      "gpt-5",
      "gpt-5-mini",
      "claude-sonnet-4-5",
    ];
    h.keys("/model\r");
    const frame = await until(h, (f) => f.includes("claude-sonnet-4-5"));
    expect(frame).toContain("gpt-5-mini");
    expect(frame).toContain("/model");
    h.keys(keys.down);
    h.keys("\r");
    expect(h.sent.at(-1)).toEqual({ type: "config.update", taskId: "t0", model: "gpt-5-mini" });
    h.keys("/model cla");
    h.keys(keys.tab);
    expect(await h.frame()).toContain("/model claude-sonnet-4-5");
  });
});
