// `nanohermes mcp`: a config check without a turn. Connects the configured servers, prints their
// state and tools (or JSON), and exits non-zero when one of them is not ready.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { everythingStdio, ownTmp } from "../helpers/mcp.js";

describe("nanohermes mcp", () => {
  it("lists ready servers and their tools, and fails for a server that cannot start", async () => {
    const dir = tempDir();
    const file = join(dir, "mcp.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { everything: everythingStdio() } }));
    // The workspace is a temp folder: a server program inside the workspace (this repository's
    // node_modules) would be refused as a planted launcher.
    const ok = await runCli(["mcp", "--mcp", file, "-C", dir], { env: testEnv(ownTmp()) });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^everything: ready \(stdio, \d+ tools\)$/m);
    expect(ok.stdout).toContain("  mcp__everything__echo\n");

    writeFileSync(
      file,
      JSON.stringify({ servers: { everything: everythingStdio(), ghost: { command: "/nonexistent/ghost" } } }),
    );
    const json = await runCli(["mcp", "--json", "--mcp", file, "-C", dir], { env: testEnv(ownTmp()) });
    expect(json.code).toBe(1);
    const servers = JSON.parse(json.stdout) as { name: string; state: string; error?: string; toolNames: string[] }[];
    expect(servers.map((s) => [s.name, s.state])).toEqual([
      ["everything", "ready"],
      ["ghost", "failed"],
    ]);
    expect(servers[1]!.error).toMatch(/cannot start \/nonexistent\/ghost/);
    expect(servers[0]!.toolNames).toContain("mcp__everything__get-sum");
  });

  it("says when none are configured, and reports a broken --mcp file in one line", async () => {
    const none = await runCli(["mcp"], { env: testEnv(ownTmp()) });
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("no MCP servers are configured");
    const dir = tempDir();
    writeFileSync(join(dir, "bad.json"), "{ not json");
    const bad = await runCli(["mcp", "--mcp", join(dir, "bad.json")], { env: testEnv(ownTmp()) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^nanohermes: --mcp: invalid MCP config .*bad\.json: not valid JSON/);
    writeFileSync(join(dir, "wrong.json"), JSON.stringify({ mcpServers: { x: { command: "a", bogus: 1 } } }));
    const wrong = await runCli(["mcp", "--mcp", join(dir, "wrong.json")], { env: testEnv(ownTmp()) });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/"x": Unrecognized key: "bogus"|"x": .*bogus/);
  });
});
