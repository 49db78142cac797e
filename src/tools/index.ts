// The built-in tools, in the order the model sees them.
import type { AnyTool } from "./define.js";
import { applyPatchTool } from "./apply-patch.js";
import { editFileTool } from "./edit-file.js";
import { gitCommitTool, gitDiffTool, gitLogTool, gitStatusTool } from "./git.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { listDirTool } from "./list-dir.js";
import { readFileTool } from "./read-file.js";
import { runCommandTool } from "./run-command.js";
import { taskKillTool, taskListTool, taskOutputTool } from "./task-tools.js";
import { todoReadTool, todoWriteTool } from "./todo.js";
import { webFetchTool } from "./web-fetch.js";
import { webSearchTool } from "./web-search.js";
import { writeFileTool } from "./write-file.js";

export function builtinTools(): AnyTool[] {
  return [
    readFileTool,
    writeFileTool,
    editFileTool,
    applyPatchTool,
    listDirTool,
    grepTool,
    globTool,
    runCommandTool,
    taskOutputTool,
    taskListTool,
    taskKillTool,
    webFetchTool,
    webSearchTool,
    gitStatusTool,
    gitDiffTool,
    gitLogTool,
    gitCommitTool,
    todoWriteTool,
    todoReadTool,
  ];
}
