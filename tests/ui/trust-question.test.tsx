// Trust from the UI (issue 28, item 15): what of a workspace waits for trust (its config keys,
// its .claude/commands and .nanohermes/commands) is named in a one-key question, which /trust asks
// again; y trusts the folder.
import { afterEach, describe, expect, it } from "vitest";
import { renderUi, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

describe("/trust", () => {
  it("names what waits and trusts the folder with y", async () => {
    h = await renderUi(100, 30);
    let trusted = 0;
    const deps = h.ctl.deps as { untrusted?: () => string[]; trustWorkspace: () => void };
    deps.untrusted = () =>
      trusted
        ? []
        : ["its .nanohermes/config.json sets hooks", "its slash commands (.nanohermes/commands, .claude/commands)"];
    deps.trustWorkspace = () => void trusted++;
    h.keys("/trust\r");
    const frame = (await h.frame()).replace(/[\s│]+/g, " ");
    expect(frame).toMatch(/sets hooks; its slash commands \(.nanohermes\/commands, .claude\/commands\)/);
    expect(frame).toMatch(/Trust it\?/);
    h.keys("y");
    expect(trusted).toBe(1);
    h.keys("/trust\r");
    expect(await h.frame()).toMatch(/nothing here waits for trust/);
  });
});
