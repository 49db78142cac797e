// What the UI reads from the ledger (src/cron/status.ts): no ledger, nothing; with no daemon, the
// instants of enabled jobs that passed unrun (paused jobs and instants with a row do not count);
// with the real daemon on the socket, nothing missed and the inbox's unread count.
import { expect, it } from "vitest";
import { addJob } from "../../src/cron/jobs.js";
import { cronStatus, MISSED_COUNT_CAP } from "../../src/cron/status.js";
import { CronStore, cronDbPath } from "../../src/cron/store.js";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { daemonsStoppedAfterEach } from "../helpers/daemon.js";
import { mockModel } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

const HOUR = 3_600_000;
const startDaemon = daemonsStoppedAfterEach();

async function ledger(home: string, fill: (store: CronStore, ws: string) => void): Promise<void> {
  const store = await CronStore.open(cronDbPath(home));
  try {
    fill(store, tempDir("nh-ws-"));
  } finally {
    store.close();
  }
}

it("counts the missed instants of enabled jobs with no daemon, and nothing without a ledger", async () => {
  const home = tempDir("nh-home-");
  const now = Date.now();
  expect(await cronStatus(home, now)).toBeNull();
  await ledger(home, (store, workspace) => {
    // Added 3.5 hours ago, every hour: 3 instants passed.
    addJob(store, { name: "hourly", schedule: "@every 1h", prompt: "p", workspace, tz: "UTC" }, now - 3.5 * HOUR);
    // One of its 2 instants ran: 1 missed.
    addJob(store, { name: "ran", schedule: "@every 1h", prompt: "p", workspace, tz: "UTC" }, now - 2.5 * HOUR);
    const first = now - 1.5 * HOUR;
    const claim = store.claim("ran", first, false);
    if ("id" in claim) store.finish(claim.id, "completed", "ok", null);
    // Paused: its missed instants are not runs anyone expects.
    addJob(store, { name: "off", schedule: "@every 1h", prompt: "p", workspace, tz: "UTC" }, now - 5.5 * HOUR);
    store.setEnabled("off", false, "paused by the user");
    store.park("hourly", null, "cron hourly wanted: run_command: not run");
  });
  expect(await cronStatus(home, now)).toEqual({ daemon: false, jobs: 2, missed: 4, more: false, inbox: 1 });
  await ledger(home, (store, workspace) =>
    addJob(store, { name: "fast", schedule: "* * * * * *", prompt: "p", workspace, tz: "UTC" }, now - HOUR),
  );
  const many = await cronStatus(home, now);
  expect(many).toMatchObject({ missed: MISSED_COUNT_CAP, more: true });
});

it("with the daemon running, nothing is missed and the unread inbox is counted", async () => {
  const model = await mockModel(() => textReply("ok"));
  const daemon = await startDaemon({ modelUrl: model.url });
  await ledger(daemon.home, (store) => {
    store.park("nightly", null, "cron nightly wanted: run_command: not run");
    store.park("nightly", null, "cron nightly wanted: write_file: not run");
  });
  expect(await cronStatus(daemon.home)).toMatchObject({ daemon: true, missed: 0, inbox: 2 });
  await ledger(daemon.home, (store) => void store.inbox(true));
  expect(await cronStatus(daemon.home)).toMatchObject({ daemon: true, inbox: 0 });
}, 60_000);

it("a one-shot run tells of missed runs once on stderr, after its answer, and not again for the same instants", async () => {
  const model = await mockModel(() => textReply("answer"));
  const home = tempDir("nh-home-");
  const ws = tempDir("nh-ws-");
  await ledger(home, (store, workspace) =>
    addJob(
      store,
      { name: "hourly", schedule: "@every 1h", prompt: "p", workspace, tz: "UTC" },
      Date.now() - 3.5 * HOUR,
    ),
  );
  const env = testEnv({ NANOHERMES_HOME: home, OPENAI_API_KEY: "sk-test" });
  const oneShot = () => runCli(["-p", "hi", "--base-url", model!.url], { env, cwd: ws });
  const first = await oneShot();
  expect(first.code).toBe(0);
  expect(first.stdout.trim()).toBe("answer");
  expect(first.stderr).toContain(
    "nanohermes: 3 scheduled runs were missed (no daemon): start nanohermes --daemon, or the systemd unit of scripts/deploy-debian.sh",
  );
  const second = await oneShot();
  expect(second.code).toBe(0);
  expect(second.stderr).not.toContain("missed");
}, 60_000);
