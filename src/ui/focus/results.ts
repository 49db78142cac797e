// The results pane: the current tab's own keys first (../tabs/), then Esc back to the input
// and the keys every tab shares: ←→ between tabs, ↑↓ and digits in the list, hunks in an open diff.
import { bindingIndex } from "../controller/agents.js";
import type { Controller } from "../controller/controller.js";
import { leaveListPane } from "../controller/lists.js";
import { shownTabs } from "../state/ui-state.js";
import type { InputEvent } from "../input/keys.js";
import type { FocusSpec } from "./focus.js";
import { resultsTabDefs } from "../tabs/index.js";
import { paneActions } from "../tabs/tab.js";

export const resultsFocus: FocusSpec = {
  keys: (ctl, event) =>
    event.kind === "key" &&
    (resultsTabDefs[ctl.ui.resultsTab].keys?.(ctl, event.key) ||
      leaveListPane(ctl, event.key) ||
      resultsKey(ctl, event)),
};

function resultsKey(ctl: Controller, event: Extract<InputEvent, { kind: "key" }>): boolean {
  const ui = ctl.ui;
  const measure = ctl.results;
  const action = ctl.action(event.key, paneActions);
  switch (action) {
    case "nextTab":
    case "prevTab": {
      const id = ctl.state.current;
      const turns = Boolean(id && ctl.state.transcripts[id]?.checkpoints.length);
      const tabs = shownTabs(ui.resultsTab, {
        turns,
        diff: ui.worktreeDiff !== null,
        skills: ctl.state.proposals.length > 0,
      });
      const i = tabs.indexOf(ui.resultsTab);
      const tab = tabs[(i + (action === "nextTab" ? 1 : tabs.length - 1)) % tabs.length]!;
      ctl.setUi((u) => ({
        ...u,
        resultsTab: tab,
        resultsIndex: 0,
        diffPath: null,
        diffHunk: 0,
        turnDiff: null,
        proposalOpen: null,
      }));
      ctl.agentsForward.picked(id);
      return true;
    }
    case "listUp":
    case "listDown": {
      const count = measure?.count ?? 0;
      const next = Math.max(0, Math.min(Math.max(0, count - 1), ui.resultsIndex + (action === "listUp" ? -1 : 1)));
      ctl.setUi((u) => ({ ...u, resultsIndex: next }));
      return true;
    }
    case "listPick": {
      const n = bindingIndex(ctl, "listPick", event.key);
      if (n >= 0 && n < (measure?.count ?? 0)) ctl.setUi((u) => ({ ...u, resultsIndex: n }));
      return true;
    }
    case "listSelect":
      // What Enter opens is the tab's (../tabs/); on a plain list it does nothing.
      return true;
    case "nextHunk":
    case "prevHunk": {
      if (!ui.diffPath) return true;
      const hunks = measure?.hunks ?? 0;
      if (hunks === 0) return true;
      const next = (ui.diffHunk + (action === "nextHunk" ? 1 : hunks - 1)) % hunks;
      ctl.setUi((u) => ({ ...u, diffHunk: next }));
      ctl.status(`hunk ${next + 1} of ${hunks}`);
      return true;
    }
    default:
      return false;
  }
}
