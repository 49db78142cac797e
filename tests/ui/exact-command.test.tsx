// An exact slash command wins (issue 28, item 2): Enter on text that is exactly a command runs that
// command, even while the completion list offers a longer one; the list leads with the exact name.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../helpers/pty.js";
import { renderUi, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

describe("exact slash commands", () => {
  it("/mode + Enter runs /mode, not /model", async () => {
    h = await renderUi(80, 24);
    h.keys("/mode");
    expect(h.ctl.ui.completion?.list.items[0]?.value).toBe("/mode");
    // Even with the longer one highlighted, what was typed runs.
    h.ctl.setUi((ui) => (ui.completion ? { ...ui, completion: { ...ui.completion, index: 1 } } : ui));
    expect(h.ctl.ui.completion?.list.items[1]?.value).toBe("/model");
    h.keys("\r");
    expect(await h.frame()).toMatch(/mode: default \(default, accept-edits/);
    expect(await h.frame()).not.toMatch(/model: mock-model/);
  });

  it("a prefix that is no command still takes the highlighted completion", async () => {
    h = await renderUi(80, 24);
    h.keys("/pol");
    h.keys(keys.enter);
    expect(await h.frame()).toMatch(/approval policy: on-request/);
  });
});
