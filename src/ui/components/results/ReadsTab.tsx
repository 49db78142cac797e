// The Reads tab: files this task read.
import { readsTab } from "../../panes/results.js";
import { Lines } from "../Lines.js";
import { taskOf, useTab, type TabProps } from "./useTab.js";

export function ReadsTab(props: TabProps) {
  const { rows } = useTab(readsTab, (s) => [s.ui.resultsIndex, taskOf(s)?.reads], props);
  return <Lines lines={rows} width={props.width} />;
}
