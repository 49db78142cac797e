// The `!` shell turn: a command the user runs between turns, as a turn of its own without a model
// call. The note that carries it into the conversation is shell-mode.ts's.
import { redact } from "../config/log.js";
import type { ChatMessage } from "../protocol/messages.js";
import type { ToolCallResult } from "../tools/registry.js";
import type { AgentCore } from "./agent-core.js";
import { SHELL_CALL_PREFIX, shellNote } from "./shell-mode.js";

/**
 * Runs `rawCommand` as the model's run_command would (policy, approval, sandbox). Its note is the
 * turn's prompt, so the model sees the command and its output next turn, and /undo and /rewind
 * treat it as a turn. Throws when a turn runs already.
 */
export async function runShellTurn(core: AgentCore, rawCommand: string): Promise<ToolCallResult> {
  const command = redact(rawCommand);
  const { turnId, toolAbort } = core.control.begin();
  core.emit({ type: "turn.started", turnId, prompt: `!${command}` });
  const note: ChatMessage = { role: "user", content: shellNote(command, null) };
  core.messages().push(note);
  let result: ToolCallResult;
  try {
    // On disk before the command runs, like a prompt: its file changes are checkpointed under it.
    await core.save();
    result = await core.opts.tools.execute(
      { id: `${SHELL_CALL_PREFIX}${turnId}`, name: "run_command", arguments: JSON.stringify({ command }) },
      core.toolEnv(toolAbort.signal),
    );
    note.content = shellNote(command, result);
  } finally {
    core.control.end();
  }
  await core.save();
  const reason = result.status === "aborted" ? "interrupted" : "completed";
  const saveError = core.saveError() ?? undefined;
  core.emit({
    type: "turn.completed",
    turnId,
    reason,
    response: "",
    ...(saveError ? { saveError } : {}),
    steps: 0,
    usage: { prompt: 0, completion: 0 },
  });
  return result;
}
