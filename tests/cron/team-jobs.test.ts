// The team's cron jobs (issue 34, open item 1): two daemons' ledgers (two cron.db files) mirror one
// table on a private PostgreSQL cluster through TeamJobMirror and the real PgCronJobs. Whatever
// writes a ledger (the API, `nanohermes cron`, the scheduler's own pause) is shared at the next
// sync; a change the team refuses leaves the team's job in place and the loser's in the inbox.
import { join } from "node:path";
import { expect, it } from "vitest";
import { CronStore } from "../../src/cron/store.js";
import { tempDir } from "../helpers/cli.js";
import { cronJob, teamCronBench } from "../helpers/team-cron.js";

const bench = teamCronBench("jobs");
const job = (name: string, prompt: string, createdAt = Date.now()) => cronJob(name, prompt, createdAt);

it("shares a job added, paused, resumed and removed on either daemon; failures stay each daemon's own", async () => {
  const url = await bench.database();
  const [a, b] = [await bench.daemon(url, "a:1"), await bench.daemon(url, "b:2")];
  a.ledger.addJob(job("nightly", "run the slow tests"));
  expect(await a.mirror.sync()).toEqual({ lost: [] });
  expect(b.ledger.job("nightly")).toBeNull();
  expect(await b.mirror.sync()).toEqual({ lost: [] });
  expect(b.ledger.job("nightly")).toMatchObject({ prompt: "run the slow tests", enabled: true, failures: 0 });
  expect(b.changes).toHaveLength(1);
  // A sync with nothing new changes nothing.
  await b.mirror.sync();
  expect(b.changes).toHaveLength(1);

  // Paused on B (as the scheduler does after failed runs): A takes the pause; B's count stays B's.
  const run = b.ledger.claim("nightly", 1_000, false);
  if (!("id" in run)) throw new Error("claim refused");
  b.ledger.finish(run.id, "failed", null, "boom");
  b.ledger.setEnabled("nightly", false, "paused after 1 failed run");
  await b.mirror.sync();
  await a.mirror.sync();
  expect(a.ledger.job("nightly")).toMatchObject({
    enabled: false,
    pausedReason: "paused after 1 failed run",
    failures: 0,
  });
  expect(b.ledger.job("nightly")?.failures).toBe(1);

  // Resumed on A: B resumes too, and its failure count starts again.
  a.ledger.setEnabled("nightly", true);
  await a.mirror.sync();
  await b.mirror.sync();
  expect(b.ledger.job("nightly")).toMatchObject({ enabled: true, pausedReason: null, failures: 0 });

  // Removed on A: gone from B with its runs.
  a.ledger.removeJob("nightly");
  await a.mirror.sync();
  await b.mirror.sync();
  expect(b.ledger.job("nightly")).toBeNull();
  expect(b.ledger.runs("nightly")).toEqual([]);
  expect(await a.team.cronJobs!.all()).toEqual([]);
}, 30_000);

it("a name added on two daemons at once: the first to sync keeps it, the other gets it back and an inbox note", async () => {
  const url = await bench.database();
  const [a, b] = [await bench.daemon(url, "a:1"), await bench.daemon(url, "b:2")];
  a.ledger.addJob(job("triage", "triage the new issues"));
  b.ledger.addJob(job("triage", "label the pull requests", Date.now() + 1));
  expect((await a.mirror.sync()).lost).toEqual([]);
  const report = await b.mirror.sync();
  expect(report.lost).toEqual([{ name: "triage", reason: "the team has a job of that name already" }]);
  expect(b.ledger.job("triage")?.prompt).toBe("triage the new issues");
  const note = b.ledger.inbox()[0]!.text;
  expect(note).toMatch(/^cron triage: the change made on this daemon was not shared/);
  // What B's user asked for is not lost: it is in the note.
  expect(note).toContain('"label the pull requests"');
  expect((await a.team.cronJobs!.all()).map((j) => j.prompt)).toEqual(["triage the new issues"]);
}, 30_000);

it("a change to a job the team removed meanwhile is refused; a job removed and added again is a new job", async () => {
  const url = await bench.database();
  const [a, b] = [await bench.daemon(url, "a:1"), await bench.daemon(url, "b:2")];
  a.ledger.addJob(job("report", "write the weekly report", 1_000));
  await a.mirror.sync();
  await b.mirror.sync();
  // B pauses it while A removes it; A syncs first.
  b.ledger.setEnabled("report", false, "paused by the user");
  a.ledger.removeJob("report");
  await a.mirror.sync();
  expect((await b.mirror.sync()).lost).toEqual([
    { name: "report", reason: "the team removed or replaced this job meanwhile" },
  ]);
  expect(b.ledger.job("report")).toBeNull();
  // Added again on A under the same name: B takes the new one, not a stale copy.
  a.ledger.addJob(job("report", "write the monthly report", 2_000));
  await a.mirror.sync();
  await b.mirror.sync();
  expect(b.ledger.job("report")).toMatchObject({ prompt: "write the monthly report", createdAt: 2_000 });
}, 30_000);

it("shares at start a ledger written while the daemon was down, and keeps a change while the database is away", async () => {
  const url = await bench.database();
  const a = await bench.daemon(url, "a:1");
  // B's machine: jobs added with `nanohermes cron add` before its daemon ever joined the team.
  const home = tempDir("nh-home-");
  const offline = await CronStore.open(join(home, "cron.db"));
  offline.addJob(job("backup", "back up the wiki"));
  offline.close();
  const b = await bench.daemon(url, "b:2", home);
  await b.mirror.sync();
  await a.mirror.sync();
  expect(a.ledger.job("backup")?.prompt).toBe("back up the wiki");

  // The database goes away: a change made meanwhile is kept here, and shared once it is back.
  await bench.cluster.kill();
  try {
    a.ledger.setEnabled("backup", false, "paused by the user");
    const away = await a.mirror.sync();
    expect(away.error).toBeTruthy();
    expect(a.ledger.job("backup")?.enabled).toBe(false);
  } finally {
    await bench.cluster.start();
  }
  let report = await a.mirror.sync();
  // The pool's first query after a restart may meet a dropped connection; the next one reconnects.
  for (let i = 0; i < 20 && report.error; i++) report = await a.mirror.sync();
  expect(report).toEqual({ lost: [] });
  let shared = await b.mirror.sync();
  for (let i = 0; i < 20 && shared.error; i++) shared = await b.mirror.sync();
  expect(b.ledger.job("backup")).toMatchObject({ enabled: false, pausedReason: "paused by the user" });
}, 60_000);
