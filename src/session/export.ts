// Exports a task's conversation as Markdown (for people) or JSON (the session as stored).
import { join, resolve } from "node:path";
import { contentText } from "../protocol/messages.js";
import type { SessionData } from "./store.js";
import { redact } from "../config/log.js";
import { atomicWriteFile } from "../tools/fs-atomic.js";

export function sessionToMarkdown(session: SessionData, title: string): string {
  const out = [`# ${title}`, "", `Session ${session.id}, model ${session.model}, workspace ${session.workspace}`, ""];
  for (const m of session.messages) {
    if (m.role === "system") continue;
    if (m.role === "user") out.push("## User", "", contentText(m.content), "");
    else if (m.role === "assistant") {
      if (m.content) out.push("## Assistant", "", m.content, "");
      for (const call of m.tool_calls ?? [])
        out.push(`**Tool call** \`${call.function.name}\``, "", "```json", call.function.arguments, "```", "");
    } else out.push("**Tool result**", "", "```", m.content, "```", "");
  }
  return out.join("\n");
}

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40) || "task";

/** Writes the export and returns its path (default: `<workspace>/nanohermes-<title>-<id>.md|json`). */
export async function exportTask(
  session: SessionData,
  title: string,
  format: "markdown" | "json",
  path: string | null,
  workspace: string,
): Promise<string> {
  const file = path
    ? resolve(workspace, path)
    : join(workspace, `nanohermes-${slug(title)}-${session.id}.${format === "markdown" ? "md" : "json"}`);
  const body =
    format === "markdown" ? sessionToMarkdown(session, title) : JSON.stringify({ ...session, title }, null, 2);
  // Through the no-follow walk: a link planted at the (predictable) default name is replaced, not written through.
  await atomicWriteFile(file, redact(body));
  return file;
}
