// The results pane's tab bar: tab names as words wherever they fit. A narrow pane (28 columns at
// 120) wraps the words onto a second row before it abbreviates; abbreviations are the short forms
// in each tab's definition (never a lone initial while a short form fits); single letters are the last resort.
import { padToWidth, truncateToWidth, visibleWidth } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";
import type { ResultsTab } from "../state/ui-state.js";
import { resultsTabDefs } from "./index.js";

const tabLabels = (t: ResultsTab): string => resultsTabDefs[t].label;
const tabShortLabels = (t: ResultsTab): string => resultsTabDefs[t].short;

/** Greedy rows of `items` (visible widths `w`) joined by one space, or null past `maxRows`. */
function pack(items: string[], w: number[], width: number, maxRows: number): string[] | null {
  const rows: string[] = [];
  let row = "";
  let used = -1;
  for (let i = 0; i < items.length; i++) {
    if (w[i]! > width) return null;
    if (used >= 0 && used + 1 + w[i]! <= width) {
      row += ` ${items[i]}`;
      used += 1 + w[i]!;
      continue;
    }
    if (used >= 0) rows.push(row);
    row = items[i]!;
    used = w[i]!;
  }
  if (used >= 0) rows.push(row);
  return rows.length <= maxRows ? rows : null;
}

/**
 * The bar as 1..maxRows lines of exactly `width` columns. `tabs`: the ones shown, in order.
 * The current tab is bracketed (it must show without colour too) and always a word.
 */
export function tabBar(
  p: Palette,
  tab: ResultsTab,
  counts: Partial<Record<ResultsTab, number>>,
  width: number,
  tabs = Object.keys(resultsTabDefs) as ResultsTab[],
  maxRows = 2,
): string[] {
  const count = (t: ResultsTab) => (counts[t] ? ` ${counts[t]}` : "");
  const roomy = tabs
    .map((t) => (t === tab ? p.badge(`[${tabLabels(t)}${count(t)}]`) : p.dim(` ${tabLabels(t)}${count(t)} `)))
    .join("");
  if (visibleWidth(roomy) <= width) return [padToWidth(roomy, width)];
  // Then words one space apart on one row, then on more rows; then the other tabs' short forms,
  // the longest word first, one at a time, so as few names as possible are shortened.
  const short = new Set<ResultsTab>();
  const order = tabs
    .filter((t) => t !== tab && tabShortLabels(t).length < tabLabels(t).length)
    .sort((a, b) => tabLabels(b).length - tabLabels(a).length);
  for (let k = 0; k <= order.length; k++) {
    if (k > 0) short.add(order[k - 1]!);
    const texts = tabs.map((t) =>
      t === tab ? `[${tabLabels(t)}${count(t)}]` : `${short.has(t) ? tabShortLabels(t) : tabLabels(t)}${count(t)}`,
    );
    const w = texts.map((x) => visibleWidth(x));
    const painted = tabs.map((t, i) => (t === tab ? p.badge(texts[i]!) : p.dim(texts[i]!)));
    const rows = pack(painted, w, width, 1) ?? pack(painted, w, width, maxRows);
    if (rows) return rows.map((r) => padToWidth(r, width));
  }
  const tiny = tabs
    .map((t) =>
      t === tab ? p.badge(`[${tabLabels(t)}${count(t)}]`) : p.dim(resultsTabDefs[t].letter ?? tabLabels(t)[0]!),
    )
    .join(" ");
  return [padToWidth(truncateToWidth(tiny, width), width)];
}
