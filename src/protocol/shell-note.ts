// What front ends need to know of `!` shell mode (src/agent/shell-mode.ts): how its tool calls are
// named and how its note to the model starts, so they can show a card open and a note as the command.

/** Call ids of shell-mode commands start with this, so front ends can show them open. */
export const SHELL_CALL_PREFIX = "shell_";

export const SHELL_INPUT_OPEN = "<bash-input>";

/** Whether a user message is a shell-mode note (the transcript shows it as the command it ran). */
export const isShellNote = (text: string): boolean => text.startsWith(SHELL_INPUT_OPEN);
