// A pane's width-exact lines in a Box of their size: one text node, which Ink's output stage
// places as one rectangle (the fast path in scripts/ink-patches.mjs). Rows in `spin` carry a
// running-work glyph; the first of them is split around it so the spinner is its own small node
// and the rectangles still do not overlap. Under a non-UTF-8 locale the lines become ASCII here,
// the one place every pane's text passes through (the first frame: text-frame.ts).
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
  const spots = [...spin]
    .sort((a, b) => a - b)
    .map((row) => ({ row, col: glyphColumn(lines[row] ?? "", glyphs) }))
    .filter((s) => s.col >= 0)
    .slice(0, 1);
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
    const line = lines[row]!;
    parts.push(
      <Box key={`s${row}`} height={1} width={width}>
        <Text>{sliceColumns(line, 0, col)}</Text>
        <Working still={sliceColumns(line, col, col + 1)} />
        <Text>{sliceColumns(line, col + 1, width)}</Text>
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
