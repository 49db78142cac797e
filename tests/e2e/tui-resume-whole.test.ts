// Resume is whole (issue 28, item 12): after a restart with -c the task keeps its title and usage
// (not "New task · 0 tok"), tasks.json keeps one entry for the session, a rename made in the task
// list survives, and the Todo, Reads and Changes tabs are rebuilt from the history.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

const entries = (home: string) =>
  JSON.parse(readFileSync(join(home, "tasks.json"), "utf8")) as {
    id: string;
    title: string;
    sessionFile: string;
    usage?: { prompt: number; completion: number };
  }[];

describe("resume is whole", () => {
  it("keeps the title, usage, one index entry, a rename, and the results tabs across restarts", async () => {
    const {
      workspace: ws,
      home,
      pty,
    } = await e2eEnv(
      [
        toolReply([
          { name: "read_file", args: { path: "notes.txt" } },
          {
            name: "todo_write",
            args: {
              items: [
                { content: "read the notes", status: "completed" },
                { content: "write the summary", status: "pending" },
              ],
            },
          },
          { name: "write_file", args: { path: "summary.txt", content: "sum\n" } },
        ]),
        textReply("wrote the summary"),
        textReply("second answer"),
      ],
      { model: "mock-model" },
    );
    writeFileSync(join(ws, "notes.txt"), "hello notes\n");
    const start = (args: string[] = []) => pty({ cols: 120, rows: 40, args: ["-y", ...args] });
    let app = start();
    await app.waitFor("Ask anything");
    app.type("summarise the notes");
    app.type(keys.enter);
    await app.waitFor("wrote the summary");
    await app.waitFor("Ask anything");
    app.kill("SIGTERM");
    await app.exit();
    const first = entries(home);
    expect(first).toHaveLength(1);
    expect(first[0]!.title).toBe("summarise the notes");

    app = start(["-c"]);
    let screen = await app.waitFor("wrote the summary");
    expect(screen).not.toMatch(/New task · 0 tok/);
    // The task list has the one task, under its title (cut to the pane's width).
    expect(screen.match(/summarise/g)?.length ?? 0).toBeGreaterThanOrEqual(1);
    expect(screen).not.toMatch(/New task/);
    // The results tabs, rebuilt from the history: Changes and Reads count a file each, and the
    // task list shows the plan's progress (the Todo tab's list).
    screen = await app.waitFor(/Changes 1/);
    expect(screen).toMatch(/Reads 1/);
    expect(screen).toMatch(/1\/2/);
    expect(screen).toMatch(/[AM] summary\.txt/);
    // Rename it in the task list.
    await app.typeAndWait(keys.ctrl("t"));
    app.type("r");
    await app.waitFor(/Rename/);
    app.type(`${keys.ctrl("u")}notes work`);
    app.type(keys.enter);
    await app.waitFor(/notes work/);
    app.type(keys.esc);
    // A lone Esc, not Alt with the next letter.
    await new Promise((r) => setTimeout(r, 200));
    app.type("and again");
    app.type(keys.enter);
    await app.waitFor("second answer");
    await app.waitFor("Ask anything");
    app.kill("SIGTERM");
    await app.exit();
    const second = entries(home);
    expect(second).toHaveLength(1);
    expect(second[0]!.title).toBe("notes work");
    expect(second[0]!.usage?.prompt ?? 0).toBeGreaterThan(first[0]!.usage?.prompt ?? 0);

    app = start(["-c"]);
    screen = await app.waitFor("second answer");
    expect(screen).toMatch(/notes work/);
    app.kill("SIGTERM");
    await app.exit();
  }, 60_000);
});
