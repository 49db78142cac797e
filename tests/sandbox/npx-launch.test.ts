// Issue 26.4: an MCP server configured as `npx -y @scope/server` never runs a package a sandboxed
// command planted. Real npx, no internet: a registry on loopback stands in for the real one, so the
// tests show both what npx would run (the planted package, when it is where npx looks) and that
// NanoHermes never lets it: npx starts outside the workspace, and one whose npm config, prefix or
// cache lies in a writable root is refused; a command cannot write ~/.npmrc when the workspace is home.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { McpManager, type McpServerStatus } from "../../src/mcp/manager.js";
import { helperPath, sandboxArgv } from "../../src/sandbox/landlock.js";
import { runnerProblem } from "../../src/sandbox/launchers.js";
import type { CommandSandbox } from "../../src/tools/define.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { tempDir } from "../helpers/cli.js";
import { callTool, testSession } from "../helpers/tools.js";

const repo = join(import.meta.dirname, "../..");
const marks = tempDir("nh-npx-marks-");

/** A package whose bin leaves `marks/<label>` when it runs. */
function makePackage(label: string): string {
  const dir = tempDir("nh-npx-pkg-");
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "@scope/server", version: "1.0.0", bin: { server: "index.js" } }),
  );
  writeFileSync(
    join(dir, "index.js"),
    `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(join(marks, label))}, "ran");\n`,
  );
  chmodSync(join(dir, "index.js"), 0o755);
  return dir;
}

/** Plants the package where npx looks in a project: node_modules and its .bin. */
function plantIn(project: string, pkg: string): void {
  const target = join(project, "node_modules/@scope/server");
  mkdirSync(target, { recursive: true });
  for (const name of ["package.json", "index.js"]) writeFileSync(join(target, name), readFileSync(join(pkg, name)));
  chmodSync(join(target, "index.js"), 0o755);
  mkdirSync(join(project, "node_modules/.bin"), { recursive: true });
  spawnSync("ln", ["-sf", "../@scope/server/index.js", join(project, "node_modules/.bin/server")]);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "p", dependencies: { "@scope/server": "1.0.0" } }),
  );
}

// A registry on loopback serving @scope/server 1.0.0 built from the "registry" package.
let server: Server;
let registry = "";
beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/build-native.mjs"], { cwd: repo, stdio: "pipe" });
  expect(helperPath()).not.toBeNull();
  const pkg = makePackage("registry");
  const out = tempDir("nh-npx-tgz-");
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: pkg, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop()!;
  const tarball = readFileSync(join(out, name));
  const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
  server = createServer((req, res) => {
    if (req.url?.endsWith(".tgz")) return void res.end(tarball);
    if (decodeURIComponent(req.url ?? "") !== "/@scope/server") return void res.writeHead(404).end("{}");
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        name: "@scope/server",
        "dist-tags": { latest: "1.0.0" },
        versions: {
          "1.0.0": {
            name: "@scope/server",
            version: "1.0.0",
            bin: { server: "index.js" },
            dist: { tarball: `${registry}server-1.0.0.tgz`, integrity },
          },
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => server?.close());

const saved = { HOME: process.env.HOME, NANOHERMES_HOME: process.env.NANOHERMES_HOME };
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  spawnSync("sh", ["-c", `rm -f ${marks}/*`]);
});

/** npx as a person would run it, in `cwd`, with `env` (async: the registry answers from this process). */
function npx(cwd: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn("npx", ["-y", "@scope/server"], { cwd, env, stdio: "ignore" });
    child.on("exit", resolve);
  });
}

/** Starts one stdio server `npx -y @scope/server` as NanoHermes does and waits until it settles. */
async function launch(workspace: string, roots: string[], env: Record<string, string> = {}): Promise<McpServerStatus> {
  const manager = new McpManager(
    [
      {
        name: "s",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@scope/server"],
        env,
        trust: false,
        timeoutMs: 20_000,
        startupTimeoutMs: 20_000,
      },
    ],
    { logDir: null, version: "test", workspace, roots, retry: { baseMs: 10, maxAttempts: 1 } },
  );
  manager.start();
  const deadline = Date.now() + 30_000;
  let status = manager.statuses()[0]!;
  while ((status.state === "connecting" || status.state === "restarting") && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = manager.statuses()[0]!;
  }
  await manager.close();
  return status;
}

