// MCP servers in the full-screen UI, in a real pseudo-terminal: the first frame does not wait for
// them, the title bar follows their state, an MCP tool that may change things asks inline and
// runs once approved, and a server that dies comes back while the UI keeps working.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { filesystemStdio, ownTmp } from "../helpers/mcp.js";
import { type Responder, textReply, toolReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

/** The mock, a workspace and a home, for a UI whose temp files stay in a folder of its own. */
const world = (script: Responder[] = []) => e2eEnv(script, { model: "mock-model", env: ownTmp() });

describe("MCP in the UI", () => {
  it("draws before a slow server is up, then shows it ready; an MCP write asks inline and runs once approved", async () => {
    const { mock, workspace: ws, home, pty } = await world();
    // A server that takes 1.5 s to start (node waits, then runs the filesystem server).
    const fs = filesystemStdio(ws);
    const slow = {
      command: process.execPath,
      args: [
        "-e",
        `setTimeout(() => { process.argv.splice(1, 0, ${JSON.stringify(fs.args[0])}); import(${JSON.stringify(fs.args[0])}); }, 1500)`,
        ws,
      ],
    };
    writeFileSync(join(home, "config.json"), JSON.stringify({ mcpServers: { files: slow } }));
    const target = join(ws, "via-mcp.txt");
    mock.push(
      toolReply([{ name: "mcp__files__write_file", args: { path: target, content: "written by the MCP server\n" } }]),
      textReply("wrote it through MCP"),
    );
    const app = pty({ cols: 120, rows: 40 });
    await app.waitFor("Ask anything");
    // The first frame came before the server could possibly be ready.
    await app.waitFor(/mcp 0\/1…/);
    await app.waitFor(/mcp 1\/1/, 20_000);

    app.type("write the file with the mcp server");
    app.type(keys.enter);
    await app.waitFor(/Approval needed/);
    expect(app.screen()).toContain("MCP files: write_file");
    expect(app.screen()).toMatch(/MCP tools need approval/);
    expect(existsSync(target)).toBe(false);
    await app.answer("y");
    await app.waitFor("wrote it through MCP");
    expect(readFileSync(target, "utf8")).toBe("written by the MCP server\n");
    expect(mock.requests[1]!.messages.at(-1)).toMatchObject({ role: "tool" });
  });

  it("a server that is missing shows as failed in the title bar and /mcp, and the agent still answers", async () => {
    const { mock, home, pty } = await world([textReply("no MCP needed")]);
    mkdirSync(join(home, "skills", "notes"), { recursive: true });
    writeFileSync(
      join(home, "skills", "notes", "SKILL.md"),
      "---\nname: notes\ndescription: Keep notes tidy\n---\nUse headings.\n",
    );
    writeFileSync(
      join(home, "config.json"),
      JSON.stringify({ mcpServers: { ghost: { command: "/nonexistent/mcp-ghost" } } }),
    );
    const app = pty({ cols: 80, rows: 24 });
    await app.waitFor(/mcp 0\/1 failed/);
    app.type("/mcp");
    app.type(keys.enter);
    await app.waitFor(/cannot start \/nonexistent\/mcp-ghost/);
    // A lone Esc is only known to be Esc when nothing follows it for a moment: type on once the
    // screen shows it closed the dialog.
    await app.typeAndWait(keys.esc);
    app.type("/skills");
    app.type(keys.enter);
    await app.waitFor("notes: Keep notes tidy");
    await app.typeAndWait(keys.esc);
    app.type("hello");
    app.type(keys.enter);
    await app.waitFor("no MCP needed");
    const system = mock.requests[0]!.messages[0] as { content: string };
    expect(system.content).toContain("- notes: Keep notes tidy");
  });
});
