// A task's session commands between turns: /undo, /clear and /compact carried out by its agent,
// and its export to Markdown or JSON; reported as notices and a rebuilt transcript.
import { log } from "../config/log.js";
import type { CommandOf } from "../protocol/commands.js";
import type { EventOf } from "../protocol/events.js";
import { exportTask } from "../session/export.js";
import type { Agent } from "./agent.js";

/** What they report, without the task id (the caller adds it). */
export type SessionReport =
  | { type: "notice"; level: "info" | "warn" | "error"; text: string }
  | Omit<EventOf<"session.loaded">, "taskId">;

type Say = (level: "info" | "warn" | "error", text: string) => void;
const sayOf =
  (report: (event: SessionReport) => void): Say =>
  (level, text) =>
    report({ type: "notice", level, text });

/** /undo and /clear: the conversation changes, is saved, and front ends get it again. */
export async function editConversation(
  agent: Agent,
  command: CommandOf<"session.undo" | "session.clear">,
  report: (event: SessionReport) => void,
): Promise<void> {
  const say = sayOf(report);
  if (command.type === "session.undo") {
    const n = agent.undo(command.n);
    say("info", n ? `dropped the last ${n} turn${n === 1 ? "" : "s"}` : "nothing to undo");
  } else {
    agent.clear();
    say("info", "the conversation was cleared");
  }
  await agent.save();
  report({ type: "session.loaded", ...agent.loadedView() });
}

/**
 * /compact: folds the conversation, saved when something was folded. The transcript keeps what
 * the user saw; context.compacted marks where the model's view changed. Contract: never rejects.
 */
export async function compactConversation(agent: Agent, focus: string | undefined): Promise<void> {
  try {
    if ((await agent.compactHistory({ forced: true, ...(focus ? { focus } : {}) })) === "done") await agent.save();
  } catch (error) {
    log("error", "compaction", error);
  }
}

/** Writes the session as Markdown or JSON. Contract: never rejects; where it went, or why not, is reported. */
export async function exportSession(
  agent: Promise<Agent>,
  title: string,
  format: "markdown" | "json",
  path: string | undefined,
  workspace: string,
  report: (event: SessionReport) => void,
): Promise<void> {
  const say = sayOf(report);
  try {
    const file = await exportTask((await agent).session, title, format, path ?? null, workspace);
    say("info", `exported to ${file}`);
  } catch (error) {
    say("error", `export failed: ${(error as Error).message}`);
  }
}
