// Issue 18 item 10: the UI's task list. A one-shot run nobody asked to keep is not in it; a prompt
// run three times is listed once; a task listed again at start keeps its token counts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskManager } from "../../src/agent/tasks.js";
import { Bus } from "../../src/protocol/bus.js";
import type { BusEvent } from "../../src/protocol/events.js";
import { listedTasks, type TaskIndexEntry } from "../../src/session/task-index.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";
import { testSettings } from "../helpers/settings.js";

const entry = (id: string, title: string, updatedAt: string, extra: Partial<TaskIndexEntry> = {}): TaskIndexEntry => ({
  id,
  sessionFile: `/s/${id}.json`,
  title,
  pinned: false,
  workspace: "/ws",
  updatedAt,
  ...extra,
});

describe("the listed tasks", () => {
  it("one per title (the newest), no unkept one-shot runs, other workspaces left out, pinned always", () => {
    const entries = [
      entry("a", "fix the test", "2026-01-01"),
      entry("b", "fix the test", "2026-01-03"),
      entry("c", "fix the test", "2026-01-02"),
      entry("d", "one-shot", "2026-01-04", { oneShot: true }),
      entry("e", "elsewhere", "2026-01-05", { workspace: "/other" }),
      entry("f", "fix the test", "2026-01-01", { pinned: true }),
      entry("g", "kept", "2026-01-01"),
    ];
    expect(listedTasks(entries, "/ws").map((e) => e.id)).toEqual(["b", "f", "g"]);
  });
});

describe("token counts across runs", () => {
  it("a task added from the index shows the usage the index kept", () => {
    const bus = new Bus();
    const events: BusEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const manager = new TaskManager({ settings: testSettings(), bus, interactive: true, approval: "on-request" });
    manager.add("old", { title: "earlier", usage: { prompt: 1200, completion: 300 } });
    expect(manager.snapshotOf("old")?.usage).toEqual({ prompt: 1200, completion: 300 });
  });
});

describe("one-shot runs in the index", () => {
  it("are recorded for /resume but marked one-shot, unless they continued a session", async () => {
    const { env } = await e2eEnv((req) =>
      textReply(`answer ${req.messages.length}`, { usage: { prompt: 50, completion: 5 } }),
    );
    const ws = tempDir();
    for (let i = 0; i < 3; i++) expect((await runCli(["-p", "same prompt", "-C", ws], { env })).code).toBe(0);
    const read = () => JSON.parse(readFileSync(join(env.NANOHERMES_HOME!, "tasks.json"), "utf8")) as TaskIndexEntry[];
    expect(read()).toHaveLength(3);
    expect(read().every((e) => e.oneShot === true)).toBe(true);
    expect(listedTasks(read(), read()[0]!.workspace)).toEqual([]);
    const cont = await runCli(["-p", "go on", "-C", ws, "--continue"], { env });
    expect(cont.code, cont.stderr).toBe(0);
    const kept = read().filter((e) => !e.oneShot);
    expect(kept).toHaveLength(1);
    // Both runs of that session: the first one-shot and its continuation.
    expect(kept[0]!.usage).toEqual({ prompt: 100, completion: 10 });
    expect(listedTasks(read(), kept[0]!.workspace).map((e) => e.id)).toEqual([kept[0]!.id]);
  });
});
