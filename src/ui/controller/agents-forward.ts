// The Agents tab comes forward the first time children start in a turn of the task on screen,
// unless the user picked a results tab during that turn (their choice wins).
import type { BusEvent } from "../../protocol/events.js";
import type { UiState } from "../state/ui-state.js";

export class AgentsTabForward {
  /** Per task: the turn running now, and whether the board already came forward / a tab was picked in it. */
  private readonly turns = new Map<string, { turnId: string; forwarded: boolean; picked: boolean }>();

  /** The user switched results tabs: keep their tab for the rest of the current task's turn. */
  picked(taskId: string | null): void {
    const turn = taskId ? this.turns.get(taskId) : undefined;
    if (turn) turn.picked = true;
  }

  /**
   * Contract: called with every bus event before it reaches the store; returns the UI change to
   * make (the tab to bring forward), or null.
   */
  observe(event: BusEvent, current: string | null): ((ui: UiState) => UiState) | null {
    if (event.type === "turn.started" && event.agentId === undefined) {
      this.turns.set(event.taskId, { turnId: event.turnId, forwarded: false, picked: false });
      return null;
    }
    if (event.type !== "subagent.updated" || event.taskId !== current) return null;
    const turn = this.turns.get(event.taskId);
    if (!turn || turn.forwarded || turn.picked) return null;
    turn.forwarded = true;
    return (ui) =>
      ui.resultsTab === "agents"
        ? ui
        : { ...ui, resultsTab: "agents", resultsIndex: 0, diffPath: null, diffHunk: 0, turnDiff: null };
  }
}
