// The Changes tab: files this task wrote, and the open one's word-level diff with hunk jumps.
import { changesTab } from "../../panes/results.js";
import { Lines } from "../Lines.js";
import { taskOf, useTab, type TabProps } from "./useTab.js";

export function ChangesTab(props: TabProps) {
  const { rows } = useTab(
    changesTab,
    (s) => [
      s.ui.resultsIndex,
      s.ui.diffPath,
      s.ui.diffHunk,
      taskOf(s)?.changed,
      s.shown,
      s.current ? s.tasks[s.current]?.snapshot.location : null,
    ],
    props,
  );
  return <Lines lines={rows} width={props.width} />;
}
