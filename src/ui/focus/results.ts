// The results pane: the current tab's own keys first (../tabs/), then Esc back to the input
// and the keys every tab shares: ←→ between tabs, ↑↓ and digits in the list, hunks in an open diff.
import { bindingIndex } from "../controller/agents.js";
import type { AreaHost } from "../controller/host.js";
import { leaveListPane } from "../controller/lists.js";
import { shownTabs } from "../state/ui-state.js";
import type { InputEvent } from "../input/keys.js";
import type { FocusSpec } from "./focus.js";
import { resultsTabDefs } from "../tabs/index.js";
import { paneActions } from "../tabs/tab.js";

export const resultsFocus: FocusSpec = {
  keys: (host, event) =>
    event.kind === "key" &&
    (resultsTabDefs[host.ui.resultsTab].keys?.(host, event.key) ||
      leaveListPane(host, event.key) ||
      resultsKey(host, event)),
};

function resultsKey(host: AreaHost, event: Extract<InputEvent, { kind: "key" }>): boolean {
  const ui = host.ui;
  const measure = host.results;
  const action = host.action(event.key, paneActions);
  switch (action) {
    case "nextTab":
    case "prevTab": {
      const id = host.state.current;
      const turns = Boolean(id && host.state.transcripts[id]?.checkpoints.length);
      const tabs = shownTabs(ui.resultsTab, {
        turns,
        diff: ui.worktreeDiff !== null,
        skills: host.state.proposals.length > 0,
      });
      const i = tabs.indexOf(ui.resultsTab);
      const tab = tabs[(i + (action === "nextTab" ? 1 : tabs.length - 1)) % tabs.length]!;
      host.setUi((u) => ({
        ...u,
        resultsTab: tab,
        resultsIndex: 0,
        diffPath: null,
        diffHunk: 0,
        turnDiff: null,
        proposalOpen: null,
      }));
      host.agentsForward.picked(id);
      return true;
    }
    case "listUp":
    case "listDown": {
      const count = measure?.count ?? 0;
      const next = Math.max(0, Math.min(Math.max(0, count - 1), ui.resultsIndex + (action === "listUp" ? -1 : 1)));
      host.setUi((u) => ({ ...u, resultsIndex: next }));
      return true;
    }
    case "listPick": {
      const n = bindingIndex(host, "listPick", event.key);
      if (n >= 0 && n < (measure?.count ?? 0)) host.setUi((u) => ({ ...u, resultsIndex: n }));
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
      host.setUi((u) => ({ ...u, diffHunk: next }));
      host.status(`hunk ${next + 1} of ${hunks}`);
      return true;
    }
    default:
      return false;
  }
}
