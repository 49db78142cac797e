// Scheduled runs in the built UI, in a real terminal at 120x40 and 50x40: with no daemon, the title
// bar counts the runs missed since the jobs' last instants and the status line says how to start
// one; with the daemon running, the title bar shows the inbox's unread refusals instead.
import { afterEach, describe, expect, it } from "vitest";
import { addJob } from "../../src/cron/jobs.js";
import { CronStore, cronDbPath } from "../../src/cron/store.js";
import { tempDir, testEnv } from "../helpers/cli.js";
import { startDaemonProcess, type RunningDaemonProcess } from "../helpers/daemon.js";
import { startMockServer, textReply, type MockServer } from "../helpers/mock-openai.js";
import { PtyApp } from "../helpers/pty.js";

let app: PtyApp | undefined;
let daemon: RunningDaemonProcess | undefined;
let model: MockServer | undefined;
afterEach(async () => {
  if (app && app.exitCode === null) app.kill("SIGKILL");
  await daemon?.stop("SIGKILL");
  await model?.close();
  app = daemon = model = undefined;
});

async function ledger(home: string, fill: (store: CronStore) => void): Promise<void> {
  const store = await CronStore.open(cronDbPath(home));
  try {
    fill(store);
  } finally {
    store.close();
  }
}

const ui = (home: string, cols: number) =>
  new PtyApp({
    cols,
    rows: 40,
    cwd: tempDir(),
    env: testEnv({ NANOHERMES_HOME: home, OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" }),
  });

describe.each([120, 50])("at %i columns", (cols) => {
  it("says how many scheduled runs were missed with no daemon, and how to start one", async () => {
    const home = tempDir("nh-home-");
    const workspace = tempDir("nh-ws-");
    // Every hour since 3.5 hours ago, never run: 3 instants missed.
    await ledger(home, (store) =>
      addJob(
        store,
        { name: "hourly", schedule: "@every 1h", prompt: "p", workspace, tz: "UTC" },
        Date.now() - 3.5 * 3_600_000,
      ),
    );
    app = ui(home, cols);
    await app.waitFor("Ask anything", 20_000);
    const screen = await app.waitFor(/cron runs missed|cron 3 missed/, 20_000);
    const [title] = app.lines();
    if (cols >= 120) {
      expect(title).toContain("3 cron runs missed: start nanohermes --daemon");
      expect(screen).toContain(
        "3 scheduled runs were missed (no daemon): start nanohermes --daemon, or the systemd unit of scripts/deploy-debian.sh",
      );
    } else expect(title).toMatch(/^NanoHermes · cron 3 missed/);
    for (const line of app.lines()) expect([...line].length).toBeLessThanOrEqual(cols);
  }, 60_000);

  it("shows the unread inbox of the running daemon's scheduled runs", async () => {
    model = await startMockServer(() => textReply("ok"));
    daemon = await startDaemonProcess({ modelUrl: model.url });
    await ledger(daemon.home, (store) => {
      store.park("nightly", null, "cron nightly wanted: run_command: not run");
      store.park("nightly", null, "cron nightly wanted: write_file: not run");
    });
    app = ui(daemon.home, cols);
    await app.waitFor("Ask anything", 20_000);
    await app.waitFor(/inbox 2/, 20_000);
    const [title] = app.lines();
    expect(title).not.toContain("missed");
    if (cols >= 120) expect(title).toContain("cron inbox 2");
  }, 60_000);
});
