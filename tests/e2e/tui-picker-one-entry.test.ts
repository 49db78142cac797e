// A session opened from /resume stays one task-index entry (issue 28, item 12): a one-shot run is
// in tasks.json but not in the task list; opening it from the picker made a task with a new id and
// 0 tokens, and its next turn replaced the entry with that new id and only the new turn's tokens.
// Now the task is opened under the entry's id with its tokens, and the entry keeps both.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

type Entry = { id: string; sessionFile: string; usage?: { prompt: number; completion: number }; oneShot?: boolean };
const entries = (home: string) => JSON.parse(readFileSync(join(home, "tasks.json"), "utf8")) as Entry[];

describe("the /resume picker and the task index", () => {
  it("opens a listed session under its entry's id and tokens, and keeps one entry", async () => {
    // Usage as the mock reports it: fixed, so the sums are exact.
    const {
      workspace: ws,
      home,
      run,
      pty,
    } = await e2eEnv(
      [
        textReply("first answer", { usage: { prompt: 1200, completion: 30 } }),
        textReply("second answer", { usage: { prompt: 2500, completion: 40 } }),
      ],
      { model: "mock-model" },
    );
    const r = await run(["-p", "plan the release", "-C", ws]);
    expect(r.code, r.stderr).toBe(0);
    const [shot] = entries(home);
    expect(shot).toMatchObject({ oneShot: true, usage: { prompt: 1200, completion: 30 } });

    const app = pty({ cols: 120, rows: 40 });
    await app.waitFor("Ask anything");
    app.type("/resume");
    await app.waitFor("/resume");
    app.type(keys.enter);
    await app.waitFor(/Resume a session[\s\S]*plan the release/);
    app.type(keys.enter);
    // Its tokens come with it (1,230), not 0.
    await app.waitFor(/plan the release · idle · 1\.2k tok/);
    // The transcript is read from the session file after the task opens: drawn in a later frame.
    await app.waitFor("first answer");
    app.type("and ship it");
    app.type(keys.enter);
    await app.waitFor("second answer");
    await app.waitFor("Ask anything");
    app.kill("SIGTERM");
    await app.exit();

    const after = entries(home).filter((e) => e.sessionFile === shot!.sessionFile);
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(shot!.id);
    expect(after[0]!.usage).toMatchObject({ prompt: 3700, completion: 70 });
    // Continued in the UI, it is a task now, listed at the next start.
    expect(after[0]!.oneShot).toBeUndefined();
  }, 60_000);
});
