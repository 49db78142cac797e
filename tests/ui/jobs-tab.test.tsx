// Jobs are first-class (issue 28, item 13): the Jobs tab shows the selected background command's
// output and x stops it (a job.stop command), with the keys on the status line.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../helpers/pty.js";
import { renderUi, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const ev = { taskId: "t0" };

describe("the Jobs tab", () => {
  it("shows the job's output and stops it with x", async () => {
    h = await renderUi(120, 40);
    h.emit({
      type: "background.updated",
      ...ev,
      job: {
        id: "job-1",
        command: "npm run dev",
        state: "running",
        exitCode: null,
        lastLine: "ready on :3000",
        startedAt: "2026-01-01T00:00:00Z",
        tail: "compiling…\ncompiled 12 modules\nready on :3000\n",
      },
    });
    h.keys(keys.ctrl("r"));
    h.store.updateUi((ui) => ({ ...ui, resultsTab: "jobs", resultsIndex: 0 }));
    const frame = await h.frame();
    expect(frame).toContain("job-1 running npm run dev");
    expect(frame).toContain("compiled 12 modules");
    expect(frame).toContain("ready on :3000");
    expect(frame).toMatch(/x stop it/);
    h.keys("x");
    expect(h.sent.at(-1)).toEqual({ type: "job.stop", taskId: "t0", jobId: "job-1" });
  });
});
