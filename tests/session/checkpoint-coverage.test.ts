// A checkpoint walk cut short by its file limit says so, once per session, instead of silently
// leaving later files out.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkpointHooks } from "../../src/agent/checkpointing.js";
import { Checkpoints } from "../../src/session/checkpoints.js";
import type { BusEvent } from "../../src/protocol/events.js";
import type { AnyTool } from "../../src/tools/define.js";
import { tempDir } from "../helpers/cli.js";

const runCommand = { name: "run_command", kind: "exec" } as AnyTool;

async function notices(files: number, maxFiles: number): Promise<string[]> {
  const root = tempDir();
  mkdirSync(join(root, "d"));
  for (let i = 0; i < files; i++) writeFileSync(join(root, "d", `f${i}.txt`), `${i}`);
  const store = new Checkpoints({ dir: join(tempDir(), "ck"), roots: [root], maxFiles });
  const events: BusEvent[] = [];
  const hooks = checkpointHooks({
    checkpoints: store,
    workspace: root,
    turn: () => 1,
    prompts: () => new Map(),
    emit: (e) => events.push(e),
  });
  for (let i = 0; i < 2; i++) {
    await hooks.before(runCommand, { command: "true" });
    await hooks.after(runCommand, { command: "true" });
  }
  expect((await store.coverage())?.complete).toBe(files <= maxFiles);
  return events.flatMap((e) => (e.type === "notice" ? [e.text] : []));
}

describe("checkpoint walk coverage", () => {
  it("says once when the walk stopped at its file limit", async () => {
    expect(await notices(5, 3)).toEqual([
      "file checkpoints see only the first 3 files of the workspace (walk order): changes that commands make past them cannot be rewound",
    ]);
  });

  it("says nothing when every file was seen", async () => {
    expect(await notices(3, 3)).toEqual([]);
  });
});
