// /rewind and "revert this file only" for a task: carried out by its agent, reported as notices,
// and a rebuilt transcript when the conversation changed.
import type { CommandOf } from "../protocol/commands.js";
import type { EventOf } from "../protocol/events.js";
import type { Agent } from "./agent.js";

/** What it reports, without the task id (the caller adds it). */
type Report =
  | { type: "notice"; level: "info" | "warn" | "error"; text: string }
  | Omit<EventOf<"session.loaded">, "taskId">;

/** Contract: never throws; every outcome, failures included, is reported through `report`. */
export async function rewindTask(
  agent: Agent,
  command: CommandOf<"session.rewind" | "file.revert">,
  report: (event: Report) => void,
): Promise<void> {
  const say = (level: "info" | "warn" | "error", text: string) => report({ type: "notice", level, text });
  try {
    if (command.type === "file.revert") return say("info", await agent.revertFile(command.turn, command.path));
    const result = await agent.rewind(command.turn, command.what);
    if (result.files) {
      const { restored, removed, skipped } = result.files;
      say(
        skipped.length ? "warn" : "info",
        `files as before turn ${command.turn}: ${restored.length} restored, ${removed.length} removed${skipped.length ? `; not touched: ${skipped.map((s) => `${s.path} (${s.why})`).join(", ")}` : ""}`,
      );
    }
    if (result.error) say("warn", result.error);
    if (result.dropped !== undefined) {
      await agent.save();
      report({ type: "session.loaded", ...agent.loadedView() });
      say(
        "info",
        `the conversation is back to before turn ${command.turn} (${result.dropped} turn${result.dropped === 1 ? "" : "s"} dropped)`,
      );
    }
  } catch (error) {
    say("error", `rewind failed: ${(error as Error).message}`);
  }
}
