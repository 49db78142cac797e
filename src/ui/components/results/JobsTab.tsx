// The Jobs tab: this task's background commands.
import { jobsTab } from "../../panes/results.js";
import { Lines } from "../Lines.js";
import { taskOf, useTab, type TabProps } from "./useTab.js";

export function JobsTab(props: TabProps) {
  const { rows } = useTab(jobsTab, (s) => [s.ui.resultsIndex, taskOf(s)?.jobs], props);
  return <Lines lines={rows} width={props.width} />;
}
