// `!` shell mode: a command the user runs from the prompt, through the same path as the model's
// run_command (policy, approval, sandbox, hooks, checkpoints), and the note that carries the
// command and its output into the model's context for the next turn.
import type { ToolCallResult } from "../tools/registry.js";
import { clampResult } from "../tools/truncate.js";
import { SHELL_CALL_PREFIX, SHELL_INPUT_OPEN, isShellNote } from "../protocol/shell-note.js";

export { SHELL_CALL_PREFIX, SHELL_INPUT_OPEN, isShellNote };

/** What of a command's output the note keeps (start and end): the model's context is not a log file. */
export const SHELL_NOTE_MAX_BYTES = 8 * 1024;

/**
 * The user message that records a shell-mode command, in the tags Claude Code's bash mode uses:
 * `<bash-input>` the command, `<bash-output>` what run_command reported (status line, stdout,
 * stderr; start and end kept). `result` null: the command has not ended (the note's placeholder).
 */
export function shellNote(command: string, result: ToolCallResult | null): string {
  const head = `${SHELL_INPUT_OPEN}${command}</bash-input>`;
  if (!result) return head;
  // run_command's result starts with "$ COMMAND": the input tag says that already.
  const body =
    result.status === "ok" || result.status === "error"
      ? result.forModel.replace(/^\$ [^\n]*\n/, "")
      : `${result.status}: ${result.forModel}`;
  const output = clampResult(body, { maxBytes: SHELL_NOTE_MAX_BYTES, strategy: "head-tail" });
  return `${head}\n<bash-output>\n${output}\n</bash-output>\nThe user ran this command themselves with \`!\`; take its output into account from now on.`;
}
