// The mark of running work: an ink-spinner (a turning quarter block, 120 ms a frame: fewer renders
// than the 80 ms dots, and on string-width's fast path) while motion is allowed, else the still glyph the
// pane drew. Only this Text re-renders when it ticks (bench/tui.ts measures what that costs).
// Block glyphs need a UTF-8 locale; otherwise the spinner is the ASCII line (- \ | /).
import { Text, Transform } from "ink";
import Spinner from "ink-spinner";
import { useApp } from "../context/useStore.js";

export function Working({ still }: { still: string }) {
  const { motion, palette, ascii } = useApp();
  if (!motion) return <Text>{still}</Text>;
  return (
    <Transform transform={(frame) => palette.statusRunning(frame)}>
      <Spinner type={ascii ? "line" : "boxBounce"} />
    </Transform>
  );
}
