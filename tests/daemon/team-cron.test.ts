// A team's cron jobs end to end (issue 34, open item 1): two daemon processes, each with its own
// home (its own cron.db, as on two machines), on one private PostgreSQL, the mock model, and
// `nanohermes cron` run against each machine's daemon. A job added on A fires once per instant, on
// either daemon; paused or removed on B, it is paused or gone on A.
import { expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { http, type RunningDaemonProcess, type WireJson, daemonsStoppedAfterEach } from "../helpers/daemon.js";
import { mockModel } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";
import { pgClusterPerFile } from "../helpers/postgres.js";

const db = pgClusterPerFile("cron");
const daemon = daemonsStoppedAfterEach();

async function team() {
  const model = await mockModel(() => textReply("checked"));
  const url = await db.database();
  const workspace = tempDir("nh-ws-");
  return {
    model,
    workspace,
    async start(home?: string): Promise<RunningDaemonProcess> {
      return daemon({
        modelUrl: model.url,
        workspace,
        args: ["--database-url", url],
        ...(home ? { home } : {}),
      });
    },
  };
}

/** `nanohermes cron ARGS` on the machine whose home is `home` (its daemon answers on its socket). */
const cron = (home: string, workspace: string, ...args: string[]) =>
  runCli(["cron", ...args], { env: testEnv({ NANOHERMES_HOME: home }), cwd: workspace });

type Run = { scheduledFor: number; status: string; error: string | null; node?: string };
const runsOf = async (d: RunningDaemonProcess, name: string): Promise<Run[]> =>
  (await http(d.url, `/v1/cron/jobs/${name}/runs`)).json.runs ?? [];

/** Instants `daemons` daemons have settled (none still claimed nor running), by instant: one daemon's view holds every daemon's rows. */
function settled(runs: Run[], daemons: number): Run[][] {
  const by = new Map<number, Run[]>();
  for (const run of runs) by.set(run.scheduledFor, [...(by.get(run.scheduledFor) ?? []), run]);
  return [...by.values()].filter(
    (rows) => rows.length === daemons && rows.every((r) => r.status !== "claimed" && r.status !== "running"),
  );
}

it("a job added with `nanohermes cron add` on A fires once per instant, on either daemon; paused and removed on B, it is on A too", async () => {
  const t = await team();
  const [a, b] = [await t.start(), await t.start()];
  const added = await cron(a.home, t.workspace, "add", "tick", "--schedule", "*/2 * * * * *", "--prompt", "check it");
  expect(added.stderr).toBe("");
  expect(added.code).toBe(0);
  // B's machine lists it, with A's prompt and workspace.
  const listed = await cron(b.home, t.workspace, "list", "--json");
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout).jobs).toMatchObject([{ name: "tick", prompt: "check it", workspace: t.workspace }]);

  let instants: Run[][] = [];
  await expect
    .poll(
      async () => {
        instants = settled(await runsOf(b, "tick"), 2).filter((runs) => runs.some((r) => r.status === "completed"));
        return instants.length;
      },
      { timeout: 40_000, interval: 250 },
    )
    .toBeGreaterThanOrEqual(3);
  for (const runs of instants) {
    // Once: one daemon ran it, the other recorded who did.
    expect(runs.map((r) => r.status).sort()).toEqual(["completed", "skipped"]);
    expect(runs.find((r) => r.status === "skipped")!.error).toMatch(/^fired by \S+:\d+$/);
    // B's view holds both daemons' rows (cron/team-ledger.ts): its own, and A's, named by A's node.
    expect(runs.filter((r) => r.node !== undefined)).toHaveLength(1);
  }

  // Paused on B's machine: A records the next instants as paused, and runs none of them.
  const paused = await cron(b.home, t.workspace, "pause", "tick");
  expect(paused.code).toBe(0);
  const job = await http(a.url, "/v1/cron/jobs/tick");
  expect(job.json).toMatchObject({ enabled: false, pausedReason: "paused by the user", nextRun: null });
  let pausedAt = 0;
  await expect
    .poll(
      async () => {
        const skipped = (await runsOf(a, "tick")).filter((r) => r.error?.startsWith("paused:"));
        pausedAt = Math.min(...skipped.map((r) => r.scheduledFor));
        return skipped.length;
      },
      { timeout: 20_000, interval: 250 },
    )
    .toBeGreaterThanOrEqual(2);
  for (const d of [a, b])
    expect((await runsOf(d, "tick")).filter((r) => r.scheduledFor >= pausedAt && r.status === "completed")).toEqual([]);

  // Removed on B's machine: gone from A's list.
  const removed = await cron(b.home, t.workspace, "remove", "tick");
  expect(removed.code).toBe(0);
  const onA = await cron(a.home, t.workspace, "list", "--json");
  expect(JSON.parse(onA.stdout).jobs).toEqual([]);
  expect((await http(a.url, "/v1/cron/jobs/tick")).status).toBe(404);
}, 90_000);

it("refuses a name the team has; a ledger written while B was down is shared when B starts, a clash goes to B's inbox", async () => {
  const t = await team();
  const a = await t.start();
  const first = await http(a.url, "/v1/cron/jobs", {
    body: JSON.stringify({
      name: "nightly",
      schedule: "0 3 * * *",
      prompt: "run the slow tests",
      workspace: t.workspace,
    }),
  });
  expect(first.status).toBe(201);
  expect(first.json.shared).toBe(true);
  // B's machine, its daemon down: two jobs added by hand, one of them under A's name.
  const home = tempDir("nh-home-");
  expect((await cron(home, t.workspace, "add", "nightly", "--schedule", "0 4 * * *", "--prompt", "mine")).code).toBe(0);
  expect((await cron(home, t.workspace, "add", "wiki", "--schedule", "0 5 * * *", "--prompt", "back up")).code).toBe(0);
  const b = await t.start(home);
  const onA = JSON.parse((await cron(a.home, t.workspace, "list", "--json")).stdout).jobs as WireJson[];
  expect(onA.map((j) => [j.name, j.prompt])).toEqual([
    ["nightly", "run the slow tests"],
    ["wiki", "back up"],
  ]);
  const onB = JSON.parse((await cron(b.home, t.workspace, "list", "--json")).stdout).jobs as WireJson[];
  expect(onB.map((j) => [j.name, j.prompt])).toEqual(onA.map((j) => [j.name, j.prompt]));
  const inbox = JSON.parse((await cron(b.home, t.workspace, "inbox", "--json")).stdout).inbox as WireJson[];
  expect(inbox.map((i) => i.text)).toEqual([
    expect.stringMatching(/^cron nightly: .*the team has a job of that name.*"mine"/),
  ]);
  // The same name again, through either door: refused, the team's job unchanged.
  const again = await cron(b.home, t.workspace, "add", "nightly", "--schedule", "0 6 * * *", "--prompt", "x");
  expect(again.code).not.toBe(0);
  expect(again.stderr).toMatch(/a job named "nightly" exists already/);
  const viaApi = await http(b.url, "/v1/cron/jobs", {
    body: JSON.stringify({ name: "wiki", schedule: "0 6 * * *", prompt: "x", workspace: t.workspace }),
  });
  expect(viaApi.status).toBe(400);
  expect(viaApi.json.error).toMatch(/a job named "wiki" exists already/);
}, 60_000);
