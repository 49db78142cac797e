// Starting and leaving does not pile up tasks (issue 28, polish: "every start adds a New task"):
// each start opens one fresh task for the prompt, but one never used is neither written to
// tasks.json nor given a session file, so the next start lists the earlier task and one fresh
// task, however many starts came between.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

describe("empty tasks", () => {
  it("are not kept: three starts left unused add nothing to the list, the index or the sessions", async () => {
    const { home, pty } = await e2eEnv([textReply("noted")], { model: "mock-model" });
    const start = () => pty({ cols: 80, rows: 24 });
    let app = start();
    await app.waitFor("Ask anything");
    app.type("remember the milk");
    app.type(keys.enter);
    await app.waitFor("noted");
    await app.waitFor("Ask anything");
    app.type(keys.ctrl("d"));
    expect(await app.exit()).toBe(0);
    const index = () => JSON.parse(readFileSync(join(home, "tasks.json"), "utf8")) as { title: string }[];
    const sessions = () => readdirSync(join(home, "sessions")).filter((f) => f.endsWith(".json"));
    expect(index().map((e) => e.title)).toEqual(["remember the milk"]);
    expect(sessions()).toHaveLength(1);

    for (let i = 0; i < 3; i++) {
      app = start();
      await app.waitFor(/remember t/);
      await app.waitFor("Ask anything");
      app.type(keys.ctrl("d"));
      expect(await app.exit()).toBe(0);
    }
    expect(index().map((e) => e.title)).toEqual(["remember the milk"]);
    expect(sessions()).toHaveLength(1);

    app = start();
    const screen = await app.waitFor(/remember t/);
    // The list: the fresh task of this start and the earlier one, nothing more.
    expect(screen).toMatch(/Tasks 2/);
    expect(screen.match(/New task/g)?.length ?? 0).toBeLessThanOrEqual(2);
    app.type(keys.ctrl("d"));
    expect(await app.exit()).toBe(0);
  }, 60_000);
});
