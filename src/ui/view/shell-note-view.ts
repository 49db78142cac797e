// A `!` command's note as a stored session keeps it (a user message, agent/shell-mode.ts): shown
// as the command the user typed, not as the tags the model reads.
import { isShellNote } from "../../protocol/shell-note.js";

export function shellNoteView(text: string): { command: string; lines: number } | null {
  if (!isShellNote(text)) return null;
  const command = /^<bash-input>([\s\S]*?)<\/bash-input>/.exec(text)?.[1] ?? "";
  const output = /<bash-output>\n([\s\S]*?)\n<\/bash-output>/.exec(text)?.[1] ?? "";
  return { command, lines: output ? output.split("\n").length : 0 };
}
