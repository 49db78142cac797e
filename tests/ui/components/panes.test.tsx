// Each pane component on its own (ink-testing-library) at 40, 80 and 120 columns: what it draws
// from the store, and the keys that reach it through stdin and the controller.
import { afterEach, describe, expect, it } from "vitest";
import { TaskList } from "../../../src/ui/components/TaskList.js";
import { TitleBar } from "../../../src/ui/components/TitleBar.js";
import { StatusLine } from "../../../src/ui/components/StatusLine.js";
import { Transcript } from "../../../src/ui/components/Transcript.js";
import { DialogArea } from "../../../src/ui/components/DialogArea.js";
import { visibleWidth } from "../../../src/ui/render/wrap.js";
import { snapshot } from "../harness.js";
import { mountPane } from "./mount.js";
import { waitFor } from "../../helpers/wait.js";

let mounted: ReturnType<typeof mountPane> | undefined;
afterEach(() => {
  mounted?.app.unmount();
  mounted = undefined;
});

const rowsOf = (frame: string) => frame.split("\n");

describe.each([40, 80, 120])("at %i columns", (columns) => {
  const rows = 20;

  it("TitleBar: the brand and the model on one line no wider than the pane", async () => {
    mounted = mountPane(<TitleBar width={columns} />, columns, rows);
    const frame = await mounted.frame();
    expect(rowsOf(frame)).toHaveLength(1);
    expect(frame).toContain("NanoHermes");
    if (columns >= 80) expect(frame).toContain("mock-model");
    expect(visibleWidth(frame)).toBeLessThanOrEqual(columns);
  });

  it("TaskList: every task with its title, and the selection moves with ↓ while it has focus", async () => {
    const width = Math.min(26, columns);
    mounted = mountPane(<TaskList width={width} height={8} />, columns, rows);
    mounted.bus.emit({ type: "task.updated", taskId: "t1", task: snapshot({ title: "second task" }) });
    let frame = await mounted.frame();
    expect(rowsOf(frame)).toHaveLength(8);
    expect(frame).toContain("Tasks 2");
    expect(frame).toContain("second task");
    mounted.store.updateUi((ui) => ({ ...ui, focus: "tasks", taskIndex: 0 }));
    mounted.app.stdin.write("\x1b[B");
    frame = await mounted.frame();
    expect(mounted.store.getState().ui.taskIndex).toBe(1);
    for (const line of rowsOf(frame)) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
  });

  it("TaskList: a running task's glyph is a spinner only while motion is allowed", async () => {
    for (const motion of [true, false]) {
      mounted = mountPane(<TaskList width={Math.min(26, columns)} height={6} />, columns, rows, { motion });
      mounted.bus.emit({ type: "task.updated", taskId: "t0", task: snapshot({ status: "running", title: "busy" }) });
      const line = rowsOf(await mounted.frame()).find((l) => l.includes("busy")) ?? "";
      if (motion) expect(line).toMatch(/^[▖▘▝▗]/);
      else expect(line.startsWith("●")).toBe(true);
      mounted.app.unmount();
    }
    mounted = undefined;
  });

  it("Transcript: the conversation, and what is typed on stdin in the composer", async () => {
    mounted = mountPane(<Transcript width={columns} height={12} left={0} top={0} />, columns, rows);
    mounted.bus.emit({ type: "turn.started", taskId: "t0", turnId: "turn-1", prompt: "hello there" });
    mounted.bus.emit({ type: "assistant.delta", taskId: "t0", text: "general reply" });
    mounted.app.stdin.write("abc");
    const frame = await mounted.frame();
    expect(rowsOf(frame)).toHaveLength(12);
    expect(frame).toContain("general reply");
    expect(frame).toMatch(/› abc/);
    expect(mounted.store.getState().ui.composer.lines.join("")).toBe("abc");
  });

  it("StatusLine: the keys that matter, then a status message", async () => {
    mounted = mountPane(<StatusLine width={columns} />, columns, rows);
    expect(await mounted.frame()).toContain("Enter send");
    mounted.ctl.status("saved the thing");
    const frame = await mounted.frame();
    expect(frame).toContain("saved the thing");
    expect(visibleWidth(frame)).toBeLessThanOrEqual(columns);
  });

  it("StatusLine: a message goes when the controller takes it off at its expiry (no timer of its own)", async () => {
    mounted = mountPane(<StatusLine width={columns} />, columns, rows);
    // Long enough to be drawn first on a loaded machine; then polled for (up to 5 s), not timed.
    mounted.ctl.status("short-lived", "info", 500);
    expect(await mounted.frame()).toContain("short-lived");
    await waitFor(() => mounted!.store.getState().ui.status === null, { what: "the status message expired" });
    const frame = await mounted.frame();
    expect(frame).not.toContain("short-lived");
    expect(frame).toContain("Enter send");
  });

  it("DialogArea: a question, answered with a key on stdin", async () => {
    mounted = mountPane(<DialogArea width={columns} height={10} />, columns, rows);
    mounted.store.updateUi((ui) => ({
      ...ui,
      dialog: { kind: "confirm", action: "delete", target: "t0", title: "Delete this task? (y/n)" },
    }));
    expect(await mounted.frame()).toContain("Delete this task?");
    mounted.app.stdin.write("n");
    await mounted.frame();
    expect(mounted.store.getState().ui.dialog).toBeNull();
  });
});
