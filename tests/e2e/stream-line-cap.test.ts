// The 32 MB cap on one line of a model's reply holds while it is read: a server that sends a 40 MB
// `data:` line ends the attempt at the cap with a clear error, and it is not asked again.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { LineGuard, LineTooLongError } from "../../src/agent/providers/node-fetch.js";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server?.closeAllConnections();
  server = undefined;
});

async function through(cap: number, chunks: string[]): Promise<string | Error> {
  const guard = new LineGuard(cap);
  const source = new PassThrough();
  source.pipe(guard);
  for (const c of chunks) source.write(c);
  source.end();
  let out = "";
  try {
    for await (const piece of guard) out += String(piece);
    return out;
  } catch (error) {
    return error as Error;
  }
}

describe("LineGuard", () => {
  it.each([
    ["short lines pass", ["ab\ncd\n", "ef\r\n"], true],
    ["a line of exactly the cap passes", ["abcd", "\n"], true],
    ["a line over the cap across chunks", ["abc", "de\n"], false],
    ["a line over the cap within one long chunk", ["a\nbcdefg\nh"], false],
    ["a long tail after short lines", ["a\nb\nc\n", "defgh"], false],
    ["\r ends a line too", ["abcd\rabcd\rab"], true],
  ])("%s", async (_name, chunks, passes) => {
    const out = await through(4, chunks);
    if (passes) expect(out).toBe(chunks.join(""));
    else expect(out).toBeInstanceOf(LineTooLongError);
  });
});

describe("LineGuard on a long line", () => {
  it("passes a 2 MB line fed in 64 KB pieces on in one piece once it ends, and short lines as they come", async () => {
    const guard = new LineGuard(32 * 1024 * 1024);
    const pieces: number[] = [];
    guard.on("data", (d: Buffer) => pieces.push(d.length));
    const done = new Promise((r) => guard.on("end", r));
    guard.write("short\n");
    for (let i = 0; i < 32; i++) guard.write(Buffer.alloc(64 * 1024, 0x61));
    guard.end("\nafter\n");
    await done;
    expect(pieces[0]).toBe(6);
    expect(pieces.reduce((a, b) => a + b, 0)).toBe(6 + 2 * 1024 * 1024 + 7);
    // The first MB passes as it comes; from there the line is held and passed with its end.
    expect(pieces.at(-1)).toBeGreaterThan(1024 * 1024);
  });
});

describe("a model reply with a line over 32 MB", () => {
  it("ends the attempt at the cap with a clear error and no retry", async () => {
    let requests = 0;
    server = createServer((req, res) => {
      req.resume();
      requests++;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.on("error", () => {});
      const mb = "a".repeat(1024 * 1024);
      let sent = 0;
      res.write("data: ");
      const more = () => {
        while (sent < 40 && !res.destroyed) {
          sent++;
          if (!res.write(mb)) return void res.once("drain", more);
        }
        res.end("\n\n");
      };
      more();
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const ws = tempDir();
    const r = await runCli(["-p", "hi", "-C", ws, "--json"], {
      env: testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: url }),
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(1);
    const out = JSON.parse(r.stdout) as { reason: string; error: string };
    expect(out.reason).toBe("error");
    expect(out.error).toMatch(/the stream was cut: a line of the reply passed 32 MB without ending/);
    expect(requests).toBe(1);
  }, 70_000);
});
