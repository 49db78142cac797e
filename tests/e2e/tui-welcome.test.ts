// First start without a key or an endpoint: the UI opens with what to set up, fits the pane
// (no line cut, at 120x40, 80x24 and 50x20), and a prompt is not sent anywhere: a local HTTP
// server standing in for "some endpoint" sees no request, the task stays idle and the prompt stays
// in the input.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir, testEnv } from "../helpers/cli.js";
import { keys, PtyApp } from "../helpers/pty.js";

let app: PtyApp | undefined;
afterEach(() => {
  if (app && app.exitCode === null) app.kill("SIGKILL");
  app = undefined;
});

describe.each([
  [120, 40],
  [80, 24],
  [50, 20],
])("first start at %ix%i", (cols, rows) => {
  it("shows the welcome, sends nothing, and every line fits", async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      // A proxy would catch any request that tried to leave; nothing is set up, so none should.
      app = new PtyApp({
        cols,
        rows,
        cwd: tempDir(),
        env: testEnv({ HTTPS_PROXY: `http://127.0.0.1:${port}`, HTTP_PROXY: `http://127.0.0.1:${port}` }),
      });
      let screen = await app.waitFor(/No model is set up yet/);
      expect(screen).toContain("OPENAI_API_KEY=sk-");
      expect(screen).toContain("ollama serve");
      for (const line of app.lines()) expect(line.length).toBeLessThanOrEqual(cols);
      app.type("hello there");
      await app.waitFor(/hello there/);
      app.type(keys.enter);
      // Nothing typed is lost: the prompt stays in the input, and the status line says what to set.
      screen = await app.waitFor(/not sent/);
      expect(screen).toMatch(/hello there/);
      expect(screen.replace(/\s+/g, " ")).toMatch(/not sent \(your text is still in the input\)/);
      expect(screen).not.toMatch(/ENOTFOUND|getaddrinfo|DNS/);
      await new Promise((r) => setTimeout(r, 300));
      expect(requests).toBe(0);
      expect(app.screen()).not.toMatch(/· running/);
    } finally {
      server.close();
    }
  });
});