const sandboxOf = (ws: string): CommandSandbox => ({
  mode: "workspace-write",
  network: false,
  writableRoots: [],
  wrap: async (argv) =>
    sandboxArgv({ mode: "workspace-write", workspace: ws, writableRoots: [], network: false }, argv),
});

describe("an MCP server started with npx -y @scope/server", () => {
  it("a package planted in the workspace: npx run there would run it; NanoHermes's launch never does", async () => {
    const ws = tempDir("nh-npx-ws-");
    const home = tempDir("nh-npx-home-");
    plantIn(ws, makePackage("planted"));
    const env = { PATH: process.env.PATH ?? "", HOME: home, npm_config_registry: registry };
    // What the plant is for: npx in the workspace picks it, no registry needed.
    expect(await npx(ws, env)).toBe(0);
    expect(existsSync(join(marks, "planted"))).toBe(true);
    spawnSync("rm", ["-f", join(marks, "planted")]);

    process.env.HOME = home;
    await launch(ws, [ws], { npm_config_registry: registry });
    expect(existsSync(join(marks, "planted"))).toBe(false);
    // It started outside the workspace and got the package from the registry instead.
    expect(existsSync(join(marks, "registry"))).toBe(true);
  });

  it("with the workspace at home, a command cannot write ~/.npmrc (it would name another registry)", async () => {
    const home = tempDir("nh-npx-home-");
    process.env.HOME = home;
    process.env.NANOHERMES_HOME = join(home, ".nanohermes");
    const session = testSession();
    const r = await callTool(
      runCommandTool,
      { command: `echo registry=${registry} > .npmrc; echo npmrc=$?` },
      home,
      undefined,
      { sandbox: sandboxOf(home), session: session.session },
    );
    await session.close();
    expect(r.forModel).toMatch(/^npmrc=[1-9]/m);
    expect(existsSync(join(home, ".npmrc"))).toBe(false);
  });

  it("with the workspace at home, an npm config there (planted or not) is refused with a message, and nothing runs", async () => {
    const home = tempDir("nh-npx-home-");
    writeFileSync(join(home, ".npmrc"), `registry=${registry}\n`);
    // What it is for: npx with this home fetches and runs what that registry serves.
    expect(await npx("/", { PATH: process.env.PATH ?? "", HOME: home })).toBe(0);
    expect(existsSync(join(marks, "registry"))).toBe(true);
    spawnSync("rm", ["-f", join(marks, "registry")]);

    process.env.HOME = home;
    const status = await launch(home, [home]);
    expect(status.state).toBe("failed");
    expect(status.error).toMatch(
      /refused to start MCP server s: npx would run a package from .*\.npmrc \(its npm user config.*inside a folder sandboxed commands can write/,
    );
    expect(existsSync(join(marks, "registry"))).toBe(false);
  });

  it("a global prefix or npx cache inside a writable root is refused too; outside, npx may start", () => {
    const home = tempDir("nh-npx-home-");
    const ws = tempDir("nh-npx-ws-");
    const opts = (env: NodeJS.ProcessEnv) => ({ roots: [ws], env: { HOME: home, ...env } });
    expect(runnerProblem("npx", ["-y", "x"], "/usr/bin/npx", opts({}))).toBeNull();
    expect(runnerProblem("npx", ["-y", "x"], "/usr/bin/npx", opts({ npm_config_prefix: join(ws, "g") }))).toMatch(
      /global prefix/,
    );
    expect(runnerProblem("npx", ["-y", "x"], join(ws, "node/bin/npx"), opts({}))).toMatch(/global prefix/);
    expect(runnerProblem("npm", ["exec", "x"], "/usr/bin/npm", opts({ npm_config_cache: join(ws, "c") }))).toMatch(
      /cache of packages/,
    );
    writeFileSync(join(home, ".npmrc"), `cache=${join(ws, "cache")}\n`);
    expect(runnerProblem("pnpm", ["dlx", "x"], "/usr/bin/pnpm", opts({}))).toMatch(/cache of packages/);
    expect(runnerProblem("node", ["server.js"], "/usr/bin/node", opts({}))).toBeNull();
  });
});
