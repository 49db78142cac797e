// The centre column: the task bar, the virtualised transcript, pending steer/queue items and the
// composer (or the approval card). Owns the terminal cursor (the composer's). Re-renders for its
// task's transcript and the UI state, so a streamed token re-renders this pane alone.
import { useCursor } from "ink";
import { useApp, useSlices } from "../context/useStore.js";
import { transcriptFrame } from "../panes/transcript.js";
import { Lines } from "./Lines.js";
import { useMemo } from "react";

export interface TranscriptProps {
  width: number;
  height: number;
  /** Where the pane's top-left corner is on screen, for the cursor. */
  left: number;
  top: number;
}

export function Transcript({ width, height, left, top }: TranscriptProps) {
  const sv = useApp();
  const slices = useSlices((s) => {
    const id = s.current ?? "";
    return [id, s.transcripts[id], s.tasks[id], s.ui, s.follow[id]];
  });
  const frame = useMemo(() => transcriptFrame(sv.store.getView(), sv, width, height), [sv, width, height, ...slices]);
  const { setCursorPosition } = useCursor();
  setCursorPosition(frame.cursor && { x: left + frame.cursor.x, y: top + frame.cursor.y });
  return <Lines lines={frame.lines} width={width} spin={frame.spinning} />;
}
