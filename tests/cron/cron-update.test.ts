// Changing a job: `nanohermes cron update` and PATCH /v1/cron/jobs/NAME change only the fields
// given, refuse bad input with one line and nothing stored, and a new schedule counts from the
// change (the instants before it are not missed runs).
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { http, daemonsStoppedAfterEach } from "../helpers/daemon.js";
import { mockModel } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

const startDaemon = daemonsStoppedAfterEach();

it("cron update changes the fields given, refuses bad input with nothing stored", async () => {
  const home = tempDir("nh-home-");
  const ws = tempDir("nh-ws-");
  const other = tempDir("nh-ws2-");
  const cli = (...args: string[]) => runCli(["cron", ...args], { env: testEnv({ NANOHERMES_HOME: home }), cwd: ws });
  const added = JSON.parse(
    (await cli("add", "one", "--schedule", "0 * * * *", "--prompt", "p", "--tz", "UTC", "--json")).stdout,
  );
  const changed = await cli("update", "one", "--schedule", "*/10 * * * *", "--prompt", "q", "-C", other, "--json");
  expect(changed.code).toBe(0);
  const job = JSON.parse(changed.stdout);
  expect(job).toMatchObject({ name: "one", schedule: "*/10 * * * *", prompt: "q", workspace: other, tz: "UTC" });
  // Unchanged fields stay; the new schedule counts from the change.
  expect(job.missed).toBe(added.missed);
  expect(job.createdAt).toBeGreaterThan(added.createdAt);
  for (const [args, message] of [
    [["update", "one", "--schedule", "every day"], /fields|valid cron/],
    [["update", "one", "--tz", "Mars/Base"], /unknown time zone/],
    [["update", "one", "-C", join(ws, "nope")], /nope: not a directory/],
    [["update", "one"], /nothing to change/],
    [["update", "two", "--prompt", "x"], /no cron job named "two"/],
  ] as const) {
    const result = await cli(...args);
    expect(result.code, args.join(" ")).toBe(2);
    expect(result.stderr).toMatch(message);
  }
  const [after] = JSON.parse((await cli("list", "--json")).stdout).jobs;
  expect(after).toMatchObject({ schedule: "*/10 * * * *", prompt: "q", workspace: other, tz: "UTC" });
}, 60_000);

it("PATCH /v1/cron/jobs/NAME changes a job on the daemon and refuses bad input with 400", async () => {
  const model = await mockModel(() => textReply("ok"));
  const daemon = await startDaemon({ modelUrl: model.url });
  const body = { name: "nightly", schedule: "0 3 * * *", prompt: "p", workspace: daemon.workspace, tz: "UTC" };
  expect((await http(daemon.url, "/v1/cron/jobs", { body: JSON.stringify(body) })).status).toBe(201);
  const patch = (change: object) =>
    http(daemon!.url, "/v1/cron/jobs/nightly", { method: "PATCH", body: JSON.stringify(change) });
  const ok = await patch({ approval: "on-request", missed: "skip" });
  expect(ok.status).toBe(200);
  expect(ok.json).toMatchObject({ schedule: "0 3 * * *", approval: "on-request", missed: "skip" });
  const bad = await patch({ approval: "sometimes" });
  expect(bad.status).toBe(400);
  expect(bad.json.error).toMatch(/--approval must be one of never, on-request, untrusted/);
  expect((await http(daemon.url, "/v1/cron/jobs/nightly")).json.approval).toBe("on-request");
}, 60_000);
