// The Files tab: the workspace as a tree (listed after the first frame).
import { filesTab } from "../../panes/results.js";
import { Lines } from "../Lines.js";
import { useTab, type TabProps } from "./useTab.js";

export function FilesTab(props: TabProps) {
  const { rows } = useTab(filesTab, (s) => [s.ui], props);
  return <Lines lines={rows} width={props.width} />;
}
