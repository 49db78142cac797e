// Real Landlock through the built helper: the network switch (TCP connect and bind denied when
// off), the default, and what a host without a mount namespace says. Never skipped.
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandSandbox } from "../../src/agent/confinement.js";
import { parseFlags } from "../../src/config/flags.js";
import { loadSettings } from "../../src/config/load.js";
import { describeSandbox, probeLandlock } from "../../src/sandbox/landlock.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { tempDir } from "../helpers/cli.js";
import { helper, sandboxedAsync, setUpLandlockFixture, ws } from "../helpers/landlock.js";
import { callTool } from "../helpers/tools.js";

setUpLandlockFixture();

describe("the network switch", () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((socket) => socket.end());
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    const address = server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

  const connect = () =>
    `${process.execPath} -e "const s = require('net').connect(${port}, '127.0.0.1'); s.on('connect', () => { console.log('connected'); process.exit(0); }); s.on('error', (e) => { console.log(e.code); process.exit(3); })"`;

  it("off: a TCP connect to a local listener is denied", async () => {
    const r = await sandboxedAsync("workspace-write", connect(), { network: false });
    expect(r.stdout.trim()).toBe("EACCES");
    expect(r.status).toBe(3);
  });

  it("off: binding a TCP port is denied", async () => {
    const listen = `${process.execPath} -e "require('net').createServer().listen(0, '127.0.0.1', () => { console.log('listening'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(3); })"`;
    const r = await sandboxedAsync("read-only", listen, { network: false });
    expect(r.stdout.trim()).toBe("EACCES");
  });

  it("on: the same connect works", async () => {
    const r = await sandboxedAsync("workspace-write", connect(), { network: true });
    expect(r.stdout.trim()).toBe("connected");
    expect(r.status).toBe(0);
  });

  it("where no mount namespace can be made, the first command says so once (issue 26.2, simulated host)", async () => {
    const said: string[] = [];
    const protect = { mountNamespace: false, reason: "simulated: user namespaces are off" };
    const host = () => ({ helper, probe: probeLandlock(), protect });
    const settings = {
      sandbox: { mode: "workspace-write" as const, network: false, writableRoots: [] },
      workspace: ws,
    };
    const sandbox = commandSandbox(settings, (line) => said.push(line), host);
    await sandbox.wrap?.(["true"]);
    await sandbox.wrap?.(["true"]);
    expect(said.filter((l) => l.startsWith("protected paths:"))).toEqual([
      "protected paths: no mount namespace here (simulated: user namespaces are off), so commands can change them while they run; after every command NanoHermes reverts any change to them, and git in commands runs without the repository's hooks and fsmonitor (sandbox status says more)",
    ]);
    expect(describeSandbox({ helper, probe: probeLandlock(), protect }).join("\n")).toContain(
      "no mount namespace here (simulated: user namespaces are off), so commands can change them while they run",
    );
    const quiet: string[] = [];
    await commandSandbox(
      settings,
      (line) => quiet.push(line),
      () => ({ ...host(), protect: { mountNamespace: true, reason: "unshare" } }),
    ).wrap?.(["true"]);
    expect(quiet.filter((l) => l.startsWith("protected paths:"))).toEqual([]);
  });

  it("is off by default (issue 26.6), and one run_command with network: true gets it", async () => {
    const home = tempDir();
    const settings = loadSettings({ flags: parseFlags([]), env: { NANOHERMES_HOME: home }, cwd: ws });
    expect(settings.sandbox.network).toBe(false);
    expect(
      loadSettings({ flags: parseFlags(["--network", "on"]), env: { NANOHERMES_HOME: home }, cwd: ws }).sandbox.network,
    ).toBe(true);
    const sandbox = commandSandbox({ ...settings, sandbox: { ...settings.sandbox, mode: "workspace-write" } });
    const closed = await callTool(runCommandTool, { command: connect() }, ws, undefined, { sandbox });
    expect(closed.forModel).toContain("EACCES");
    const open = await callTool(runCommandTool, { command: connect(), network: true }, ws, undefined, { sandbox });
    expect(open.forModel).toContain("connected");
  });
});
