// Nothing typed is lost (issue 28, item 16): with no key set a prompt stays in the input and the
// status line says what to set (/status too); an export asks where to write, starting outside the
// repository, instead of writing into its root.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../helpers/pty.js";
import { renderUi, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

/** The harness's controller, with no model set up. */
function noKey(harness: Harness): void {
  (harness.ctl.deps as { notSetUp?: () => string | null }).notSetUp = () =>
    "no model is set up: set OPENAI_API_KEY=sk-..., or OPENAI_BASE_URL=URL, or --provider NAME";
}

describe("nothing typed is lost", () => {
  it("keeps a prompt in the input when no key is set, and says what to set", async () => {
    h = await renderUi(100, 24);
    noKey(h);
    h.keys("explain the build system please\r");
    expect(h.sent.filter((c) => c.type === "user.submit")).toEqual([]);
    const frame = await h.frame();
    expect(frame).toContain("explain the build system please");
    expect(frame).toMatch(/not sent \(your text is still in the input\): no model is set up: set OPENAI_API_KEY/);
    h.keys(keys.ctrl("u"));
    h.keys("/status\r");
    expect((await h.frame()).replace(/\s+/g, " ")).toMatch(/key no model is set up: set OPENAI_API_KEY/);
  });

  it("/export asks where to write, starting in the home folder; Enter writes there", async () => {
    h = await renderUi(100, 24);
    (h.ctl.deps as { home?: string }).home = "/home/me";
    h.keys("/export\r");
    const frame = await h.frame();
    expect(frame).toMatch(/Export as Markdown to/);
    expect(frame).toMatch(/~\/nanohermes-new-task-\d{4}-\d\d-\d\d\.md/);
    expect(h.sent.some((c) => c.type === "task.export")).toBe(false);
    h.keys("\r");
    await h.frame();
    expect(h.sent.at(-1)).toMatchObject({
      type: "task.export",
      taskId: "t0",
      format: "markdown",
      path: expect.stringMatching(/^\/home\/me\/nanohermes-new-task-.*\.md$/),
    });
  });
});
