// The Turns tab: each turn's files, or one file's diff from before its turn to now.
import { turnsTab } from "../../view/turns-view.js";
import { Lines } from "../Lines.js";
import { taskOf, useTab, type TabProps } from "./useTab.js";

export function TurnsTab(props: TabProps) {
  const { rows } = useTab(turnsTab, (s) => [s.ui.resultsIndex, s.ui.turnDiff, s.current, taskOf(s), s.shown], props);
  return <Lines lines={rows} width={props.width} />;
}
