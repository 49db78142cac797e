// A task whose session another process holds (task.updated's heldBy): Enter does not send and the
// text stays in the input, with who holds it on the status line; a prompt the engine gave back
// (prompt.refused) returns to the input, above anything typed since.
import { afterEach, describe, expect, it } from "vitest";
import { giveBack } from "../../src/ui/controller/composer-keys.js";
import { renderUi, snapshot, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const heldBy = {
  pid: 812,
  host: "box",
  role: "ui" as const,
  text: "this session is open in another NanoHermes UI (pid 812@box): close the session there (quit, or /new there) and send here",
};

describe("a busy session in the UI", () => {
  it("Enter keeps the prompt in the input and names the holder; once free, Enter sends it", async () => {
    h = await renderUi(200, 24);
    h.emit({ type: "task.updated", taskId: "t0", task: snapshot({ heldBy }) });
    h.keys("refactor the parser\r");
    expect(h.sent.filter((c) => c.type === "user.submit")).toEqual([]);
    const frame = await h.frame();
    expect(frame).toContain("› refactor the parser");
    expect(frame).toContain(
      "not sent (your text is still in the input): this session is open in another NanoHermes UI (pid 812@box)",
    );
    // The holder let go: the same Enter sends it.
    h.emit({ type: "task.updated", taskId: "t0", task: snapshot() });
    h.keys("\r");
    expect(h.sent.filter((c) => c.type === "user.submit")).toEqual([
      expect.objectContaining({ taskId: "t0", text: "refactor the parser" }),
    ]);
  });

  it("a refused prompt comes back to the input, above what was typed since", async () => {
    h = await renderUi(200, 24);
    h.keys("and then this");
    giveBack(h.ctl, "the first prompt", heldBy.text);
    const frame = await h.frame();
    expect(h.ctl.composerText()).toBe("the first prompt\nand then this");
    expect(frame).toContain("not sent (your text is back in the input): this session is open in another NanoHermes UI");
  });
});
