// The mark of running work: ink-spinner's dots while motion is allowed, else the still glyph the
// pane drew. Only this Text re-renders when it ticks (bench/tui.ts measures what that costs).
// Braille dots need a UTF-8 locale; otherwise the spinner is the ASCII line (- \ | /).
import { Text, Transform } from "ink";
import Spinner from "ink-spinner";
import { useApp } from "../context/useStore.js";

export function Working({ still }: { still: string }) {
  const { motion, palette, ascii } = useApp();
  if (!motion) return <Text>{still}</Text>;
  return (
    <Transform transform={(frame) => palette.statusRunning(frame)}>
      <Spinner type={ascii ? "line" : "dots"} />
    </Transform>
  );
}
