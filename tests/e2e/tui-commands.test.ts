// Issue 18 in a real terminal: `!` shell mode, /status, /diff, /model, /review, /init, a custom
// command, a failed edit that is never asked about nor counted, and a denied command whose card keeps the command.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { gitRepo } from "../helpers/git-repo.js";
import { type MockServer, type Responder, textReply, toolReply } from "../helpers/mock-openai.js";
import { keys, type PtyApp } from "../helpers/pty.js";

/**
 * A git repository with one commit and one uncommitted change, trusted, with a custom command; the
 * mock model answers with `script`.
 */
async function trustedRepo(script: Responder[]) {
  const { ws } = gitRepo({ "notes.txt": "first line\n" });
  writeFileSync(join(ws, "notes.txt"), "first line\nuncommitted line\n");
  writeFileSync(join(ws, "idea.txt"), "a new file nobody added\n");
  mkdirSync(join(ws, ".nanohermes", "commands", "team"), { recursive: true });
  writeFileSync(
    join(ws, ".nanohermes", "commands", "team", "greet.md"),
    "---\ndescription: greet someone\nargument-hint: NAME\n---\nSay hello to $1 from the team.\n",
  );
  const e2e = await e2eEnv(script, { model: "mock-model" });
  writeFileSync(join(e2e.home, "trusted.json"), JSON.stringify([ws]));
  return { ws, ...e2e };
}

/** Esc closes the completion list; a pause, so Esc and the next key are not read as one Alt chord. */
async function closeCompletion(a: PtyApp): Promise<void> {
  a.type(keys.esc);
  await new Promise((r) => setTimeout(r, 150));
}

const userTexts = (s: MockServer, i: number) =>
  (s.requests[i]!.messages as { role: string; content: unknown }[])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));

describe.each([
  [120, 40],
  [80, 24],
])("commands at %ix%i", (cols, rows) => {
  it("! runs a command whose output the model reads next turn; /status, /diff, a custom command and /model", async () => {
    const { ws, mock, pty } = await trustedRepo([
      textReply("saw the shell output"),
      textReply("greeted"),
      textReply("on the other model"),
      textReply("reviewed it"),
      textReply("wrote AGENTS.md"),
    ]);
    const app = pty({ cols, rows, cwd: ws });
    await app.waitFor("Ask anything");

    await app.typeSlowly("!echo shell-out-$((6*7))");
    app.type(keys.enter);
    // The same policy as the model's commands: a substitution is not read-only, so it asks.
    await app.waitFor("Approval needed");
    await app.answer("y");
    await app.waitFor("shell-out-42");
    expect(app.screen()).toContain("run_command");
    expect(mock.requests).toHaveLength(0);
    await app.typeSlowly("what did it print?");
    app.type(keys.enter);
    await app.waitFor("saw the shell output");
    const first = userTexts(mock, 0);
    expect(first[0]).toContain("<bash-input>echo shell-out-$((6*7))</bash-input>");
    expect(first[0]).toContain("shell-out-42");
    expect(first.at(-1)).toBe("what did it print?");

    await app.typeSlowly("/status");
    app.type(keys.enter);
    await app.waitFor(/endpoint\s+http/);
    const status = app.screen();
    expect(status).toMatch(/policy\s+on-request/);
    expect(status).toMatch(/sandbox\s+(workspace-write|unsandboxed)/);
    expect(status).toMatch(/context\s+[\d,]+ of [\d,]+ characters/);
    expect(status).toMatch(/MCP\s+no servers configured/);
    expect(status).toContain("/team:greet");
    app.type(keys.esc);
    await app.waitFor((s) => !s.includes("endpoint"));

    await app.typeSlowly("/diff");
    app.type(keys.enter);
    // The results pane's Diff tab, focused (tests/e2e/tui-diff.test.ts has more); Esc gives the
    // focus back, and a pane drawn over the transcript (below 120 columns) goes.
    await app.waitFor((s) => s.includes("[Diff]") && s.includes("M notes.txt"));
    app.type(keys.esc);
    if (cols < 120) await app.waitFor((s) => !s.includes("M notes.txt"));
    else await new Promise((r) => setTimeout(r, 150));

    // From the palette, the custom command lands in the input, ready for its argument.
    app.type(keys.ctrl("k"));
    await app.waitFor("Command palette");
    await app.typeSlowly("team:greet");
    await app.waitFor("NAME · greet someone");
    app.type(keys.enter);
    await app.waitFor((sc) => !sc.includes("Command palette") && sc.includes("/team:greet"));
    await app.typeSlowly("Ada");
    await closeCompletion(app);
    app.type(keys.enter);
    await app.waitFor("greeted");
    expect(userTexts(mock, 1).at(-1)).toBe("Say hello to Ada from the team.");

    await app.typeSlowly("/model other-model");
    await closeCompletion(app);
    app.type(keys.enter);
    await app.waitFor("model: other-model");
    await app.typeSlowly("and now?");
    app.type(keys.enter);
    await app.waitFor("on the other model");
    expect(mock.requests[2]!.model).toBe("other-model");
    expect(mock.requests[1]!.model).toBe("mock-model");

    await app.typeSlowly("/review");
    app.type(keys.enter);
    await app.waitFor("reviewed it");
    const review = userTexts(mock, 3).at(-1)!;
    expect(review).toContain("Review the uncommitted change");
    expect(review).toMatch(/```diff\n[\s\S]*\+uncommitted line[\s\S]*```$/);
    // A file git does not track yet is part of the change under review.
    expect(review).toContain("+++ b/idea.txt");
    expect(review).toContain("+a new file nobody added");

    await app.typeSlowly("/init");
    app.type(keys.enter);
    await app.waitFor("wrote AGENTS.md");
    expect(userTexts(mock, 4).at(-1)).toMatch(/^Look at this repository and write AGENTS\.md/);
  });

  it("a failed edit is neither asked about nor counted; a denied command keeps its command and stops the turn", async () => {
    const { ws, pty } = await trustedRepo([
      toolReply([{ name: "edit_file", args: { path: "notes.txt", old_string: "not in the file", new_string: "x" } }]),
      textReply("the edit failed"),
      toolReply([{ name: "run_command", args: { command: "touch denied-file.txt" } }]),
      toolReply([
        { name: "edit_file", args: { path: "notes.txt", old_string: "first line", new_string: "First line" } },
      ]),
      textReply("edited"),
    ]);
    const app = pty({ cols, rows, cwd: ws });
    await app.waitFor("Ask anything");

    await app.typeSlowly("edit it");
    app.type(keys.enter);
    await app.waitFor("the edit failed");
    expect(app.screen()).not.toContain("Approval needed");
    expect(app.screen()).toContain("old_string was not found");
    if (cols >= 120) expect(app.screen()).not.toMatch(/Changes 1/);

    await app.typeSlowly("touch a file");
    app.type(keys.enter);
    await app.waitFor("Approval needed");
    await app.answer("n");
    // n denies and stops the turn (issue 28, item 4): the model is not asked again.
    await app.waitFor(/■ stopped/);
    expect(app.screen()).toMatch(/run_command touch denied-file\.txt/);

    await app.typeSlowly("edit it properly");
    app.type(keys.enter);
    await app.waitFor("Approval needed");
    await app.answer("y");
    await app.waitFor("edited");
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toContain("First line");
    if (cols >= 120) await app.waitFor(/Changes 1/);
  });
});

