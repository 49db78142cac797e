// Real MCP servers from npm for the tests: server-everything (stdio, streamable HTTP, SSE) and
// server-filesystem, started with this Node so no network or npx is involved.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { tempDir } from "./cli.js";
import { waitFor as waitUntil } from "./wait.js";

const modules = resolve(import.meta.dirname, "../../node_modules/@modelcontextprotocol");
export const everythingJs = join(modules, "server-everything/dist/index.js");
export const filesystemJs = join(modules, "server-filesystem/dist/index.js");

/** Config for the everything server over stdio; `marker` is an extra argument to find (and kill) it by. */
export const everythingStdio = (marker = "nh-test") => ({
  command: process.execPath,
  args: [everythingJs, "stdio", marker],
});
export const filesystemStdio = (dir: string) => ({ command: process.execPath, args: [filesystemJs, dir] });

/**
 * Commands may write the temp folder, so a server program beneath it is refused as a planted
 * launcher; a checkout under /tmp (as CI's may be) would have its own node_modules refused. The
 * program under test gets a temp folder of its own for its commands instead.
 */
export const ownTmp = (): { TMPDIR: string } => ({ TMPDIR: tempDir("nh-cmd-tmp-") });

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolvePort(port));
    });
    server.on("error", reject);
  });
}

/** Starts the everything server over HTTP (`streamableHttp` or `sse`); resolves once it listens. */
export async function startEverythingHttp(
  transport: "streamableHttp" | "sse",
): Promise<{ url: string; child: ChildProcess; close(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingJs, transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`everything ${transport} did not start`)), 15_000);
    const onData = (chunk: Buffer) => {
      if (/listening|running/i.test(chunk.toString())) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stderr!.on("data", onData);
    child.stdout!.on("data", onData);
    child.on("exit", (code) => fail(new Error(`everything ${transport} exited ${code}`)));
  });
  const path = transport === "sse" ? "/sse" : "/mcp";
  return { url: `http://127.0.0.1:${port}${path}`, child, close: () => void child.kill("SIGKILL") };
}

/** The shared wait (./wait.ts) with this file's older argument order, kept for its callers. */
export async function waitFor(check: () => boolean, ms = 15_000, what = "condition"): Promise<void> {
  await waitUntil(check, { what, timeoutMs: ms, everyMs: 25 });
}
