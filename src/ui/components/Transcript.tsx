// The centre column: the task bar, the virtualised transcript, pending steer/queue items and the
// composer (or the approval card). Owns the terminal cursor (the composer's). Draws from its model
// (selectTranscript: the current task's parts and the composer's), so a streamed token re-renders
// this pane alone, and the clock only while its task counts time.
import { useCursor } from "ink";
import { useMemo } from "react";
import { useApp, useStore } from "../context/useStore.js";
import { selectTranscript, transcriptFrame } from "../panes/transcript-pane.js";
import { sameParts } from "../state/select.js";
import { Lines } from "./Lines.js";

export interface TranscriptProps {
  width: number;
  height: number;
  /** Where the pane's top-left corner is on screen, for the cursor. */
  left: number;
  top: number;
}

export function Transcript({ width, height, left, top }: TranscriptProps) {
  const sv = useApp();
  const model = useStore(selectTranscript, sameParts);
  const frame = useMemo(() => transcriptFrame(model, sv, width, height), [model, sv, width, height]);
  const { setCursorPosition } = useCursor();
  setCursorPosition(frame.cursor && { x: left + frame.cursor.x, y: top + frame.cursor.y });
  return <Lines lines={frame.lines} width={width} spin={frame.spinning} />;
}
