// The task manager and a session another live process holds (its lock names a pid that answers):
// the task says who, at once, in task.updated's heldBy and a notice; a prompt that meets the lock
// anyway (taken after the task was opened) is not run and comes back as prompt.refused with its
// text; when the holder lets go the task says so. The holder is a real process (sleep).
import { spawn, type ChildProcess } from "node:child_process";
import { symlinkSync, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TaskManager } from "../../src/agent/tasks.js";
import { Bus } from "../../src/protocol/bus.js";
import type { BusEvent, EventOf, EventType } from "../../src/protocol/events.js";
import { describeHolder, sessionHolder } from "../../src/session/session-lock.js";
import { reply, ScriptedClient } from "../helpers/scripted-client.js";
import { testSettings } from "../helpers/settings.js";

const holders: ChildProcess[] = [];
afterEach(() => {
  for (const child of holders.splice(0)) child.kill("SIGKILL");
});

/** A live process that is not us, to hold a lock in its name. */
function liveProcess(): number {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  holders.push(child);
  return child.pid!;
}

function setup(client: ScriptedClient) {
  const settings = testSettings();
  const bus = new Bus();
  const events: BusEvent[] = [];
  bus.subscribe((e) => events.push(e));
  new TaskManager({ settings, bus, interactive: true, approval: "on-request", client });
  const waitFor = async <T extends EventType>(
    type: T,
    pred: (e: EventOf<T>) => boolean = () => true,
    timeoutMs = 8000,
  ): Promise<EventOf<T>> => {
    const start = Date.now();
    for (;;) {
      const found = events.find((e): e is EventOf<T> => e.type === type && pred(e as EventOf<T>));
      if (found) return found;
      if (Date.now() - start > timeoutMs) throw new Error(`no ${type}; saw ${events.map((e) => e.type).join(",")}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { settings, bus, events, waitFor };
}

describe("a task whose session another process holds", () => {
  it("says who at once, and when it is free again", async () => {
    const t = setup(new ScriptedClient([reply("ran")]));
    const file = join(t.settings.workspace, "s.json");
    const pid = liveProcess();
    symlinkSync(`${pid}@${hostname()}@daemon_abc123`, `${file}.lock`);
    t.bus.send({ type: "task.create", taskId: "a", sessionFile: file });
    const held = await t.waitFor("task.updated", (e) => e.task.heldBy !== undefined);
    expect(held.task.heldBy).toMatchObject({ pid, host: hostname(), role: "daemon" });
    expect(held.task.heldBy!.text).toContain(`the NanoHermes daemon (pid ${pid}@${hostname()})`);
    const notice = await t.waitFor("notice", (e) => e.level === "warn");
    expect(notice.text).toBe(
      `${held.task.heldBy!.text}; what you type here stays in the input until then (Ctrl-N starts a new task)`,
    );
    unlinkSync(`${file}.lock`);
    await t.waitFor("notice", (e) => e.text.startsWith("this session is free now"));
    const free = t.events.filter((e) => e.type === "task.updated").at(-1) as EventOf<"task.updated">;
    expect(free.task.heldBy).toBeUndefined();
    // Free: a prompt runs.
    t.bus.send({ type: "user.submit", taskId: "a", text: "go" });
    await t.waitFor("turn.completed");
  });

  it("a prompt that meets a lock taken after the task opened is refused and given back", async () => {
    const t = setup(new ScriptedClient([reply("never")]));
    const file = join(t.settings.workspace, "s.json");
    t.bus.send({ type: "task.create", taskId: "a", sessionFile: file });
    await t.waitFor("task.updated");
    const pid = liveProcess();
    // An older version's lock: no role in it.
    symlinkSync(`${pid}@${hostname()}@abc123`, `${file}.lock`);
    t.bus.send({ type: "user.submit", taskId: "a", text: "my long prompt\nsecond line" });
    const refused = await t.waitFor("prompt.refused");
    expect(refused.text).toBe("my long prompt\nsecond line");
    expect(refused.reason).toContain(`another NanoHermes process (pid ${pid}@${hostname()})`);
    expect(t.events.some((e) => e.type === "turn.started")).toBe(false);
    // Said as an error (the daemon answers a refused turn with it), not as a failed turn.
    const said = await t.waitFor("notice", (e) => e.level === "error");
    expect(said.text).toBe(`not sent: ${refused.reason}`);
    const after = await t.waitFor("task.updated", (e) => e.task.heldBy?.pid === pid);
    expect(after.task.status).not.toBe("failed");
  });

  it("sessionHolder: nobody, a dead pid and this process's own lock read as not held", async () => {
    const dir = testSettings().workspace;
    const file = join(dir, "s.json");
    expect(await sessionHolder(file)).toBeNull();
    symlinkSync(`${process.pid}@${hostname()}@ui_abc`, `${file}.lock`);
    expect(await sessionHolder(file)).toBeNull();
    unlinkSync(`${file}.lock`);
    const gone = spawn("true");
    await new Promise((r) => gone.on("exit", r));
    symlinkSync(`${gone.pid}@${hostname()}@ui_abc`, `${file}.lock`);
    expect(await sessionHolder(file)).toBeNull();
    unlinkSync(`${file}.lock`);
    symlinkSync(`4242@elsewhere@run_abc`, `${file}.lock`);
    const remote = await sessionHolder(file);
    expect(remote).toEqual({ pid: 4242, host: "elsewhere", role: "run" });
    expect(describeHolder(remote!)).toBe("a one-shot NanoHermes run (pid 4242@elsewhere)");
  });
});
