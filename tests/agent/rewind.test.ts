// Rewinding files, not only words: what file tools and commands changed in a turn is checkpointed
// first; session.rewind restores files, drops the conversation, or both; file.revert restores one.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskManager } from "../../src/agent/tasks.js";
import { Bus } from "../../src/protocol/bus.js";
import type { BusEvent, EventOf } from "../../src/protocol/events.js";
import { reply, ScriptedClient } from "../helpers/scripted-client.js";
import { testSettings } from "../helpers/settings.js";

function setup(client: ScriptedClient) {
  const settings = testSettings();
  const bus = new Bus();
  const events: BusEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const manager = new TaskManager({ settings, bus, interactive: true, approval: "never", client });
  bus.send({ type: "task.create", taskId: "a" });
  const until = async (check: () => boolean, ms = 5_000) => {
    const start = Date.now();
    while (!check()) {
      if (Date.now() - start > ms)
        throw new Error(`timed out; saw ${[...new Set(events.map((e) => e.type))].join(",")}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const turns = () => events.filter((e) => e.type === "turn.completed" && !e.agentId).length;
  const turn = async (text: string) => {
    const before = turns();
    bus.send({ type: "user.submit", taskId: "a", text });
    await until(() => turns() > before);
  };
  const notice = (pattern: RegExp) => until(() => events.some((e) => e.type === "notice" && pattern.test(e.text)));
  return { settings, ws: settings.workspace, bus, events, manager, until, turn, notice };
}

const file = (ws: string, name: string) => (existsSync(join(ws, name)) ? readFileSync(join(ws, name), "utf8") : null);
const lastCheckpoints = (events: BusEvent[]) =>
  events.filter((e): e is EventOf<"checkpoints.updated"> => e.type === "checkpoints.updated").at(-1);

describe("rewind", () => {
  it("restores what file tools and a command changed since a turn, and can drop the conversation too", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "write_file", args: { path: "a.txt", content: "one\n" } }]),
      reply("wrote a"),
      reply("", [
        { name: "edit_file", args: { path: "a.txt", old_string: "one", new_string: "two" } },
        { name: "run_command", args: { command: "mkdir -p sub && echo new > sub/b.txt && rm c.txt" } },
      ]),
      reply("edited"),
    ]);
    const t = setup(client);
    writeFileSync(join(t.ws, "c.txt"), "keep me\n");
    await t.turn("write a");
    await t.turn("change things");
    expect([file(t.ws, "a.txt"), file(t.ws, "sub/b.txt"), file(t.ws, "c.txt")]).toEqual(["two\n", "new\n", null]);
    const board = lastCheckpoints(t.events)!;
    expect(board.turns.map((x) => x.turn)).toEqual([1, 2]);
    expect(board.turns[1]!.prompt).toBe("change things");
    const changed = board.turns[1]!.changes.map((c) => [
      c.path.replace(`${t.ws}/`, ""),
      c.before,
      c.after,
      c.by,
    ]).sort();
    expect(changed).toEqual([
      ["a.txt", "kept", "present", "edit_file"],
      ["c.txt", "kept", "absent", "run_command"],
      ["sub/b.txt", "absent", "present", "run_command"],
    ]);

    t.bus.send({ type: "session.rewind", taskId: "a", turn: 2, what: "files" });
    await t.notice(/files as before turn 2: 2 restored, 1 removed/);
    expect([file(t.ws, "a.txt"), file(t.ws, "sub/b.txt"), file(t.ws, "c.txt")]).toEqual(["one\n", null, "keep me\n"]);
    // The conversation was not touched.
    const agent = await t.manager.agentFor("a");
    expect(agent.turnOrdinal()).toBe(2);

    t.bus.send({ type: "session.rewind", taskId: "a", turn: 1, what: "both" });
    await t.notice(/back to before turn 1 \(2 turns dropped\)/);
    expect(file(t.ws, "a.txt")).toBeNull();
    expect(agent.messages.map((m) => m.role)).toEqual(["system"]);
    const loaded = t.events.filter((e) => e.type === "session.loaded").at(-1) as EventOf<"session.loaded">;
    expect(loaded.messages).toEqual([]);
    await t.manager.shutdown();
  });

  it("reverts one file only, and turn numbers reused after an undo start clean", async () => {
    const client = new ScriptedClient([
      reply("", [
        { name: "write_file", args: { path: "x.txt", content: "x1\n" } },
        { name: "write_file", args: { path: "y.txt", content: "y1\n" } },
      ]),
      reply("done"),
      reply("", [{ name: "write_file", args: { path: "x.txt", content: "x2\n" } }]),
      reply("again"),
    ]);
    const t = setup(client);
    writeFileSync(join(t.ws, "x.txt"), "x0\n");
    await t.turn("write both");
    t.bus.send({ type: "file.revert", taskId: "a", turn: 1, path: join(t.ws, "x.txt") });
    await t.notice(/^restored .*x\.txt$/);
    expect([file(t.ws, "x.txt"), file(t.ws, "y.txt")]).toEqual(["x0\n", "y1\n"]);

    t.bus.send({ type: "session.undo", taskId: "a", n: 1 });
    await t.notice(/dropped the last 1 turn/);
    await t.turn("write x again");
    // Turn 1 now is the new prompt: its record starts from x0 (before this turn), not from the undone one.
    t.bus.send({ type: "session.rewind", taskId: "a", turn: 1, what: "files" });
    await t.notice(/files as before turn 1: 1 restored/);
    expect(file(t.ws, "x.txt")).toBe("x0\n");
    expect(file(t.ws, "y.txt")).toBe("y1\n");
    await t.manager.shutdown();
  });

  it("refuses while a turn runs, and says when there is no such turn", async () => {
    const client = new ScriptedClient([reply("hi")]);
    const t = setup(client);
    await t.turn("hello");
    t.bus.send({ type: "session.rewind", taskId: "a", turn: 5, what: "conversation" });
    await t.notice(/there is no turn 5/);
    await t.manager.shutdown();
  });
});
