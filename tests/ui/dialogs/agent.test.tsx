// A subagent's live view on its own: it draws the whole area (its header and transcript), follows
// what the child streams, x asks before stopping it (the question returns to the view), Esc closes.
import { afterEach, describe, expect, it } from "vitest";
import { openAgentView } from "../../../src/ui/controller/agents.js";
import { board, row } from "../agents-fixtures.js";
import { keys } from "../../helpers/pty.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

describe.each(widths)("a subagent's view at %i columns", (columns) => {
  it("shows the child's transcript live; x asks to stop it, n returns, Esc closes", async () => {
    m = mountDialog(columns);
    const child = row("agent-1", { name: "worker" });
    m.bus.emit(board(child));
    openAgentView(m.ctl, child);
    const ev = { taskId: "t0", agentId: "agent-1" };
    m.bus.emit({ type: "turn.started", ...ev, turnId: "c1", prompt: "fix the parser" });
    m.bus.emit({ type: "assistant.delta", ...ev, text: "Looking at the parser" });
    let frame = await m.frame();
    expect(frame.split("\n")[0]).toContain("agent-1");
    expect(frame).toContain("Looking at the parser");
    m.type("x");
    frame = await m.frame();
    expect(m.dialog()?.kind).toBe("confirm");
    expect(frame).toContain("Stop agent-1");
    m.type("n");
    frame = await m.frame();
    expect(m.dialog()?.kind).toBe("agent");
    expect(frame).toContain("Looking at the parser");
    m.type(keys.esc);
    await m.frame();
    expect(m.dialog()).toBeNull();
    expect(m.sent.filter((c) => c.type === "subagent.stop")).toEqual([]);
  });
});
