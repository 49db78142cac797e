// The team's cron ledger (issue 34, item 4): two daemons' ledgers (two cron.db files) share their
// run rows and inbox items through a private PostgreSQL cluster, via TeamJobMirror, TeamLedgerMirror
// and the real PgCronJobs/PgCronLedger. Each ledger keeps its own rows as before; `runs` and `inbox`
// also show the other daemon's, named by its node.
import { join } from "node:path";
import { expect, it } from "vitest";
import { CronStore } from "../../src/cron/store.js";
import { tempDir } from "../helpers/cli.js";
import { cronJob, teamCronBench } from "../helpers/team-cron.js";

const bench = teamCronBench("ledger");
const job = (name: string) => cronJob(name, "check it", 1_000);

it("each daemon's runs and inbox show on the other, every change of a run's status included, a read item stays read", async () => {
  const url = await bench.database();
  // A's machine ran the job before its daemon joined the team: that run is shared too.
  const home = tempDir("nh-home-");
  const before = await CronStore.open(join(home, "cron.db"));
  before.addJob(job("nightly"));
  const old = before.claim("nightly", 5_000, false) as { id: number };
  before.finish(old.id, "completed", "all green", null);
  before.close();
  const a = await bench.daemon(url, "a:1", home);
  const b = await bench.daemon(url, "b:2");
  expect(await a.mirror.sync()).toEqual({ lost: [] });
  expect(await b.mirror.sync()).toEqual({ lost: [] });
  expect(b.ledger.runs("nightly")).toMatchObject([
    { id: old.id, scheduledFor: 5_000, status: "completed", node: "a:1" },
  ]);

  // An instant both claim: A runs it, B records who did. Each view holds both rows, its own first.
  const mine = a.ledger.claim("nightly", 9_000, false) as { id: number };
  a.ledger.markRunning(mine.id, "cron-nightly-x");
  const theirs = b.ledger.claim("nightly", 9_000, false) as { id: number };
  b.ledger.firedElsewhere(theirs.id, "fired by a:1");
  await a.mirror.sync();
  await b.mirror.sync();
  await a.mirror.sync();
  expect(b.ledger.runs("nightly").map((r) => [r.scheduledFor, r.status, r.node ?? "here"])).toEqual([
    [9_000, "skipped", "here"],
    [9_000, "running", "a:1"],
    [5_000, "completed", "a:1"],
  ]);
  expect(a.ledger.runs("nightly")[1]).toMatchObject({ scheduledFor: 9_000, status: "skipped", node: "b:2" });

  // The run ends on A with a refusal parked: B takes the new status and the item.
  a.ledger.park("nightly", mine.id, "cron nightly wanted: run_command: not run");
  a.ledger.finish(mine.id, "completed", "could not", null);
  await a.mirror.sync();
  await b.mirror.sync();
  expect(b.ledger.runs("nightly")[1]).toMatchObject({ status: "completed", response: "could not", node: "a:1" });
  expect(b.ledger.unseen()).toBe(1);
  expect(b.ledger.inbox(true)).toMatchObject([
    { job: "nightly", runId: mine.id, node: "a:1", seen: false, text: "cron nightly wanted: run_command: not run" },
  ]);
  // Read on B, it stays read when the next syncs bring it again; A's own copy is A's to read.
  await b.mirror.sync();
  expect(b.ledger.unseen()).toBe(0);
  expect(a.ledger.unseen()).toBe(1);

  // Removed on B: the job's runs leave both views.
  b.ledger.removeJob("nightly");
  await b.mirror.sync();
  await a.mirror.sync();
  expect(a.ledger.job("nightly")).toBeNull();
  expect(a.ledger.runs("nightly")).toEqual([]);
  expect(b.ledger.runs("nightly")).toEqual([]);
}, 30_000);

it("a run that ends while the database is away is kept and shared once it is back", async () => {
  const url = await bench.database();
  const [a, b] = [await bench.daemon(url, "a:1"), await bench.daemon(url, "b:2")];
  a.ledger.addJob(job("backup"));
  await a.mirror.sync();
  await b.mirror.sync();
  const run = a.ledger.claim("backup", 7_000, false) as { id: number };
  await bench.cluster.kill();
  try {
    a.ledger.finish(run.id, "failed", null, "the model did not answer");
    const away = await a.mirror.sync();
    expect(away.error).toBeTruthy();
  } finally {
    await bench.cluster.start();
  }
  let report = await a.mirror.sync();
  // The pool's first query after a restart may meet a dropped connection; the next one reconnects.
  for (let i = 0; i < 20 && report.error; i++) report = await a.mirror.sync();
  expect(report).toEqual({ lost: [] });
  let shared = await b.mirror.sync();
  for (let i = 0; i < 20 && shared.error; i++) shared = await b.mirror.sync();
  expect(b.ledger.runs("backup")).toMatchObject([
    { id: run.id, status: "failed", error: "the model did not answer", node: "a:1" },
  ]);
}, 60_000);
