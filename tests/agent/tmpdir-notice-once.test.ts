// The TMPDIR notice is said once per task, not on every command (issue 28, polish): a task's
// command sandbox (agent/confinement.ts) tells the replaced temp folder with its first command
// only; its subagents share that sandbox, so their commands do not repeat it either. The host is
// simulated (a Landlock that works), so the test holds where the kernel has none.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commandSandbox } from "../../src/agent/confinement.js";
import { tempDir } from "../helpers/cli.js";

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.TMPDIR;
  // "/" is never made writable: the helper gets a private folder and the notice says so.
  process.env.TMPDIR = "/";
});
afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
});

describe("the TMPDIR notice", () => {
  it("comes with the first command of a task and never again", async () => {
    const said: string[] = [];
    const host = () => ({
      helper: "/nonexistent/nh-sandbox",
      probe: { available: true, abi: 6, reason: "simulated" },
      protect: { mountNamespace: true, reason: "simulated" },
    });
    const settings = {
      sandbox: { mode: "workspace-write" as const, network: false, writableRoots: [] },
      workspace: tempDir(),
    };
    const sandbox = commandSandbox(settings, (line) => said.push(line), host);
    for (const command of ["npm test", "ls", "git status", "echo done"]) {
      const wrapped = await sandbox.wrap?.(["sh", "-c", command]);
      expect(wrapped && "argv" in wrapped ? wrapped.argv : wrapped).toContain("--tmpdir");
    }
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^TMPDIR \/ is \/: not making it writable; commands use the private temp folder \//);
  });
});
