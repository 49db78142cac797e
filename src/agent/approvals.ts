// What an approval card shows: a one-line title and the exact command, diff or path, built from
// the validated arguments of the call that needs approval.
import { promises as fs } from "node:fs";
import { createTwoFilesPatch } from "diff";
import type { AnyTool } from "../tools/define.js";
import { displayPath, resolvePath } from "../tools/paths.js";

const MAX_DETAIL_LINES = 400;

function cap(text: string): string {
  const lines = text.split("\n");
  return lines.length <= MAX_DETAIL_LINES ? text : `${lines.slice(0, MAX_DETAIL_LINES).join("\n")}\n[... ${lines.length - MAX_DETAIL_LINES} more lines]`;
}

async function current(abs: string): Promise<string> {
  try {
    return await fs.readFile(abs, "utf8");
  } catch {
    return "";
  }
}

function unified(path: string, before: string, after: string): string {
  // From the first hunk on: the card's title already names the file.
  const lines = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, "", "", { context: 3 }).split("\n");
  const first = lines.findIndex((l) => l.startsWith("@@"));
  return (first === -1 ? "(no change)" : lines.slice(first).join("\n")).trimEnd();
}

export interface ApprovalText {
  title: string;
  detail: string;
  reason: string;
}

export async function approvalRequest(tool: AnyTool, args: Record<string, unknown>, reason: string, workspace: string): Promise<ApprovalText> {
  const str = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : "");
  switch (tool.name) {
    case "run_command":
      return { title: `Run: ${str("command").split("\n", 1)[0]}`, detail: cap(str("command")), reason };
    case "write_file": {
      const abs = resolvePath(workspace, str("path"));
      const shown = displayPath(workspace, abs);
      const before = await current(abs);
      return { title: `${before ? "Overwrite" : "Create"} ${shown}`, detail: cap(unified(shown, before, str("content"))), reason };
    }
    case "edit_file": {
      const abs = resolvePath(workspace, str("path"));
      const shown = displayPath(workspace, abs);
      const before = await current(abs);
      const after = args.replace_all === true ? before.split(str("old_string")).join(str("new_string")) : before.replace(str("old_string"), () => str("new_string"));
      return { title: `Edit ${shown}`, detail: cap(unified(shown, before, after)), reason };
    }
    case "apply_patch":
      return { title: "Apply a patch", detail: cap(str("patch")), reason };
    default:
      if (tool.mcp) return { title: `MCP ${tool.mcp.server}: ${tool.mcp.tool} ${tool.summarize(args)}`.trimEnd(), detail: cap(JSON.stringify(args, null, 2)), reason };
      return { title: `${tool.name} ${tool.summarize(args)}`, detail: cap(JSON.stringify(args, null, 2)), reason };
  }
}
