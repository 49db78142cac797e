// The Diff tab: the working tree's diff as /diff last read it (the controller stores it).
import { diffTab } from "../../view/diff-view.js";
import { Lines } from "../Lines.js";
import { useTab, type TabProps } from "./useTab.js";

export function DiffTab(props: TabProps) {
  const { rows } = useTab(diffTab, (s) => [s.ui.worktreeDiff], props);
  return <Lines lines={rows} width={props.width} />;
}
