// Issue 25 in a real terminal: the user types a reply while the model streams, and the model's
// command asks for approval in the middle of it. Every key lands in the input (kept, shown under
// the card), the command does not run; after a pause `y` answers the card.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TYPING_GUARD_MS } from "../../src/ui/controller/approval-guard.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("type-ahead in a real terminal", () => {
  it("keys typed while the model streams never answer the card that appears; y after a pause does", async () => {
    const {
      mock,
      workspace: ws,
      pty,
    } = await e2eEnv(
      [
        {
          content: "Let me look at the build folder before cleaning it up, one moment please.",
          chunkSize: 4,
          chunkDelayMs: 40,
          toolCalls: [{ name: "run_command", arguments: JSON.stringify({ command: "touch typed-ahead.txt" }) }],
        },
        textReply("made the file"),
      ],
      { model: "mock-model" },
    );
    const app = pty({ cols: 80, rows: 24 });
    await app.waitFor("Ask anything");
    await app.typeSlowly("clean up the build");
    app.type(keys.enter);
    await app.waitFor("Esc/Ctrl-C stop");

    // A person typing "yes do it, and …" at 25 keys a second, from the stream until well after the
    // card came: the keys around its arrival are both new to the card and mid-typing. Every one of
    // y, a, n, d and space would have answered the card or opened its full text.
    const phrase = "yes do it and add a note ";
    let typed = "";
    let afterCard: number | null = null;
    const typing = (async () => {
      for (let i = 0; afterCard === null || typed.length < afterCard + 8; i++) {
        const ch = phrase[i % phrase.length]!;
        app.type(ch);
        typed += ch;
        await sleep(40);
      }
    })();
    try {
      await app.waitFor(/Approval needed/);
    } finally {
      afterCard = typed.length;
      await typing;
    }

    await sleep(300);
    const card = app.screen();
    expect(typed.length).toBeGreaterThan(8);
    expect(card).toContain("touch typed-ahead.txt");
    // How to answer is on the card; what was typed waits under it.
    expect(card).toMatch(/y once/);
    expect(card).toContain(`› ${typed.slice(0, 30).trimEnd()}`);
    expect(mock.requests).toHaveLength(1);
    expect(existsSync(join(ws, "typed-ahead.txt"))).toBe(false);

    // The typing stopped well over a second ago (room for a busy machine) and the card has been
    // read: y answers it.
    await sleep(TYPING_GUARD_MS + 700);
    app.type("y");
    await app.waitFor("made the file");
    expect(existsSync(join(ws, "typed-ahead.txt"))).toBe(true);
    // Nothing typed was lost: the input holds all of it, in order, for the user to send or clear.
    await app.waitFor(`› ${typed.slice(0, 40).trimEnd()}`);
    expect(mock.requests).toHaveLength(2);
  });
});
