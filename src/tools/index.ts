// The built-in tools, in the order the model sees them. Each is its spec (src/tools/specs/) with
// handlers that import the implementation on the tool's first call (issue 35): a start compiles
// the schemas, and a turn only the tools it uses.
import type { AnyTool } from "./define.js";
import { lazyTool } from "./lazy-tool.js";
import { applyPatchSpec } from "./specs/apply-patch.js";
import { editFileSpec } from "./specs/edit-file.js";
import { gitCommitSpec, gitDiffSpec, gitLogSpec, gitStatusSpec } from "./specs/git.js";
import { globSpec } from "./specs/glob.js";
import { grepSpec } from "./specs/grep.js";
import { listDirSpec } from "./specs/list-dir.js";
import { readFileSpec } from "./specs/read-file.js";
import { runCommandSpec } from "./specs/run-command.js";
import { taskKillSpec, taskListSpec, taskOutputSpec } from "./specs/task-tools.js";
import { todoReadSpec, todoWriteSpec } from "./specs/todo.js";
import { webFetchSpec } from "./specs/web-fetch.js";
import { webSearchSpec } from "./specs/web-search.js";
import { writeFileSpec } from "./specs/write-file.js";

const BUILTIN: readonly AnyTool[] = [
  lazyTool(readFileSpec, async () => (await import("./read-file.js")).readFileTool),
  lazyTool(writeFileSpec, async () => (await import("./write-file.js")).writeFileTool),
  lazyTool(editFileSpec, async () => (await import("./edit-file.js")).editFileTool, { precheck: true }),
  lazyTool(applyPatchSpec, async () => (await import("./apply-patch.js")).applyPatchTool, { precheck: true }),
  lazyTool(listDirSpec, async () => (await import("./list-dir.js")).listDirTool),
  lazyTool(grepSpec, async () => (await import("./grep.js")).grepTool),
  lazyTool(globSpec, async () => (await import("./glob.js")).globTool),
  lazyTool(runCommandSpec, async () => (await import("./run-command.js")).runCommandTool),
  lazyTool(taskOutputSpec, async () => (await import("./task-tools.js")).taskOutputTool),
  lazyTool(taskListSpec, async () => (await import("./task-tools.js")).taskListTool),
  lazyTool(taskKillSpec, async () => (await import("./task-tools.js")).taskKillTool),
  lazyTool(webFetchSpec, async () => (await import("./web-fetch.js")).webFetchTool),
  lazyTool(webSearchSpec, async () => (await import("./web-search.js")).webSearchTool),
  lazyTool(gitStatusSpec, async () => (await import("./git.js")).gitStatusTool),
  lazyTool(gitDiffSpec, async () => (await import("./git.js")).gitDiffTool),
  lazyTool(gitLogSpec, async () => (await import("./git.js")).gitLogTool),
  lazyTool(gitCommitSpec, async () => (await import("./git.js")).gitCommitTool),
  lazyTool(todoWriteSpec, async () => (await import("./todo.js")).todoWriteTool),
  lazyTool(todoReadSpec, async () => (await import("./todo.js")).todoReadTool),
];

export function builtinTools(): AnyTool[] {
  return [...BUILTIN];
}
