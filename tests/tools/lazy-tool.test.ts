// Issue 35: the built-in tools the registry holds are specs whose handlers load the implementation
// on first use. They must be the same tools: same name, schema, description and summary as the
// implementation, a precheck exactly where the implementation has one, and the same results.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AnyTool } from "../../src/tools/define.js";
import { builtinTools } from "../../src/tools/index.js";
import { lazyTool } from "../../src/tools/lazy-tool.js";
import { readFileSpec } from "../../src/tools/specs/read-file.js";
import { applyPatchTool } from "../../src/tools/apply-patch.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { gitCommitTool, gitDiffTool, gitLogTool, gitStatusTool } from "../../src/tools/git.js";
import { globTool } from "../../src/tools/glob.js";
import { grepTool } from "../../src/tools/grep.js";
import { listDirTool } from "../../src/tools/list-dir.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { taskKillTool, taskListTool, taskOutputTool } from "../../src/tools/task-tools.js";
import { todoReadTool, todoWriteTool } from "../../src/tools/todo.js";
import { webFetchTool } from "../../src/tools/web-fetch.js";
import { webSearchTool } from "../../src/tools/web-search.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { tempDir } from "../helpers/cli.js";
import { callTool } from "../helpers/tools.js";

const implementations: AnyTool[] = [
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

describe("the registry's built-in tools", () => {
  it("are the implementations' specs, in order, with a precheck exactly where the implementation has one", () => {
    const lazy = builtinTools();
    expect(lazy.map((t) => t.name)).toEqual(implementations.map((t) => t.name));
    for (const [i, tool] of lazy.entries()) {
      const impl = implementations[i]!;
      expect(tool, tool.name).not.toBe(impl);
      for (const key of ["kind", "description", "params", "truncate", "moreHint", "summarize", "deadlineMs"] as const)
        expect(tool[key], `${tool.name}.${key}`).toBe(impl[key]);
      expect(tool.precheck === undefined, `${tool.name}: precheck`).toBe(impl.precheck === undefined);
    }
  });

  it("give the implementation's results: a read, and an edit refused by its precheck", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "notes.txt"), "alpha\nbeta\n");
    const byName = new Map(builtinTools().map((t) => [t.name, t]));
    const lazyRead = await callTool(byName.get("read_file")!, { path: "notes.txt", offset: 2 }, ws);
    const directRead = await callTool(readFileTool, { path: "notes.txt", offset: 2 }, ws);
    expect(lazyRead.forModel).toBe(directRead.forModel);
    expect(lazyRead.forModel).toContain("beta");

    const edit = await callTool(
      byName.get("edit_file")!,
      { path: "notes.txt", old_string: "gamma", new_string: "x" },
      ws,
    );
    expect(edit.status).toBe("error");
    expect(edit.forModel).toContain("notes.txt");
  });
});

describe("lazyTool", () => {
  const spec = readFileSpec;

  it("loads the implementation once, on the first call", async () => {
    let loads = 0;
    const tool = lazyTool(spec, async () => {
      loads++;
      return readFileTool;
    });
    expect(loads).toBe(0);
    const ws = tempDir();
    writeFileSync(join(ws, "a.txt"), "one\n");
    await callTool(tool, { path: "a.txt" }, ws);
    await callTool(tool, { path: "a.txt" }, ws);
    expect(loads).toBe(1);
  });

  it("fails a call whose load fails, and tries again on the next", async () => {
    let fail = true;
    const tool = lazyTool(spec, async () => {
      if (fail) throw new Error("chunk missing");
      return readFileTool;
    });
    const ws = tempDir();
    writeFileSync(join(ws, "a.txt"), "one\n");
    const first = await callTool(tool, { path: "a.txt" }, ws);
    expect(first.status).toBe("error");
    fail = false;
    const second = await callTool(tool, { path: "a.txt" }, ws);
    expect(second.status).toBe("ok");
    expect(second.forModel).toContain("one");
  });

  it("refuses an implementation of another name", async () => {
    const tool = lazyTool(spec, async () => writeFileTool);
    const ac = new AbortController();
    await expect(
      tool.run({ path: "a.txt" }, { workspace: tempDir(), signal: ac.signal, output: () => {} }),
    ).rejects.toThrow("lazy tool read_file loaded write_file");
  });
});
