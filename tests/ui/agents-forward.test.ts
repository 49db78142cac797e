// The Agents tab comes forward the first time children start in a turn of the task on screen,
// and not when the user picked a tab during that turn, nor for a task in the background.
import { describe, expect, it } from "vitest";
import { AgentsTabForward } from "../../src/ui/controller/agents-forward.js";
import { initialUi, type UiState } from "../../src/ui/state/ui-state.js";
import type { BusEvent } from "../../src/protocol/events.js";

const started = (taskId: string, turnId: string): BusEvent =>
  ({ type: "turn.started", taskId, turnId, prompt: "go" }) as BusEvent;
const child = (taskId: string, id = "agent-1"): BusEvent =>
  ({
    type: "subagent.updated",
    taskId,
    row: {
      id,
      name: "worker",
      task: "t",
      status: "running",
      durationMs: 0,
      preview: "",
      depth: 1,
      startedAt: null,
      endedAt: null,
      lastActivityAt: "",
      tool: null,
      usage: { prompt: 0, completion: 0 },
      files: [],
    },
  }) as BusEvent;

function apply(f: AgentsTabForward, ui: UiState, event: BusEvent, current = "a"): UiState {
  const change = f.observe(event, current);
  return change ? change(ui) : ui;
}

describe("AgentsTabForward", () => {
  it("brings the Agents tab forward once per turn, when the first child starts", () => {
    const f = new AgentsTabForward();
    let ui: UiState = { ...initialUi(120, 40), resultsTab: "changes" };
    ui = apply(f, ui, started("a", "t1"));
    expect(ui.resultsTab).toBe("changes");
    ui = apply(f, ui, child("a"));
    expect(ui.resultsTab).toBe("agents");
    // The user moves on; later rows of the same turn leave their tab alone.
    ui = { ...ui, resultsTab: "todo" };
    ui = apply(f, ui, child("a", "agent-2"));
    expect(ui.resultsTab).toBe("todo");
    // A new turn's children bring it forward again.
    ui = apply(f, ui, started("a", "t2"));
    ui = apply(f, ui, child("a", "agent-3"));
    expect(ui.resultsTab).toBe("agents");
  });

  it("keeps the tab the user picked in this turn", () => {
    const f = new AgentsTabForward();
    let ui: UiState = { ...initialUi(120, 40), resultsTab: "changes" };
    ui = apply(f, ui, started("a", "t1"));
    f.picked("a");
    ui = apply(f, ui, child("a"));
    expect(ui.resultsTab).toBe("changes");
  });

  it("ignores children of a task that is not on screen, and a subagent's own turns", () => {
    const f = new AgentsTabForward();
    let ui: UiState = { ...initialUi(120, 40), resultsTab: "changes" };
    ui = apply(f, ui, started("b", "t1"));
    ui = apply(f, ui, child("b"), "a");
    expect(ui.resultsTab).toBe("changes");
    ui = apply(f, ui, { ...started("a", "t9"), agentId: "agent-1" } as BusEvent);
    ui = apply(f, ui, child("a"));
    expect(ui.resultsTab).toBe("changes");
  });
});
