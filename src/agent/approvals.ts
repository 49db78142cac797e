// What an approval card shows: a one-line title and the exact command, diff or path, built from
// the validated arguments of the call that needs approval.
import { constants, promises as fs } from "node:fs";
import { createTwoFilesPatch } from "diff";
import type { AnyTool } from "../tools/define.js";
import { displayPath, resolvePath } from "../tools/paths.js";

const MAX_DETAIL_LINES = 400;

function cap(text: string): string {
  const lines = text.split("\n");
  return lines.length <= MAX_DETAIL_LINES
    ? text
    : `${lines.slice(0, MAX_DETAIL_LINES).join("\n")}\n[... ${lines.length - MAX_DETAIL_LINES} more lines]`;
}

/** Files larger than this are not diffed on the card: the diff would cost more than it shows. */
const MAX_PREVIEW_BYTES = 4 * 1024 * 1024;

/**
 * The file's text for the card's diff: "" when missing or not a regular file (opened without
 * blocking, so a FIFO cannot hang the question), null when too large to diff.
 */
async function current(abs: string): Promise<string | null> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = await handle.stat();
    if (!st.isFile()) return "";
    if (st.size > MAX_PREVIEW_BYTES) return null;
    return await handle.readFile("utf8");
  } catch {
    return "";
  } finally {
    await handle?.close().catch(() => {});
  }
}

const tooLarge = (shown: string) => `(${shown} is over ${MAX_PREVIEW_BYTES / 1024 / 1024} MiB: no diff shown)`;

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

export async function approvalRequest(
  tool: AnyTool,
  args: Record<string, unknown>,
  reason: string,
  workspace: string,
): Promise<ApprovalText> {
  const str = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : "");
  switch (tool.name) {
    case "run_command":
      return { title: `Run: ${str("command").split("\n", 1)[0]}`, detail: cap(str("command")), reason };
    case "write_file": {
      const abs = resolvePath(workspace, str("path"));
      const shown = displayPath(workspace, abs);
      const before = await current(abs);
      if (before === null) return { title: `Overwrite ${shown}`, detail: tooLarge(shown), reason };
      return {
        title: `${before ? "Overwrite" : "Create"} ${shown}`,
        detail: cap(unified(shown, before, str("content"))),
        reason,
      };
    }
    case "edit_file": {
      const abs = resolvePath(workspace, str("path"));
      const shown = displayPath(workspace, abs);
      const before = await current(abs);
      if (before === null) return { title: `Edit ${shown}`, detail: tooLarge(shown), reason };
      const after =
        args.replace_all === true
          ? before.split(str("old_string")).join(str("new_string"))
          : before.replace(str("old_string"), () => str("new_string"));
      return { title: `Edit ${shown}`, detail: cap(unified(shown, before, after)), reason };
    }
    case "apply_patch":
      return { title: "Apply a patch", detail: cap(str("patch")), reason };
    default:
      if (tool.mcp)
        return {
          title: `MCP ${tool.mcp.server}: ${tool.mcp.tool} ${tool.summarize(args)}`.trimEnd(),
          detail: cap(JSON.stringify(args, null, 2)),
          reason,
        };
      return { title: `${tool.name} ${tool.summarize(args)}`, detail: cap(JSON.stringify(args, null, 2)), reason };
  }
}
