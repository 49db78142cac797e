// The Agents tab: the subagent board, a spinner on each running child's row.
import { agentsTab } from "../../panes/results.js";
import { Lines } from "../Lines.js";
import { taskOf, useTab, type TabProps } from "./useTab.js";

const SGR = /\x1b\[[0-9;:]*m/g;
/** A running child's first row: its number (or a blank), its indent, the running glyph. */
const RUNNING = /^[0-9 ] (?: {2})*[●*] /;

export function AgentsTab(props: TabProps) {
  // The board shows elapsed times: it follows the UI state, which the one-second tick renews.
  const { rows } = useTab(agentsTab, (s) => [s.ui, taskOf(s)?.agents, taskOf(s)?.blocks], props);
  const spin = rows.flatMap((line, i) => (i > 0 && RUNNING.test(line.replace(SGR, "")) ? [i] : []));
  return <Lines lines={rows} width={props.width} spin={spin} />;
}
