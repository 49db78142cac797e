import type { ResultsTabSpec } from "./tab.js";
import { paneAction } from "./tab.js";

/** The Changes tab: Enter opens (or closes) the selected file's diff; hunk keys then move in it. */
export const changesTab: ResultsTabSpec = {
  keys(ctl, key) {
    if (paneAction(ctl, key) !== "listSelect") return false;
    const id = ctl.state.current;
    const path = id ? ctl.state.transcripts[id]?.changed[ctl.ui.resultsIndex] : undefined;
    if (path) ctl.setUi((u) => ({ ...u, diffPath: u.diffPath === path ? null : path, diffHunk: 0 }));
    return true;
  },
};