describe("the shortcut sheet", () => {
  it("fits one 80x24 screen: every key of its first page is on screen at once", async () => {
    // No model to reach: the sheet needs none.
    const { pty } = await e2eEnv([], { env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } });
    const app = pty({ cols: 80, rows: 24 });
    await app.waitFor("Ask anything");
    app.type("?");
    const screen = await app.waitFor("Keys and commands");
    for (const want of [
      "send (steers a running turn)",
      "stop; twice: kill, or exit",
      "command palette",
      "approve once, always; deny",
      "shell command; slash command",
      "this sheet",
      "every key and command",
    ]) {
      expect(screen).toContain(want);
    }
    expect(app.lines().every((l) => l.length <= 80)).toBe(true);
  });
});

describe("the task list after one-shot runs", () => {
  it("lists no -p run nobody kept, and a kept task shows its tokens before it is opened", async () => {
    const {
      workspace: ws,
      run,
      pty,
    } = await e2eEnv(() => textReply("fine", { usage: { prompt: 1500, completion: 500 } }), { model: "mock-model" });
    for (const args of [
      ["-p", "throwaway question"],
      ["-p", "throwaway question"],
      ["-p", "kept question"],
      ["-p", "and more", "--continue"],
    ]) {
      const r = await run([...args, "-C", ws]);
      expect(r.code, r.stderr).toBe(0);
    }
    const app = pty({ cols: 80, rows: 24 });
    // The list is narrow at 80 columns: the title is cut ("kept que…").
    const screen = await app.waitFor("kept que");
    expect(screen).not.toContain("throwaway");
    // Two runs of 1,500 + 500 tokens, before the task is even opened.
    expect(screen).toMatch(/kept que\S*\s+4(\.0)?k/);
    expect(screen).toContain("Tasks 2");
  });
});
