// The Todo tab: the plan the model keeps with its todo tool.
import { todoTab } from "../../panes/results.js";
import { Lines } from "../Lines.js";
import { taskOf, useTab, type TabProps } from "./useTab.js";

export function TodoTab(props: TabProps) {
  const { rows } = useTab(todoTab, (s) => [s.ui.resultsIndex, taskOf(s)?.todo], props);
  return <Lines lines={rows} width={props.width} />;
}
