// The built-in tools, in the order the model sees them.
import type { AnyTool } from "./define.js";
import { applyPatchTool } from "./apply-patch.js";
import { editFileTool } from "./edit-file.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { listDirTool } from "./list-dir.js";
import { readFileTool } from "./read-file.js";
import { runCommandTool } from "./run-command.js";
import { writeFileTool } from "./write-file.js";

export function builtinTools(): AnyTool[] {
  return [readFileTool, writeFileTool, editFileTool, applyPatchTool, listDirTool, grepTool, globTool, runCommandTool];
}
