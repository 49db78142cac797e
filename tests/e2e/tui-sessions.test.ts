// Sessions and memory through the built program in a real terminal: a bare --resume opens the
// picker over sessions made by one-shot runs, a search finds one, Enter opens it with its earlier
// turn (and the next prompt continues it); /memory lists two saved entries and deletes one.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/memory/store.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

describe.each([
  [80, 24],
  [50, 20],
])("the session picker at %ix%i", (cols, rows) => {
  it("a bare --resume lists the workspace's sessions; a search finds one; Enter opens it with its earlier turn", async () => {
    const {
      mock,
      workspace: ws,
      run,
      pty,
    } = await e2eEnv(
      [textReply("Pelican plan: three steps."), textReply("Walrus fixed."), textReply("Step one is done.")],
      { model: "mock-model" },
    );
    expect((await run(["-p", "plan the pelican migration", "-C", ws])).code).toBe(0);
    expect((await run(["-p", "fix the walrus bug", "-C", ws])).code).toBe(0);

    const app = pty({ cols, rows, args: ["--resume"] });
    let screen = await app.waitFor("2 sessions in this workspace");
    expect(screen).toContain("Resume a session");
    // Newest first.
    expect(screen.indexOf("fix the walrus bug")).toBeLessThan(screen.indexOf("plan the pelican migration"));
    expect(app.lines().every((l) => l.length <= cols)).toBe(true);

    await app.typeSlowly("pelican");
    screen = await app.waitFor("1 found in this workspace");
    expect(screen).not.toContain("walrus");
    app.type(keys.enter);
    screen = await app.waitFor("Pelican plan: three steps.");
    expect(screen).toContain("plan the pelican migration");
    expect(screen).not.toContain("Resume a session");

    // The next prompt continues that session.
    await app.typeSlowly("do step one");
    app.type(keys.enter);
    await app.waitFor("Step one is done.");
    const users = (mock.requests[2]!.messages as ChatMessage[]).filter((m) => m.role === "user").map((m) => m.content);
    expect(users).toEqual(["plan the pelican migration", "do step one"]);
    app.type(keys.ctrl("d"));
    expect(await app.exit()).toBe(0);
  }, 30_000);
});

describe("the memory dialog", () => {
  it("lists the saved memories and deletes one after y", async () => {
    const { env, pty } = await e2eEnv([], { model: "mock-model" });
    // Memory on: node-pty would pass an undefined value on as the string "undefined".
    delete env.NANOHERMES_NO_MEMORY;
    const file = join(env.NANOHERMES_HOME!, "memory.json");
    let t = Date.parse("2026-01-05T10:00:00Z");
    const store = new MemoryStore(file, { now: () => new Date((t += 60_000)) });
    await store.save("preference", "The user prefers tabs over spaces");
    await store.save("lesson", "The e2e suite needs a built dist/ first");

    const app = pty({ cols: 80, rows: 24 });
    await app.waitFor("Ask anything");
    await app.typeSlowly("/memory");
    app.type(keys.enter);
    let screen = await app.waitFor("2 memories, newest first");
    expect(screen).toContain("The user prefers tabs over spaces");
    expect(screen).toMatch(/› lesson +The e2e suite needs a built dist\/ first/);
    app.type("d");
    await app.waitFor("(y/n)");
    app.type("y");
    screen = await app.waitFor("1 memory, newest first");
    expect(screen).not.toContain("The e2e suite");
    expect((await new MemoryStore(file).list()).map((e) => e.text)).toEqual(["The user prefers tabs over spaces"]);
    app.type(keys.esc);
    await app.waitFor("Ask anything");
    app.type(keys.ctrl("d"));
    expect(await app.exit()).toBe(0);
  }, 30_000);
});
