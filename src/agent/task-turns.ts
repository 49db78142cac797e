// A task's turns on its agent: a prompt (with its images) and a `!` command, each ending with the
// status the task shows after it. The task manager decides when they start and what comes next.
import { log } from "../config/log.js";
import type { TaskStatus } from "../protocol/events.js";
import type { Agent } from "./agent.js";
import { buildPrompt } from "./images.js";
import type { Task } from "./task-state.js";
import { SessionBusyError } from "../session/session-lock.js";

type Say = (level: "info" | "error", text: string) => void;

/**
 * Runs `text` (and its images) as a turn, on `model` for this turn only when given. Contract: never
 * rejects; a refused image stops the turn before the model sees anything, a throw is reported.
 * A session another process holds is handed to `busy` (the prompt goes back to the user), not
 * reported as a failed turn.
 */
export async function runPromptTurn(
  task: Task,
  load: () => Promise<Agent>,
  turn: { text: string; images: string[]; model: string | undefined; workspace: string },
  say: Say,
  busy: (error: SessionBusyError) => void,
): Promise<TaskStatus> {
  try {
    const agent = await load();
    const built = await buildPrompt(turn.text, turn.images, turn.workspace);
    if (built.errors.length > 0) {
      // A refused image stops the whole turn: the model never gets half of what was meant.
      for (const error of built.errors) say("error", `image refused: ${error}`);
      return "idle";
    }
    for (const note of built.notes) say("info", `image attached: ${note}`);
    agent.session.title = task.title;
    agent.session.pinned = task.pinned;
    // A model for this turn only: the task's own comes back when it ends.
    const model = turn.model;
    if (model) agent.model = model;
    const result = await agent.run(built.content).finally(() => {
      if (model) agent.model = task.model;
    });
    // A turn whose session could not be saved is shown failed (its notice says why).
    if (result.saveError) return "failed";
    return result.reason === "completed" ? "done" : result.reason === "interrupted" ? "idle" : "failed";
  } catch (error) {
    if (error instanceof SessionBusyError) {
      busy(error);
      return "idle";
    }
    log("error", `task ${task.id} turn failed`, error);
    say("error", `the turn failed: ${(error as Error).message}`);
    return "failed";
  }
}

/** `!` shell mode: the command as a turn of its own (Ctrl-C stops it like one). Contract: never rejects. */
export async function runShellCommand(
  task: Task,
  load: () => Promise<Agent>,
  command: string,
  say: Say,
): Promise<TaskStatus> {
  try {
    const result = await (await load()).shell(command);
    // A command that exits non-zero is an answer, not a failed task.
    return result.status === "aborted" ? "idle" : "done";
  } catch (error) {
    log("error", `task ${task.id} shell command failed`, error);
    say("error", `the command failed: ${(error as Error).message}`);
    return "failed";
  }
}
