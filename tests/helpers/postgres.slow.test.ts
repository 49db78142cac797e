// The PostgreSQL test helper waits on initdb and pg_ctl without blocking the test process: a
// callback queued when a program begins runs before that program has ended (with a synchronous
// exec nothing runs in between). And a start that cannot come up fails after its tries with the
// end of the server's log, and the cluster starts again once the cause is gone.
import { createServer, type Server } from "node:net";
import { afterAll, expect, it } from "vitest";
import { type PgCluster, startPgCluster } from "./postgres.js";

const clusters: PgCluster[] = [];
afterAll(async () => {
  await Promise.all(clusters.map((c) => c.stop()));
});

it("keeps the event loop running while initdb and pg_ctl run", async () => {
  const order: string[] = [];
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const onRun = (step: string, phase: "begun" | "ended") => {
    order.push(`${step} ${phase}`);
    if (phase === "begun") setImmediate(() => order.push(`loop ran during ${step}`));
  };
  try {
    const cluster = await startPgCluster({ onRun });
    clusters.push(cluster);
    await cluster.kill();
    await cluster.start();
    await cluster.stop();
  } finally {
    clearInterval(timer);
  }
  expect(order).toEqual([
    "initdb begun",
    "loop ran during initdb",
    "initdb ended",
    "pg_ctl start begun",
    "loop ran during pg_ctl start",
    "pg_ctl start ended",
    "pg_ctl stop begun",
    "loop ran during pg_ctl stop",
    "pg_ctl stop ended",
    "pg_ctl start begun",
    "loop ran during pg_ctl start",
    "pg_ctl start ended",
    "pg_ctl stop begun",
    "loop ran during pg_ctl stop",
    "pg_ctl stop ended",
  ]);
  expect(ticks).toBeGreaterThan(0);
}, 120_000);

it("fails a start that cannot come up after three tries, with the server log's end, and starts once the port is free", async () => {
  const steps: string[] = [];
  const cluster = await startPgCluster({ onRun: (step, phase) => phase === "begun" && steps.push(step) });
  clusters.push(cluster);
  await cluster.kill();
  // Another program takes the cluster's port meanwhile.
  const squatter: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    squatter.once("error", reject);
    squatter.listen(cluster.port, "127.0.0.1", resolve);
  });
  steps.length = 0;
  try {
    await expect(cluster.start()).rejects.toThrow(
      /PostgreSQL did not start \(3 tries\): [\s\S]*Address already in use/,
    );
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }
  expect(steps).toEqual(["pg_ctl start", "pg_ctl stop", "pg_ctl start", "pg_ctl stop", "pg_ctl start", "pg_ctl stop"]);
  await cluster.start();
  const url = await cluster.createDatabase("after_the_squatter");
  expect(url).toBe(`postgres://nh@127.0.0.1:${cluster.port}/after_the_squatter`);
}, 120_000);
