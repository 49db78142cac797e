// GET /v1/sessions/ID/file serves only regular files inside the workspace and writable roots, found
// by the no-follow walk: links to a file outside, a directory outside, the token file or the
// daemon's sessions return nothing of theirs (issue 14 item 7). Real daemon, real links, real FIFO.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { http, type RunningDaemonProcess, daemonsStoppedAfterEach } from "../helpers/daemon.js";
import { mockModel } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

const TOKEN = "fedcba9876543210fedcba9876543210fedcba9876543210";
const auth = { Authorization: `Bearer ${TOKEN}` };
const daemon = daemonsStoppedAfterEach();

async function start(workspace: string, tokenFile: string): Promise<RunningDaemonProcess> {
  const model = await mockModel(() => textReply("ok"));
  return daemon({ modelUrl: model.url, workspace, args: ["--daemon-token-file", tokenFile] });
}

const file = (d: RunningDaemonProcess, path: string) =>
  http(d.url, `/v1/sessions/f/file?path=${encodeURIComponent(path)}`, { headers: auth });

describe("daemon: file reads follow no link out", () => {
  it("refuses links to a file outside, a directory outside, /etc/shadow, the token file and the session folder", async () => {
    const outside = tempDir("nh-outside-");
    writeFileSync(join(outside, "secret.txt"), "OUTSIDE-SECRET\n");
    const tokenDir = tempDir("nh-token-");
    const tokenFile = join(tokenDir, "token");
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    const ws = tempDir("nh-ws-");
    writeFileSync(join(ws, "real.txt"), "inside\n");
    mkdirSync(join(ws, "sub"));
    symlinkSync(join(outside, "secret.txt"), join(ws, "to-file"));
    symlinkSync(outside, join(ws, "to-dir"));
    symlinkSync("/etc/shadow", join(ws, "shadow"));
    symlinkSync(tokenFile, join(ws, "tok"));
    symlinkSync(tokenDir, join(ws, "tokdir"));
    // A relative link that climbs out, and links that stay inside (which keep working).
    symlinkSync("../../../../../../../../../../etc/passwd", join(ws, "sub", "climb"));
    symlinkSync("../real.txt", join(ws, "sub", "up"));
    symlinkSync("sub/up", join(ws, "chain"));
    const d = await start(ws, tokenFile);
    symlinkSync(d.sessionDir, join(ws, "sessions"));
    // A session file for the link to the session folder to aim at.
    await http(d.url, "/", { body: JSON.stringify({ prompt: "hi" }), headers: { ...auth, "X-Session-Id": "f" } });
    expect(existsSync(join(d.sessionDir, "f.json"))).toBe(true);

    for (const path of [
      "to-file",
      "to-dir/secret.txt",
      "shadow",
      "tok",
      "tokdir/token",
      "sub/climb",
      "sessions/f.json",
      join(ws, "to-dir", "secret.txt"),
    ]) {
      const answer = await file(d, path);
      expect(answer.status, path).toBe(400);
      expect(answer.text, path).not.toContain("OUTSIDE-SECRET");
      expect(answer.text, path).not.toContain(TOKEN);
      expect(answer.text, path).not.toContain("root:");
      expect(answer.json, path).toMatchObject({
        error: expect.stringMatching(/outside the workspace|daemon's own files/),
      });
    }
    for (const path of ["real.txt", "sub/up", "chain"]) {
      expect((await file(d, path)).json, path).toEqual({ path: join(ws, path), now: "inside\n" });
    }
  });

  it("never serves the token file or session folder even inside the workspace, and does not wait on a FIFO", async () => {
    const ws = tempDir("nh-ws-");
    mkdirSync(join(ws, "secrets"));
    const tokenFile = join(ws, "secrets", "token");
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    execFileSync("mkfifo", [join(ws, "pipe")]);
    const model = await mockModel(() => textReply("ok"));
    const d = await daemon({
      modelUrl: model.url,
      workspace: ws,
      sessionDir: join(ws, "state", "sessions"),
      args: ["--daemon-token-file", tokenFile],
    });
    await http(d.url, "/", { body: JSON.stringify({ prompt: "hi" }), headers: { ...auth, "X-Session-Id": "f" } });
    for (const path of ["secrets/token", "state/sessions/f.json"]) {
      const answer = await file(d, path);
      expect(answer.status, path).toBe(400);
      expect(answer.text, path).not.toContain(TOKEN);
      expect(answer.json, path).toMatchObject({ error: expect.stringMatching(/daemon's own files/) });
    }
    // A link planted among the uploads is no upload: a prompt cannot name it as an image.
    mkdirSync(join(d.sessionDir, ".uploads"), { recursive: true });
    symlinkSync(tokenFile, join(d.sessionDir, ".uploads", "planted.png"));
    const planted = await http(d.url, "/v1/sessions/f/commands", {
      body: JSON.stringify({ type: "user.submit", text: "x", images: [join(d.sessionDir, ".uploads", "planted.png")] }),
      headers: auth,
    });
    expect(planted.status).toBe(409);
    expect(planted.json).toMatchObject({ error: expect.stringMatching(/images must be uploaded first/) });
    // A FIFO is no regular file: answered at once as absent, the daemon keeps serving.
    expect((await file(d, "pipe")).json).toEqual({ path: join(ws, "pipe"), now: null });
    expect((await http(d.url, "/health")).status).toBe(200);
  });
});
