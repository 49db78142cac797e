// A pane's width-exact lines in a Box of their size: one text node, which Ink's output stage
// places as one rectangle (the fast path of patches/ink@6.8.0/7-output-rect-path.diff). Rows in `spin` carry a
// running-work glyph; the first of them is split around it so the spinner is its own small node
// and the rectangles still do not overlap. Under a non-UTF-8 locale the lines become ASCII here,
// the one place every pane's text passes through (the first frame: ../app/text-frame.ts).
import { Box, Text } from "ink";
import { useContext, type ReactNode } from "react";
import { AppContext, type AppServices } from "../context/services.js";
import { toAscii } from "../render/ascii.js";
import { sliceColumns, visibleWidth } from "../render/wrap.js";
import { Working } from "./Working.js";

const SGR = /\x1b\[[0-9;:]*m/g;

/** The column of the first `glyph` in a styled line, or -1. */
export function glyphColumn(line: string, glyphs: readonly string[]): number {
  const plain = line.replace(SGR, "");
  let at = -1;
  for (const g of glyphs) {
    const i = plain.indexOf(g);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at < 0 ? -1 : visibleWidth(plain.slice(0, at));
}

/** A running row cut around its glyph: the columns before it, the glyph, the columns after it. */
interface SpinRow {
  before: string;
  still: string;
  after: string;
}

// The running rows repeat from frame to frame (a card's head changes once a second, with its
// elapsed time) while the pane redraws for every streamed token; cutting a styled line by columns
// is the costly part of the pane's render (the board with four children streaming).
const spinRows = new Map<string, SpinRow>();

function spinRow(line: string, col: number, width: number): SpinRow {
  const key = `${width} ${col} ${line}`;
  let row = spinRows.get(key);
  if (!row) {
    if (spinRows.size >= 256) spinRows.clear();
    row = {
      before: sliceColumns(line, 0, col),
      still: sliceColumns(line, col, col + 1),
      after: sliceColumns(line, col + 1, width),
    };
    spinRows.set(key, row);
  }
  return row;
}

export interface LinesProps {
  lines: readonly string[];
  width: number;
  /** Rows whose first running glyph (one of `glyphs`) becomes a spinner. */
  spin?: readonly number[];
  glyphs?: readonly string[];
}

export function Lines({ lines: drawn, width, spin = [], glyphs = ["●", "*"] }: LinesProps) {
  // Null outside the app (a component test may mount Lines alone): Unicode then.
  const ascii = (useContext(AppContext) as AppServices | null)?.ascii === true;
  const lines = ascii ? drawn.map(toAscii) : drawn;
  // One spinner per pane, on its first running row: each ink-spinner ticks on its own timer, and
  // each tick is a React commit and an Ink layout; twenty running subagents spinning at once cost
  // most of a core (bench/tui.ts, the board). The other rows keep their still glyph.
  const spots: { row: number; col: number }[] = [];
  for (const row of [...spin].sort((a, b) => a - b)) {
    const col = glyphColumn(lines[row] ?? "", glyphs);
    if (col < 0) continue;
    spots.push({ row, col });
    break;
  }
  if (spots.length === 0) {
    return (
      <Box width={width} height={lines.length} flexShrink={0}>
        <Text wrap="truncate-end">{lines.join("\n")}</Text>
      </Box>
    );
  }
  const parts: ReactNode[] = [];
  let from = 0;
  for (const { row, col } of spots) {
    if (row > from)
      parts.push(
        <Text key={`t${from}`} wrap="truncate-end">
          {lines.slice(from, row).join("\n")}
        </Text>,
      );
    const cut = spinRow(lines[row]!, col, width);
    parts.push(
      <Box key={`s${row}`} height={1} width={width}>
        <Text>{cut.before}</Text>
        <Working still={cut.still} />
        <Text>{cut.after}</Text>
      </Box>,
    );
    from = row + 1;
  }
  if (from < lines.length)
    parts.push(
      <Text key={`t${from}`} wrap="truncate-end">
        {lines.slice(from).join("\n")}
      </Text>,
    );
  return (
    <Box width={width} height={lines.length} flexDirection="column" flexShrink={0}>
      {parts}
    </Box>
  );
}
